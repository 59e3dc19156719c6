"""Rewrite control flow into calls of the run-time operators (module name ``cx__``).

``if``     -> ``cx__.if_stmt(test, if_true_N, if_false_N, get_state_N, set_state_N, names, loc)``
``while``  -> ``cx__.while_stmt(loop_test_N, loop_body_N, get_state_N, set_state_N, names, loc)``
``for``    -> ``cx__.for_stmt(iter, extra_test_N, loop_body_N, get_state_N, set_state_N, names,
loc)``; ternaries, ``and``/``or``/``not``, ``in`` and calls become ``cx__`` calls too. The bodies
are nested functions writing the enclosing variables through ``nonlocal``; ``names`` are the
variables the statement binds. Pure AST work.
"""

from __future__ import annotations

import ast
import itertools

from ._analyse import bound_names, declared
from ._normalize import normalize_function

__all__ = ["OPS", "transform_function"]

OPS = "cx__"
_UNWRAPPED_CALLS = frozenset({"super", "locals", "globals", "vars", "eval", "exec", "print"})


def _load(id_: str) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Load())


def _op(attr: str) -> ast.Attribute:
    return ast.Attribute(value=_load(OPS), attr=attr, ctx=ast.Load())


def _call(attr: str, *args) -> ast.Call:
    return ast.Call(func=_op(attr), args=list(args), keywords=[])


def _const(value) -> ast.Constant:
    return ast.Constant(value=value)


def _src(node) -> ast.keyword:
    """``src="<the expression's source>"``: operators quote it in their error messages."""
    return ast.keyword(arg="src", value=_const(ast.unparse(node)))


def _lambda(body: ast.expr) -> ast.Lambda:
    args = ast.arguments(
        posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
    )
    return ast.Lambda(args=args, body=body)


def _def(name: str, body: list, params=()) -> ast.FunctionDef:
    args = ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=p) for p in params],
        vararg=None,
        kwonlyargs=[],
        kw_defaults=[],
        kwarg=None,
        defaults=[],
    )
    return ast.FunctionDef(
        name=name, args=args, body=body or [ast.Pass()], decorator_list=[], returns=None
    )


class _Scope:
    def __init__(self, fn_node) -> None:
        self.globals, self.nonlocals = declared(fn_node)
        args = fn_node.args
        params = [a.arg for a in args.posonlyargs + args.args + args.kwonlyargs]
        params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
        self.params = set(params)
        self.undefined: dict = {}


