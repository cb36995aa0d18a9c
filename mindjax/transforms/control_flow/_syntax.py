"""Static checks on a function's AST: constructs GRAPH mode cannot compile."""
from __future__ import annotations

import ast

from mindjax.transforms.control_flow._errors import ControlFlowSyntaxError

_MUTATING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "update",
                               "setdefault", "add", "discard", "appendleft", "popleft"})

_UNSUPPORTED: dict[type, tuple[str, str]] = {
    ast.Try: ("`try`/`except`",
              "check the condition with `if` instead, or handle the error outside the compiled "
              "Cell or function"),
    ast.With: ("`with`", "call what the context manager does directly, or move the `with` "
                         "outside the compiled Cell or function"),
    ast.AsyncWith: ("`async with`", "move it outside the compiled Cell or function"),
    ast.AsyncFor: ("`async for`", "move it outside the compiled Cell or function"),
    ast.AsyncFunctionDef: ("`async def`", "use a plain `def`"),
    ast.Await: ("`await`", "move it outside the compiled Cell or function"),
    ast.Yield: ("`yield` (a generator)", "build a list or tuple and return it"),
    ast.YieldFrom: ("`yield from` (a generator)", "build a list or tuple and return it"),
    ast.Global: ("`global`", "keep state in a Parameter of the Cell (`self.x = Parameter(...)`) or "
                             "return the value"),
    ast.Nonlocal: ("`nonlocal`", "return the new value from the inner function instead"),
    ast.Match: ("`match`", "write it as `if`/`elif`/`else`"),
}
if hasattr(ast, "TryStar"):
    _UNSUPPORTED[ast.TryStar] = _UNSUPPORTED[ast.Try]


def check_supported(fdef: ast.FunctionDef, filename: str, where: str) -> None:
    """Raise :class:`ControlFlowSyntaxError` for the first unsupported construct in ``fdef``."""
    for node in ast.walk(fdef):
        found = _UNSUPPORTED.get(type(node))
        if found is not None:
            what, instead = found
            raise ControlFlowSyntaxError(f"{what} is not supported; {instead}", filename,
                                         node.lineno, where)
        if isinstance(node, (ast.For, ast.While)) and node.orelse:
            kind = "for" if isinstance(node, ast.For) else "while"
            raise ControlFlowSyntaxError(
                f"`{kind} ... else` is not supported; set a flag before `break` and test it after "
                f"the loop", filename, node.orelse[0].lineno - 1 if node.orelse else node.lineno, where)
        if isinstance(node, (ast.For, ast.While)):
            _check_lambdas_in_loop(node, filename, where)


def assigned_in(nodes: list[ast.stmt] | ast.AST) -> set[str]:
    """Names bound in this scope by ``nodes`` (nested functions and comprehensions excluded)."""
    found: set[str] = set()
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.add(node.name)
            stack.extend(node.decorator_list)
            continue
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            found.add(node.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                found.add((alias.asname or alias.name).split(".")[0])
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            found.add(node.target.id)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _loaded(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}


def _check_lambdas_in_loop(loop: ast.For | ast.While, filename: str, where: str) -> None:
    """A lambda kept past its iteration that reads a loop variable would see a different value.

    Python's closures see the variable's last value; in a converted loop each
    iteration is its own function, so such a lambda would see its own
    iteration's value. Lambdas called at once are the same either way.
    """
    loop_vars = assigned_in(loop.body)
    if isinstance(loop, ast.For):
        loop_vars |= assigned_in([ast.Assign(targets=[loop.target], value=ast.Constant(None))])
    kept: list[ast.Lambda] = []
    for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Lambda):
            kept.append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _MUTATING_METHODS:
            kept.extend(a for a in node.args if isinstance(a, ast.Lambda))
        elif isinstance(node, (ast.List, ast.Tuple, ast.Dict, ast.Set)):
            elts = node.values if isinstance(node, ast.Dict) else node.elts
            kept.extend(a for a in elts if isinstance(a, ast.Lambda))
    for lam in kept:
        params = {a.arg for a in lam.args.args + lam.args.kwonlyargs + lam.args.posonlyargs}
        if lam.args.vararg:
            params.add(lam.args.vararg.arg)
        if lam.args.kwarg:
            params.add(lam.args.kwarg.arg)
        bad = sorted((_loaded(lam.body) - params) & loop_vars)
        if bad:
            name = bad[0]
            raise ControlFlowSyntaxError(
                f"a lambda kept beyond its loop iteration captures the loop variable '{name}'; "
                f"bind it as a default argument: `lambda ..., {name}={name}: ...`",
                filename, lam.lineno, where)


def scan_safe(body: list[ast.stmt]) -> bool:
    """True when a loop body has no Python side effects a ``lax.scan`` would lose."""
    for node in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr in _MUTATING_METHODS:
            return False
        if isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(node.ctx, (ast.Store, ast.Del)):
            return False
        if isinstance(node, (ast.Raise, ast.Return)):
            return False
    return True
