"""How much of MindSpore 2.10's public API MindJAX has, measured against the installed ``mindspore``.

Seven families are compared by name:

- ``ops`` functions: the public lower-case names of ``mindspore.ops`` that are
  not modules (``ops.matmul``, ``ops.unstack`` ...);
- ``ops`` Primitives: the public upper-case names of ``mindspore.ops`` that are
  ``Primitive`` subclasses (``ops.MatMul``, ``ops.Unstack`` ...);
- ``nn`` classes: the public classes of ``mindspore.nn`` (Cells, learning-rate
  schedules, metrics ...);
- ``Tensor`` methods: the public attributes of ``mindspore.Tensor``, looked up
  on the type of what ``mindjax.Tensor(...)`` returns;
- ``mint`` functions, ``mint.nn`` classes and ``mint.nn.functional`` functions: the
  public names of ``mindspore.mint`` (PyTorch-style API) that are not modules, less the
  names its modules import for their own use (``ops``, ``validator``, ``constexpr``,
  ``absolute_import``, ``cdist_``, ``jit_forbidden_register``, ``jit_view_unsupported``,
  ``*_op``, ``*_impl``, ``npu_*``).

A name counts as present when MindJAX's namespace has it, whatever it does;
the parity tests in ``tests/parity/`` check behaviour. Names MindSpore itself
marks internal (a leading underscore) are not counted.

Run: ``python -m benchmarks.api_coverage`` (counts, then the missing names), with
``--counts`` for the table only, or ``--json`` for machine-readable output.
"""
from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
from dataclasses import dataclass, field
from typing import Any, Callable

os.environ.setdefault("GLOG_v", "3")  # MindSpore's C++ logging: errors only


@dataclass
class Family:
    """One family of public names: MindSpore's, and those of them MindJAX lacks."""

    name: str
    reference: list[str]
    missing: list[str] = field(default_factory=list)

    @property
    def present(self) -> int:
        """How many of MindSpore's names MindJAX has."""
        return len(self.reference) - len(self.missing)

    @property
    def percent(self) -> float:
        """The share present, in percent."""
        return 100.0 * self.present / max(len(self.reference), 1)


def _public(namespace: Any, keep: Callable[[str, Any], bool]) -> list[str]:
    names = []
    for name in dir(namespace):
        if name.startswith("_"):
            continue
        try:
            value = getattr(namespace, name)
        except Exception:  # noqa: BLE001 - a lazy attribute that fails to load is not public API
            continue
        if keep(name, value):
            names.append(name)
    return sorted(names)


# Names mint's modules import for their own use: not in ``mindspore.mint.__all__`` (``cdist_`` is its
# alias of ``ops.cdist``; the ``jit_*`` ones are MindSpore's graph-compiler decorators).
_MINT_INTERNAL = ("absolute_import", "ops", "validator", "constexpr", "cdist_", "jit_forbidden_register",
                  "jit_view_unsupported")


def _mint_public(name: str, value: Any) -> bool:
    """A name of ``mindspore.mint*`` that is its API, not one its module imports for its own use."""
    return not (inspect.ismodule(value) or name in _MINT_INTERNAL or name.endswith(("_op", "_impl"))
                or name.startswith("npu_"))


def _has(namespace: Any, name: str) -> bool:
    try:
        getattr(namespace, name)
    except Exception:  # noqa: BLE001 - AttributeError, or a lazy import that fails
        return False
    return True


def measure() -> list[Family]:
    """Compare the installed ``mindspore`` with ``mindjax``; return one :class:`Family` per family."""
    import numpy as np
    import mindspore
    from mindspore import nn as ms_nn, ops as ms_ops

    import mindspore.mint as ms_mint
    import mindspore.mint.nn.functional as ms_mint_f
    import mindjax
    import mindjax.mint as mj_mint
    import mindjax.mint.nn.functional as mj_mint_f
    from mindjax import nn as mj_nn, ops as mj_ops

    ms_functions = _public(ms_ops, lambda n, v: n[0].islower() and not inspect.ismodule(v))
    ms_primitives = _public(ms_ops, lambda n, v: n[0].isupper() and inspect.isclass(v)
                            and issubclass(v, ms_ops.Primitive))
    ms_classes = _public(ms_nn, lambda n, v: inspect.isclass(v))
    ms_methods = _public(mindspore.Tensor, lambda n, v: True)
    tensor_type = type(mindjax.Tensor(np.zeros((1,), np.float32)))

    families = [
        Family("ops functions (lower-case)", ms_functions),
        Family("ops Primitives (upper-case)", ms_primitives),
        Family("nn classes", ms_classes),
        Family("Tensor methods", ms_methods),
        Family("mint functions", _public(ms_mint, _mint_public)),
        Family("mint.nn classes", _public(ms_mint.nn, lambda n, v: inspect.isclass(v))),
        Family("mint.nn.functional functions", _public(ms_mint_f, _mint_public)),
    ]
    namespaces = (mj_ops, mj_ops, mj_nn, tensor_type, mj_mint, mj_mint.nn, mj_mint_f)
    for family, namespace in zip(families, namespaces):
        family.missing = [n for n in family.reference if not _has(namespace, n)]
    return families


def markdown(families: list[Family]) -> str:
    """The counts as a markdown table."""
    lines = ["| MindSpore 2.10 public API | in MindJAX | of | share |", "|---|---:|---:|---:|"]
    for f in families:
        lines.append(f"| {f.name} | {f.present} | {len(f.reference)} | {f.percent:.0f}% |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    """Print the coverage table, then (unless ``--counts``) the missing names of each family."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.api_coverage", description=__doc__.split("\n")[0])
    parser.add_argument("--counts", action="store_true", help="print the table only")
    parser.add_argument("--json", action="store_true", help="print counts and missing names as JSON")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    families = measure()
    if args.json:
        print(json.dumps({f.name: {"present": f.present, "total": len(f.reference), "missing": f.missing}
                          for f in families}, indent=1))
        return
    print(markdown(families))
    if args.counts:
        return
    for f in families:
        print(f"\n### missing {f.name}: {len(f.missing)}\n")
        print(" ".join(f.missing) if f.missing else "(none)")


if __name__ == "__main__":
    main()
