"""Run the benchmarks: ``python -m benchmarks all`` or ``python -m benchmarks NAME [args...]``.

``all`` runs, one after another, every module of this folder that defines a
top-level ``main()`` (cell_call, train_step, dataset_pipeline, parallel_* ...),
each in its own Python process: modules set their own ``XLA_FLAGS`` before JAX
starts, and one benchmark's global state must not leak into the next. Each
prints its markdown table. ``NAME`` runs one module and passes the remaining
arguments to it. ``list`` prints the names.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
import time

_HERE = os.path.dirname(os.path.abspath(__file__))
_ROOT = os.path.dirname(_HERE)


def benchmark_names() -> list[str]:
    """The modules of this folder with a top-level ``def main``, sorted (found without importing them)."""
    names = []
    for file in sorted(os.listdir(_HERE)):
        if not file.endswith(".py") or file.startswith("_"):
            continue
        with open(os.path.join(_HERE, file), encoding="utf-8") as f:
            tree = ast.parse(f.read(), filename=file)
        if any(isinstance(node, ast.FunctionDef) and node.name == "main" for node in tree.body):
            names.append(file[:-3])
    return names


def run(name: str, args: list[str]) -> int:
    """Run ``benchmarks.<name>.main()`` in a fresh process with ``args``; return its exit status."""
    code = f"import sys; sys.argv[0] = 'benchmarks.{name}'; import benchmarks.{name} as m; m.main()"
    env = dict(os.environ)
    env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return subprocess.call([sys.executable, "-c", code, *args], cwd=_ROOT, env=env)


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (``all``, ``list`` or a benchmark name plus its arguments) and run."""
    argv = sys.argv[1:] if argv is None else argv
    names = benchmark_names()
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        print("\nbenchmarks: " + ", ".join(names))
        return 0
    if argv[0] == "list":
        print("\n".join(names))
        return 0
    if argv[0] == "all":
        failed = []
        for name in names:
            print(f"\n## {name}\n", flush=True)
            start = time.perf_counter()
            status = run(name, [])
            print(f"\n({name}: {time.perf_counter() - start:.0f} s{'' if status == 0 else f', exit {status}'})",
                  flush=True)
            if status:
                failed.append(name)
        if failed:
            print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
        return 1 if failed else 0
    name = argv[0].removeprefix("benchmarks.").removesuffix(".py")
    if name not in names:
        print(f"unknown benchmark {argv[0]!r}; choose one of: all, list, {', '.join(names)}", file=sys.stderr)
        return 2
    return run(name, argv[1:])


if __name__ == "__main__":
    sys.exit(main())
