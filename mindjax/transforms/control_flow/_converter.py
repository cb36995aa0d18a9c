"""Source to source: Python control flow in a function becomes calls to ``_runtime``.

``if``/``while``/``for`` bodies become nested functions of the variables they
assign (the *state*) and the statement becomes ``state = _mj_rt.if_stmt(...)``
and so on. ``return``/``break``/``continue`` inside control flow become flags
(``_mj_done``, ``_mj_brk_N``, ``_mj_cont_N``) that guard the statements after
them; an ``if`` whose body always exits takes the following statements into its
``else`` first, so the common early return needs no guard. ``and``/``or``/
``not``/``x if c else y`` become runtime calls too, so they work on tensors;
calls go through ``_mj_rt.call`` so that user functions they reach are
converted as well.

The new code is compiled with the original file name and line numbers, so
tracebacks point at the user's source.
"""
from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
import types
import weakref
from typing import Any, Callable

from mindjax.transforms.control_flow import _runtime
from mindjax.transforms.control_flow._errors import ControlFlowSyntaxError
from mindjax.transforms.control_flow._syntax import assigned_in, check_supported, scan_safe

RT = "_mj_rt"
_GENERATED = "_mj_f_"
_BUILTINS_NOT_WRAPPED = frozenset({
    "range", "len", "isinstance", "issubclass", "print", "type", "int", "float", "bool", "str",
    "tuple", "list", "dict", "set", "frozenset", "zip", "enumerate", "getattr", "setattr", "hasattr",
    "min", "max", "abs", "sum", "any", "all", "map", "filter", "sorted", "reversed", "iter", "next",
    "id", "repr", "round", "divmod", "pow", "format", "slice", "object", "locals", "globals",
    "vars", "dir", "callable", "hash", "super", "ValueError", "TypeError", "RuntimeError",
    "KeyError", "IndexError", "NotImplementedError", "AssertionError",
})


def _rt(name: str) -> ast.expr:
    return ast.Attribute(value=ast.Name(id=RT, ctx=ast.Load()), attr=name, ctx=ast.Load())


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=_rt(name), args=list(args), keywords=[])


def _const(value: Any) -> ast.Constant:
    return ast.Constant(value=value)


def _lambda(body: ast.expr) -> ast.Lambda:
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None, kwonlyargs=[],
                                         kw_defaults=[], kwarg=None, defaults=[]), body=body)


def _assign(name: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[ast.Name(id=name, ctx=ast.Store())], value=value)


def _names_tuple(names: list[str], ctx: ast.expr_context) -> ast.Tuple:
    return ast.Tuple(elts=[ast.Name(id=n, ctx=ctx) for n in names], ctx=ctx)


def _is_rt_call(node: ast.Call) -> bool:
    f = node.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == RT


def _terminates(block: list[ast.stmt]) -> bool:
    return bool(block) and _stmt_terminates(block[-1])


def _stmt_terminates(s: ast.stmt) -> bool:
    if isinstance(s, (ast.Return, ast.Break, ast.Continue, ast.Raise)):
        return True
    return isinstance(s, ast.If) and _terminates(s.body) and _terminates(s.orelse)


def _restructure(stmts: list[ast.stmt]) -> list[ast.stmt]:
    """Move the statements after an exiting branch into the other branch; drop dead code."""
    out: list[ast.stmt] = []
    for i, s in enumerate(stmts):
        rest = stmts[i + 1:]
        if isinstance(s, ast.If):
            body_exits, else_exits = _terminates(s.body), _terminates(s.orelse)
            if rest and body_exits and not else_exits:
                s.orelse = s.orelse + rest
                rest = []
            elif rest and else_exits and not body_exits:
                s.body = s.body + rest
                rest = []
            s.body = _restructure(s.body)
            s.orelse = _restructure(s.orelse)
        elif isinstance(s, (ast.For, ast.While)):
            s.body = _restructure(s.body)
        out.append(s)
        if not rest and i + 1 < len(stmts):
            return out
        if _stmt_terminates(s):
            return out
    return out


