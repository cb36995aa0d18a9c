"""How much of MindSpore 2.10's public API MindJAX has, measured against the installed ``mindspore``.

Four families are compared by name:

- ``ops`` functions: the public lower-case names of ``mindspore.ops`` that are
  not modules (``ops.matmul``, ``ops.unstack`` ...);
- ``ops`` Primitives: the public upper-case names of ``mindspore.ops`` that are
  ``Primitive`` subclasses (``ops.MatMul``, ``ops.Unstack`` ...);
- ``nn`` classes: the public classes of ``mindspore.nn`` (Cells, learning-rate
  schedules, metrics ...);
- ``Tensor`` methods: the public attributes of ``mindspore.Tensor``, looked up
  on the type of what ``mindjax.Tensor(...)`` returns.

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

    import mindjax
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
    ]
    for family, namespace in zip(families, (mj_ops, mj_ops, mj_nn, tensor_type)):
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