class _Converter(ast.NodeTransformer):
    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.counter = itertools.count(1)
        self.scopes: list = []

    def loc(self, node) -> str:
        return f"{self.filename}:{node.lineno}"

    # -- scopes ----------------------------------------------------------------------------
    def visit_FunctionDef(self, node):
        normalize_function(node)
        scope = _Scope(node)
        self.scopes.append(scope)
        node.body = self._stmts(node.body)
        self.scopes.pop()
        for field in ("args", "returns"):
            value = getattr(node, field)
            if value is not None:
                setattr(node, field, self.visit(value))
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        init = [
            ast.Assign(
                targets=[ast.Name(id=n, ctx=ast.Store())], value=_call("Undefined", _const(n))
            )
            for n in scope.undefined
            if n not in scope.params
        ]
        if init:
            doc = 1 if ast.get_docstring(node, clean=False) is not None else 0
            for stmt in init:
                ast.copy_location(stmt, node.body[0])
            node.body[doc:doc] = init
        return node

    def visit_AsyncFunctionDef(self, node):
        return node  # not converted

    def _stmts(self, stmts) -> list:
        out = []
        for stmt in stmts:
            new = self.visit(stmt)
            if new is None:
                continue
            out.extend(new if isinstance(new, list) else [new])
        return out

    # -- state plumbing --------------------------------------------------------------------
    def _names(self, nodes) -> tuple:
        scope = self.scopes[-1]
        names = [n for n in bound_names(nodes) if n not in scope.globals | scope.nonlocals]
        for n in names:
            scope.undefined.setdefault(n, None)
        return tuple(names)

    def _declare(self, names, touched_outer) -> list:
        scope = self.scopes[-1]
        out = []
        outer = [n for n in touched_outer if n in scope.globals]
        if outer:
            out.append(ast.Global(names=outer))
        nonlocals = list(names) + [n for n in touched_outer if n in scope.nonlocals]
        if nonlocals:
            out.append(ast.Nonlocal(names=nonlocals))
        return out

    def _state_fns(self, n, names, anchor) -> list:
        getter = _def(
            f"get_state_{n}",
            [ast.Return(value=ast.Tuple(elts=[_load(x) for x in names], ctx=ast.Load()))],
        )
        setter_body = self._declare(names, ())
        if names:
            target = ast.Tuple(
                elts=[ast.Name(id=x, ctx=ast.Store()) for x in names], ctx=ast.Store()
            )
            setter_body.append(ast.Assign(targets=[target], value=_load("vars_")))
        setter = _def(f"set_state_{n}", setter_body, ("vars_",))
        return [getter, setter]

    def _outer_bound(self, nodes) -> list:
        scope = self.scopes[-1]
        return [n for n in bound_names(nodes) if n in scope.globals | scope.nonlocals]

    def _finish(self, new, anchor) -> list:
        for stmt in new:
            ast.copy_location(stmt, anchor)
            ast.fix_missing_locations(stmt)
        return new

    # -- statements ------------------------------------------------------------------------
    def visit_If(self, node):
        names = self._names(node.body + node.orelse)
        outer = self._outer_bound(node.body + node.orelse)
        n = next(self.counter)
        src = _src(node.test)
        test = self.visit(node.test)
        body = self._declare(names, outer) + self._stmts(node.body)
        orelse = self._declare(names, outer) + self._stmts(node.orelse)
        call = _call(
            "if_stmt",
            test,
            _load(f"if_true_{n}"),
            _load(f"if_false_{n}"),
            _load(f"get_state_{n}"),
            _load(f"set_state_{n}"),
            _const(names),
            _const(self.loc(node)),
            _const(tuple(outer)),
        )
        call.keywords.append(src)
        new = [
            _def(f"if_true_{n}", body),
            _def(f"if_false_{n}", orelse),
            *self._state_fns(n, names, node),
            ast.Expr(value=call),
        ]
        return self._finish(new, node)

    def visit_While(self, node):
        names = self._names(node.body)
        outer = self._outer_bound(node.body)
        n = next(self.counter)
        src = _src(node.test)
        test = self.visit(node.test)
        body = self._declare(names, outer) + self._stmts(node.body)
        call = _call(
            "while_stmt",
            _load(f"loop_test_{n}"),
            _load(f"loop_body_{n}"),
            _load(f"get_state_{n}"),
            _load(f"set_state_{n}"),
            _const(names),
            _const(self.loc(node)),
            _const(tuple(outer)),
        )
        call.keywords.append(src)
        new = [
            _def(f"loop_test_{n}", [ast.Return(value=test)]),
            _def(f"loop_body_{n}", body),
            *self._state_fns(n, names, node),
            ast.Expr(value=call),
        ]
        return self._finish(new, node)

    def visit_For(self, node):
        target_assign = ast.Assign(targets=[node.target], value=_load(f"itr_{0}"))
        names = self._names([target_assign] + node.body)
        outer = self._outer_bound([target_assign] + node.body)
        n = next(self.counter)
        target_assign.value = _load(f"itr_{n}")
        iterable = self.visit(node.iter)
        extra = getattr(node, "cx_extra_test", None)
        body = self._declare(names, outer) + [target_assign] + self._stmts(node.body)
        new = [_def(f"loop_body_{n}", body, (f"itr_{n}",))]
        # the target alone: bound before an iteration guarded by a Tensor exit flag, so both
        # sides of that `if` see the same item (a Cell of a CellList cannot be joined)
        target_names = self._names([target_assign])
        target_outer = self._outer_bound([target_assign])
        target_body = self._declare(target_names, target_outer) + [
            ast.Assign(targets=[node.target], value=_load(f"itr_{n}"))
        ]
        new.append(_def(f"loop_target_{n}", target_body, (f"itr_{n}",)))
        if extra is not None:
            new.append(_def(f"extra_test_{n}", [ast.Return(value=self.visit(extra))]))
        call = _call(
            "for_stmt",
            iterable,
            _load(f"extra_test_{n}") if extra is not None else _const(None),
            _load(f"loop_body_{n}"),
            _load(f"get_state_{n}"),
            _load(f"set_state_{n}"),
            _const(names),
            _const(self.loc(node)),
            _const(tuple(outer)),
        )
        call.keywords.append(ast.keyword(arg="target", value=_load(f"loop_target_{n}")))
        new += [*self._state_fns(n, names, node), ast.Expr(value=call)]
        return self._finish(new, node)

    def visit_AsyncFor(self, node):
        return node

    def visit_Return(self, node):
        self.generic_visit(node)
        if node.value is not None and self.scopes and self.scopes[-1].undefined:
            node.value = ast.copy_location(_call("defined", node.value), node.value)
        return node

    def visit_Raise(self, node):
        self.generic_visit(node)
        if node.exc is None or node.cause is not None:
            return node
        call = _call("raise_", node.exc, _const(self.loc(node)))
        return ast.copy_location(ast.Expr(value=ast.copy_location(call, node)), node)

    def visit_Assert(self, node):
        src = _src(node.test)
        self.generic_visit(node)
        message = _lambda(node.msg) if node.msg is not None else _const(None)
        call = _call("assert_", node.test, message, _const(self.loc(node)))
        call.keywords.append(src)
        return ast.copy_location(ast.Expr(value=ast.copy_location(call, node)), node)

    # -- expressions -----------------------------------------------------------------------
    def visit_IfExp(self, node):
        src = _src(node.test)
        self.generic_visit(node)
        call = _call(
            "if_exp", node.test, _lambda(node.body), _lambda(node.orelse), _const(self.loc(node))
        )
        call.keywords.append(src)
        return ast.copy_location(call, node)

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        name = "and_" if isinstance(node.op, ast.And) else "or_"
        call = _call(name, *[_lambda(v) for v in node.values])
        return ast.copy_location(call, node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, ast.Not):
            return ast.copy_location(_call("not_", node.operand), node)
        return node

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) == 1 and isinstance(node.ops[0], (ast.In, ast.NotIn)):
            call = _call("in_", node.left, node.comparators[0])
            if isinstance(node.ops[0], ast.NotIn):
                call = _call("not_", call)
            return ast.copy_location(call, node)
        return node

    def visit_Subscript(self, node):
        src = _src(node.slice)
        self.generic_visit(node)
        index = node.slice
        has_slice = isinstance(index, ast.Slice) or (
            isinstance(index, ast.Tuple) and any(isinstance(e, ast.Slice) for e in index.elts)
        )
        if not isinstance(node.ctx, ast.Load) or has_slice:
            return node
        call = _call("getitem", node.value, index, _const(self.loc(node)))
        call.keywords.append(src)
        return ast.copy_location(call, node)

    def visit_Call(self, node):
        srcs = tuple(ast.unparse(a) for a in node.args)
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Name) and func.id in _UNWRAPPED_CALLS:
            return node
        wrapped = _call("converted_call", func)
        if isinstance(func, ast.Name) and func.id == "range":  # messages name the bounds
            wrapped.args += [_const(self.loc(node)), _const(srcs)]
        node.func = ast.copy_location(wrapped, func)
        return node


def transform_function(fn_node, filename: str):
    """Convert a parsed FunctionDef in place (decorators dropped); return it."""
    fn_node.decorator_list = []
    fn_node.returns = None
    return _Converter(filename).visit_FunctionDef(fn_node)
