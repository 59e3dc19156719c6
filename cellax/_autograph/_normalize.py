"""Turn `return`/`break`/`continue` inside compound statements into flags guarding the rest.

After this pass a function returns once, at its end, and loops leave only through their test:
``do_return``/``retval_`` carry an early return, ``break_N``/``continue_N`` a loop exit, and the
statements after a possible exit run under ``if not <flag>:``. Loop ``else:`` blocks become
guarded statements after the loop. Pure AST work.
"""

from __future__ import annotations

import ast
import itertools

from ._analyse import has_exit

__all__ = ["normalize_function"]

_LOOPS = (ast.For, ast.While)


def _name(id_: str, store: bool = False) -> ast.Name:
    return ast.Name(id=id_, ctx=ast.Store() if store else ast.Load())


def _assign(id_: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(id_, True)], value=value)


def _not_any(flags) -> ast.expr:
    tests = [ast.UnaryOp(op=ast.Not(), operand=_name(f)) for f in flags]
    return tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)


def _located(nodes, anchor):
    for node in nodes:
        ast.copy_location(node, anchor)
        ast.fix_missing_locations(node)
    return nodes


class _Loop:
    def __init__(self, brk, cont) -> None:
        self.brk, self.cont = brk, cont


class _Normalizer:
    def __init__(self, return_mode: bool) -> None:
        self.return_mode = return_mode
        self.counter = itertools.count(1)

    # a block: statements after a possible exit run under `if not flag:`
    def block(self, stmts, loop):
        out = []
        for i, stmt in enumerate(stmts):
            new, exits, terminal = self.stmt(stmt, loop)
            out.extend(new)
            if terminal:
                return out
            rest = stmts[i + 1 :]
            if exits and rest:
                guarded = self.block(rest, loop)
                if guarded:
                    out.extend(
                        _located([ast.If(test=_not_any(exits), body=guarded, orelse=[])], stmt)
                    )
                return out
        return out

    def stmt(self, node, loop):
        """(new statements, flags they may set, whether control never passes them)."""
        if isinstance(node, ast.Return) and self.return_mode:
            value = node.value if node.value is not None else ast.Constant(value=None)
            new = [_assign("do_return", ast.Constant(value=True)), _assign("retval_", value)]
            return _located(new, node), ["do_return"], True
        if isinstance(node, ast.Break) and loop is not None and loop.brk:
            return _located([_assign(loop.brk, ast.Constant(value=True))], node), [loop.brk], True
        if isinstance(node, ast.Continue) and loop is not None and loop.cont:
            return _located([_assign(loop.cont, ast.Constant(value=True))], node), [loop.cont], True
        exits = self._exits(node, loop)  # before the exits are rewritten into flags
        if isinstance(node, ast.If):
            node.body = self.block(node.body, loop) or [ast.Pass()]
            node.orelse = self.block(node.orelse, loop)
            return [node], exits, False
        if isinstance(node, (ast.With, ast.AsyncWith)):
            node.body = self.block(node.body, loop) or [ast.Pass()]
            return [node], exits, False
        if isinstance(node, ast.Try):
            node.body = self.block(node.body, loop) or [ast.Pass()]
            for handler in node.handlers:
                handler.body = self.block(handler.body, loop) or [ast.Pass()]
            node.orelse = self.block(node.orelse, loop)
            node.finalbody = self.block(node.finalbody, loop)
            return [node], exits, False
        if isinstance(node, _LOOPS):
            return self.loop(node, loop)
        return [node], [], False

    def _exits(self, node, loop) -> list:
        exits = []
        if self.return_mode and has_exit([node], ast.Return):
            exits.append("do_return")
        if loop is not None and loop.brk and has_exit([node], ast.Break, loops=False):
            exits.append(loop.brk)
        if loop is not None and loop.cont and has_exit([node], ast.Continue, loops=False):
            exits.append(loop.cont)
        return exits

    def loop(self, node, outer):
        body_only = node.body
        n = next(self.counter)
        brk = f"break_{n}" if has_exit(body_only, ast.Break, loops=False) else None
        cont = f"continue_{n}" if has_exit(body_only, ast.Continue, loops=False) else None
        returns = self.return_mode and has_exit(body_only, ast.Return)
        orelse_exits = self._exits(ast.Module(body=node.orelse, type_ignores=[]), outer)
        inner = _Loop(brk, cont)
        body = self.block(node.body, inner)
        pre = []
        if cont:
            body = _located([_assign(cont, ast.Constant(value=False))], node) + body
            pre.append(_assign(cont, ast.Constant(value=False)))
        if brk:
            pre.append(_assign(brk, ast.Constant(value=False)))
        node.body = body or [ast.Pass()]
        flags = [f for f in (brk, "do_return" if returns else None) if f]
        orelse = self.block(node.orelse, outer)
        node.orelse = []
        if flags:
            if isinstance(node, ast.While):
                node.test = ast.BoolOp(op=ast.And(), values=[_not_any(flags), node.test])
            else:
                node.cx_extra_test = _not_any(flags)
        after = []
        if orelse:
            after = [ast.If(test=_not_any(flags), body=orelse, orelse=[])] if flags else orelse
        new = _located(pre, node) + [node] + _located(after, node)
        exits = ["do_return"] if returns else []
        if orelse:
            exits = list(dict.fromkeys(exits + orelse_exits))
        return new, exits, False


def normalize_function(fn_node) -> None:
    """Rewrite ``fn_node`` (a FunctionDef) in place."""
    nested_return = any(
        not isinstance(stmt, ast.Return) and has_exit([stmt], ast.Return) for stmt in fn_node.body
    )
    normalizer = _Normalizer(nested_return)
    body = normalizer.block(fn_node.body, None)
    if nested_return:
        head = [
            _assign("do_return", ast.Constant(value=False)),
            _assign("retval_", ast.Constant(value=None)),
        ]
        tail = [ast.Return(value=_name("retval_"))]
        body = _located(head, fn_node.body[0]) + body + _located(tail, fn_node.body[-1])
    fn_node.body = body or [ast.Pass()]