def _walk_scope(node: ast.AST, into_loops: bool) -> Any:
    """Nodes of ``node`` within the same function (and, unless ``into_loops``, the same loop)."""
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        for child in ast.iter_child_nodes(n):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
                continue
            if not into_loops and isinstance(child, (ast.For, ast.While)):
                continue
            stack.append(child)


def _has(node: ast.AST, kind: type, into_loops: bool) -> bool:
    if isinstance(node, (ast.For, ast.While)) and not into_loops and kind in (ast.Break, ast.Continue):
        return False
    return any(isinstance(n, kind) for n in _walk_scope(node, into_loops))


def _needs_return_flags(body: list[ast.stmt]) -> bool:
    for s in body:
        if isinstance(s, (ast.If, ast.For, ast.While)) and _has(s, ast.Return, True):
            return True
    return False


class _Loop:
    def __init__(self, brk: str | None, cont: str | None) -> None:
        self.brk, self.cont = brk, cont


class _Expr(ast.NodeTransformer):
    """Expressions: boolean operators, conditional expressions, calls and mask indexing."""

    def __init__(self, conv: "_FunctionConverter") -> None:
        self.conv = conv

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        values = [self.visit(v) for v in node.values]
        name = "and_" if isinstance(node.op, ast.And) else "or_"
        return ast.copy_location(_call(name, values[0], *[_lambda(v) for v in values[1:]]), node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        node = self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call("not_", node.operand), node)
        return node

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node = self.generic_visit(node)
        return ast.copy_location(_call("ifexp", node.test, _lambda(node.body), _lambda(node.orelse),
                                       _const(self.conv.info(node))), node)

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        node = self.generic_visit(node)
        if len(node.ops) == 1 or not all(isinstance(c, (ast.Name, ast.Constant))
                                         for c in node.comparators[:-1]):
            return node
        left, parts = node.left, []
        for op, right in zip(node.ops, node.comparators):
            parts.append(ast.Compare(left=left, ops=[op], comparators=[right]))
            left = right
        return ast.copy_location(_call("and_", parts[0], *[_lambda(p) for p in parts[1:]]), node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        node = self.generic_visit(node)
        if _is_rt_call(node):
            return node
        f = node.func
        if isinstance(f, ast.Name) and f.id == "super" and not node.args and self.conv.self_name:
            node.args = [ast.Name(id="__class__", ctx=ast.Load()),
                         ast.Name(id=self.conv.self_name, ctx=ast.Load())]
            return node
        if isinstance(f, ast.Name) and f.id == "print":
            return ast.copy_location(ast.Call(func=_rt("print_"), args=node.args,
                                              keywords=node.keywords), node)
        if isinstance(f, ast.Name) and f.id in _BUILTINS_NOT_WRAPPED:
            return node
        return ast.copy_location(ast.Call(func=_rt("call"), args=[f, *node.args],
                                          keywords=node.keywords), node)

    def visit_Subscript(self, node: ast.Subscript) -> ast.expr:
        node = self.generic_visit(node)
        if not isinstance(node.ctx, ast.Load):
            return node
        idx = node.slice
        parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        if any(isinstance(p, (ast.Slice, ast.Starred)) for p in parts) or \
                all(isinstance(p, ast.Constant) for p in parts):
            return node
        return ast.copy_location(_call("getitem", node.value, idx, _const(self.conv.info(node))), node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.expr:
        return self.generic_visit(node)

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> ast.expr:
        # MindSpore's graph mode parses a generator expression as a list comprehension: a compiled
        # function returns the list, and sum()/tuple()/any() over it read the same items.
        node = self.generic_visit(node)
        return ast.copy_location(ast.ListComp(elt=node.elt, generators=node.generators), node)


class _FunctionConverter:
    """Converts one function body (nested functions get their own converter)."""

    def __init__(self, filename: str, where: str, counter: Any, self_name: str | None) -> None:
        self.filename = filename
        self.where = where
        self.counter = counter
        self.self_name = self_name
        self.loops: list[_Loop] = []
        self.ret = False
        self.state: set[str] = set()
        self.locals: set[str] = set()

    def info(self, node: ast.AST) -> str:
        return f"{self.filename}:{getattr(node, 'lineno', '?')}"

    def fresh(self, prefix: str) -> str:
        return f"{prefix}_{next(self.counter)}"

    def expr(self, node: ast.expr) -> ast.expr:
        return _Expr(self).visit(node)

    # -- functions ---------------------------------------------------------------------
    def convert(self, fdef: ast.FunctionDef) -> ast.FunctionDef:
        body = list(fdef.body)
        docstring = []
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            docstring, body = body[:1], body[1:]
        # Restructuring can move a `return` into a branch (`if c: raise ...` followed by
        # `return y`), so whether returns need flags is decided on the restructured body.
        body = _restructure(body)
        self.ret = _needs_return_flags(body)
        if self.ret and not _terminates(body):
            end = ast.Return(value=None)
            ast.copy_location(end, body[-1] if body else fdef)
            body = _restructure(body + [end])
        params = {a.arg for a in fdef.args.args + fdef.args.posonlyargs + fdef.args.kwonlyargs}
        for extra in (fdef.args.vararg, fdef.args.kwarg):
            if extra is not None:
                params.add(extra.arg)
        self.locals = params | assigned_in(body)
        lowered = self.block(body)
        init: list[ast.stmt] = [_assign(n, _call("Undefined", _const(n)))
                                for n in sorted(self.state - params)]
        if self.ret:
            init.append(_assign("_mj_done", _const(False)))
            lowered.append(ast.Return(value=_call("result", ast.Name(id="_mj_ret", ctx=ast.Load()))))
        for s in init:
            ast.copy_location(s, fdef)
        fdef.body = docstring + init + lowered or [ast.Pass()]
        return fdef

    # -- blocks --------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, s in enumerate(stmts):
            out.extend(self.stmt(s))
            rest = stmts[i + 1:]
            flags = self.exit_flags(s)
            if flags and rest:
                test = _call("not_set", *[ast.Name(id=f, ctx=ast.Load()) for f in flags])
                out.extend(self.make_if(test, self.block(rest), [], rest[0]))
                break
        return out

    def exit_flags(self, s: ast.stmt) -> list[str]:
        if isinstance(s, (ast.Return, ast.Break, ast.Continue)):
            return []
        if self.loops:
            loop = self.loops[-1]
            flags = []
            if loop.brk and (_has(s, ast.Break, False) or (self.ret and _has(s, ast.Return, True))):
                flags.append(loop.brk)
            if loop.cont and _has(s, ast.Continue, False):
                flags.append(loop.cont)
            return flags
        return ["_mj_done"] if self.ret and _has(s, ast.Return, True) else []

    def stmt(self, s: ast.stmt) -> list[ast.stmt]:
        if isinstance(s, ast.Return):
            value = self.expr(s.value) if s.value is not None else _const(None)
            if not self.ret:
                return [ast.copy_location(ast.Return(value=_call("result", value)), s)]
            out = [_assign("_mj_ret", value), _assign("_mj_done", _const(True))]
            out += [_assign(loop.brk, _const(True)) for loop in self.loops if loop.brk]
            return [ast.copy_location(x, s) for x in out]
        if isinstance(s, ast.Break):
            return [ast.copy_location(_assign(self.loops[-1].brk, _const(True)), s)]
        if isinstance(s, ast.Continue):
            return [ast.copy_location(_assign(self.loops[-1].cont, _const(True)), s)]
        if isinstance(s, ast.If):
            return self.make_if(self.expr(s.test), self.block(s.body), self.block(s.orelse), s)
        if isinstance(s, ast.While):
            return self.make_while(s)
        if isinstance(s, ast.For):
            return self.make_for(s)
        if isinstance(s, ast.FunctionDef):
            sub = _FunctionConverter(self.filename, self.where, self.counter, None)
            for i, d in enumerate(s.decorator_list):
                s.decorator_list[i] = self.expr(d)
            s = sub.convert(s)
            s.decorator_list.append(_rt("converted"))
            return [s]
        if isinstance(s, ast.Raise) and s.exc is not None:
            exc = _call("raise_", self.expr(s.exc), _const(self.info(s)))
            cause = self.expr(s.cause) if s.cause is not None else None
            return [ast.copy_location(ast.Raise(exc=exc, cause=cause), s)]
        if isinstance(s, (ast.Assign, ast.AugAssign)):
            lowered = self.store(s)
            if lowered is not None:
                return [ast.copy_location(lowered, s)]
        if isinstance(s, ast.Delete):
            return [ast.copy_location(self.delete(t), s) for t in s.targets]
        if isinstance(s, ast.Assert):
            msg = _lambda(self.expr(s.msg)) if s.msg is not None else _const(None)
            return [ast.copy_location(ast.Expr(value=_call("assert_", self.expr(s.test), msg,
                                                           _const(self.info(s)))), s)]
        if isinstance(s, ast.ClassDef):
            return [s]
        return [_Expr(self).visit(s)]

    def store(self, s: ast.Assign | ast.AugAssign) -> ast.stmt | None:
        """``x[k] = v`` / ``obj.a = v`` (and ``+=`` forms) through the runtime, or ``None``.

        Subscript writes to a local name rebind it (``x = setitem(x, k, v)``) so that
        tensors update functionally; attribute and container writes go through helpers
        that GRAPH mode can undo and join when they run under a tensor condition.
        """
        targets = [s.target] if isinstance(s, ast.AugAssign) else s.targets
        if len(targets) != 1 or not isinstance(targets[0], (ast.Subscript, ast.Attribute)):
            return None
        target = targets[0]
        base = self.expr(target.value)
        value = self.expr(s.value)
        if isinstance(target, ast.Attribute):
            if isinstance(s, ast.AugAssign):
                value = ast.BinOp(left=ast.Attribute(value=base, attr=target.attr, ctx=ast.Load()),
                                  op=s.op, right=value)
            return ast.Expr(value=_call("setattr_", base, _const(target.attr), value))
        key = self.expr(target.slice)
        if isinstance(s, ast.AugAssign):
            old = ast.Subscript(value=base, slice=key, ctx=ast.Load())
            value = ast.BinOp(left=old, op=s.op, right=value)
        call = _call("setitem", base, key, value)
        if isinstance(target.value, ast.Name) and target.value.id in self.locals:
            return _assign(target.value.id, call)
        return ast.Expr(value=call)

    def delete(self, t: ast.expr) -> ast.stmt:
        if isinstance(t, ast.Name):
            return _assign(t.id, _call("Undefined", _const(t.id)))
        if isinstance(t, ast.Attribute):
            return ast.Expr(value=_call("delattr_", self.expr(t.value), _const(t.attr),
                                        _const(self.info(t))))
        if isinstance(t, ast.Subscript):
            return ast.Expr(value=_call("delitem", self.expr(t.value), self.expr(t.slice),
                                        _const(self.info(t))))
        return ast.Delete(targets=[_Expr(self).visit(t)])

    def state_of(self, block: list[ast.stmt], *exclude: str | None) -> list[str]:
        names = {n for n in assigned_in(block) if not n.startswith(_GENERATED)}
        return sorted(names - {e for e in exclude if e})

    def _def(self, name: str, params: list[str], body: list[ast.stmt], loc: ast.AST) -> ast.FunctionDef:
        args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params], vararg=None,
                             kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
        fdef = ast.FunctionDef(name=name, args=args, body=body or [ast.Pass()], decorator_list=[],
                               returns=None, type_params=[])
        return ast.copy_location(fdef, loc)

    def _bind(self, names: list[str], call: ast.Call, loc: ast.AST) -> ast.stmt:
        if names:
            node: ast.stmt = ast.Assign(targets=[_names_tuple(names, ast.Store())], value=call)
        else:
            node = ast.Expr(value=call)
        return ast.copy_location(node, loc)

    # -- if ------------------------------------------------------------------------------
    def make_if(self, test: ast.expr, body: list[ast.stmt], orelse: list[ast.stmt],
                loc: ast.AST) -> list[ast.stmt]:
        names = sorted(set(self.state_of(body)) | set(self.state_of(orelse)))
        self.state |= set(names)
        ret = [ast.Return(value=_names_tuple(names, ast.Load()))]
        t_name, f_name = self.fresh(_GENERATED + "if_true"), self.fresh(_GENERATED + "if_false")
        t_def = self._def(t_name, names, body + ret, loc)
        f_def = self._def(f_name, names, orelse + ret, loc)
        call = _call("if_stmt", test, ast.Name(id=t_name, ctx=ast.Load()),
                     ast.Name(id=f_name, ctx=ast.Load()), _names_tuple(names, ast.Load()),
                     ast.Tuple(elts=[_const(n) for n in names], ctx=ast.Load()), _const(self.info(loc)))
        return [t_def, f_def, self._bind(names, call, loc)]

    # -- loops ---------------------------------------------------------------------------
    def _open_loop(self, s: ast.For | ast.While) -> _Loop:
        needs_brk = _has(s, ast.Break, False) or (self.ret and _has(s, ast.Return, True))
        needs_brk = needs_brk or any(_has(c, ast.Break, False) for c in s.body)
        needs_cont = any(_has(c, ast.Continue, False) for c in s.body)
        loop = _Loop(self.fresh("_mj_brk") if needs_brk else None,
                     self.fresh("_mj_cont") if needs_cont else None)
        self.loops.append(loop)
        return loop

    def make_while(self, s: ast.While) -> list[ast.stmt]:
        loop = self._open_loop(s)
        try:
            body = self.block(s.body)
        finally:
            self.loops.pop()
        if loop.cont:
            body = [ast.copy_location(_assign(loop.cont, _const(False)), s)] + body
        names = self.state_of(body, loop.cont)
        if loop.brk and loop.brk not in names:
            names = sorted(names + [loop.brk])
        self.state |= set(names)
        test = self.expr(s.test)
        if loop.brk:
            test = _call("and_", _call("not_", ast.Name(id=loop.brk, ctx=ast.Load())), _lambda(test))
        c_name, b_name = self.fresh(_GENERATED + "while_cond"), self.fresh(_GENERATED + "while_body")
        c_def = self._def(c_name, names, [ast.copy_location(ast.Return(value=test), s)], s)
        b_def = self._def(b_name, names, body + [ast.Return(value=_names_tuple(names, ast.Load()))], s)
        call = _call("while_stmt", ast.Name(id=c_name, ctx=ast.Load()), ast.Name(id=b_name, ctx=ast.Load()),
                     _names_tuple(names, ast.Load()),
                     ast.Tuple(elts=[_const(n) for n in names], ctx=ast.Load()), _const(self.info(s)))
        pre = [ast.copy_location(_assign(loop.brk, _const(False)), s)] if loop.brk else []
        return pre + [c_def, b_def, self._bind(names, call, s)]

    def make_for(self, s: ast.For) -> list[ast.stmt]:
        loop = self._open_loop(s)
        try:
            body = self.block(s.body)
        finally:
            self.loops.pop()
        target = ast.copy_location(ast.Assign(targets=[s.target], value=ast.Name(id="_mj_item",
                                                                             ctx=ast.Load())), s)
        inner = [target] + body
        if loop.brk:
            guard = _call("not_set", ast.Name(id=loop.brk, ctx=ast.Load()))
            inner = self.make_if(guard, inner, [], s)
        if loop.cont:
            inner = [ast.copy_location(_assign(loop.cont, _const(False)), s)] + inner
        names = self.state_of(inner, loop.cont)
        if loop.brk and loop.brk not in names:
            names = sorted(names + [loop.brk])
        self.state |= set(names)
        it = s.iter
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range":
            it = ast.copy_location(ast.Call(func=_rt("range_"), args=it.args, keywords=it.keywords), it)
        it = self.expr(it)
        b_name = self.fresh(_GENERATED + "for_body")
        b_def = self._def(b_name, ["_mj_item"] + names,
                          inner + [ast.Return(value=_names_tuple(names, ast.Load()))], s)
        brk_pos = names.index(loop.brk) if loop.brk else None
        call = _call("for_stmt", it, ast.Name(id=b_name, ctx=ast.Load()), _names_tuple(names, ast.Load()),
                     ast.Tuple(elts=[_const(n) for n in names], ctx=ast.Load()), _const(brk_pos),
                     _const(scan_safe(s.body)), _const(self.info(s)))
        pre = [ast.copy_location(_assign(loop.brk, _const(False)), s)] if loop.brk else []
        return pre + [b_def, self._bind(names, call, s)]


# -- building the converted function -------------------------------------------------------
_FACTORIES: dict[types.CodeType, Callable[..., Any]] = {}
_CONVERTED: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_FALLBACK: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()
_COUNTER = itertools.count()


def _factory(fn: types.FunctionType) -> Callable[..., Any]:
    code = fn.__code__
    found = _FACTORIES.get(code)
    if found is not None:
        return found
    filename = inspect.getsourcefile(fn) or code.co_filename
    # From the code object: inspect.getsource(fn) would follow functools.wraps' __wrapped__ to
    # another function's source (a decorator's wrapper has its own code, globals and closure).
    source = textwrap.dedent(inspect.getsource(code))
    tree = ast.parse(source)
    ast.increment_lineno(tree, code.co_firstlineno - 1)
    fdef = next(n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))
    where = fn.__qualname__
    check_supported(fdef, filename, where)
    fdef.decorator_list = []
    fdef.returns = None
    fdef.args.defaults = []
    fdef.args.kw_defaults = [None] * len(fdef.args.kwonlyargs)
    for a in fdef.args.args + fdef.args.posonlyargs + fdef.args.kwonlyargs:
        a.annotation = None
    for a in (fdef.args.vararg, fdef.args.kwarg):
        if a is not None:
            a.annotation = None
    positional = fdef.args.posonlyargs + fdef.args.args
    self_name = positional[0].arg if positional and "__class__" in code.co_freevars else None
    _FunctionConverter(filename, where, _COUNTER, self_name).convert(fdef)
    factory_args = ast.arguments(posonlyargs=[], args=[ast.arg(arg=RT)] + [ast.arg(arg=n) for n in
                                                                           code.co_freevars],
                                 vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[])
    factory = ast.FunctionDef(name="_mj_factory", args=factory_args,
                              body=[fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))],
                              decorator_list=[], returns=None, type_params=[])
    ast.copy_location(factory, fdef)
    module = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(module)
    namespace: dict[str, Any] = {}
    exec(compile(module, filename, "exec"), fn.__globals__, namespace)  # noqa: S102 - our own AST
    _FACTORIES[code] = namespace["_mj_factory"]
    return namespace["_mj_factory"]


def _closure_values(fn: types.FunctionType) -> list[Any]:
    values = []
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            values.append(cell.cell_contents)
        except ValueError:
            values.append(_runtime.Undefined(name))
    return values


def convert(fn: types.FunctionType) -> types.FunctionType:
    """The converted version of ``fn`` (cached); raises for unsupported syntax.

    Raises:
        ControlFlowSyntaxError: ``fn`` uses a construct GRAPH mode cannot compile.
        OSError, TypeError: the source of ``fn`` is not available.
    """
    found = _CONVERTED.get(fn)
    if found is not None:
        return found
    new = _factory(fn)(_runtime, *_closure_values(fn))
    new.__defaults__ = fn.__defaults__
    new.__kwdefaults__ = fn.__kwdefaults__
    new.__qualname__ = fn.__qualname__
    new.__module__ = fn.__module__
    new.__doc__ = fn.__doc__
    new.__mj_converted__ = True
    _CONVERTED[fn] = new
    return new


def convert_or_fallback(fn: types.FunctionType) -> Any:
    """``convert(fn)``, or ``fn`` itself when it cannot be converted (no source, unsupported syntax)."""
    found = _CONVERTED.get(fn)
    if found is not None:
        return found
    if fn in _FALLBACK:
        return fn
    try:
        return convert(fn)
    except (ControlFlowSyntaxError, OSError, TypeError, SyntaxError, StopIteration):
        _FALLBACK[fn] = True
        return fn
