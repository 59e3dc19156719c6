"""Scope analysis on the standard ``ast``: which names a statement binds, exits it contains."""

from __future__ import annotations

import ast

__all__ = ["bound_names", "declared", "has_exit", "contains_yield", "RESERVED"]

# names the converter introduces; a Tensor `if` fills them from the other branch when undefined
RESERVED = ("do_return", "retval_", "break_", "continue_")

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_MUTATORS = frozenset(
    {"append", "extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem"}
)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _target_names(target, out: dict) -> None:
    if isinstance(target, ast.Name):
        out[target.id] = None
    elif isinstance(target, (ast.Tuple, ast.List)):
        for element in target.elts:
            _target_names(element, out)
    elif isinstance(target, ast.Starred):
        _target_names(target.value, out)
    elif isinstance(target, ast.Subscript):  # `x[i] = v` updates x in place
        base = target.value
        while isinstance(base, ast.Subscript):
            base = base.value
        if isinstance(base, ast.Name):
            out[base.id] = None


class _Binder(ast.NodeVisitor):
    """Collects the names bound in the current scope (not in nested functions/classes)."""

    def __init__(self) -> None:
        self.names: dict = {}

    def visit_Assign(self, node):
        for target in node.targets:
            _target_names(target, self.names)
        self.visit(node.value)

    def visit_AugAssign(self, node):
        _target_names(node.target, self.names)
        self.visit(node.value)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            _target_names(node.target, self.names)
            self.visit(node.value)

    def visit_NamedExpr(self, node):
        _target_names(node.target, self.names)
        self.visit(node.value)

    def visit_For(self, node):
        _target_names(node.target, self.names)
        self.generic_visit(node)

    visit_AsyncFor = visit_For

    def visit_With(self, node):
        for item in node.items:
            if item.optional_vars is not None:
                _target_names(item.optional_vars, self.names)
        self.generic_visit(node)

    visit_AsyncWith = visit_With

    def visit_Call(self, node):
        func = node.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _MUTATORS
            and isinstance(func.value, ast.Name)
        ):
            self.names[func.value.id] = None  # `ys.append(v)` updates ys in place
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            self.names[(alias.asname or alias.name).partition(".")[0]] = None

    visit_ImportFrom = visit_Import

    def visit_FunctionDef(self, node):
        self.names[node.name] = None  # the body is another scope

    visit_AsyncFunctionDef = visit_FunctionDef
    visit_ClassDef = visit_FunctionDef

    def visit_Lambda(self, node):
        pass

    def visit_ExceptHandler(self, node):
        # `except E as e` unbinds e afterwards: never carry it
        for stmt in node.body:
            self.visit(stmt)

    def _comprehension(self, node):
        for generator in node.generators:
            self.visit(generator.iter)  # only the first iterable is in this scope, but close

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension


def bound_names(nodes) -> list:
    """Names bound by ``nodes`` (statements or one statement) in their own scope, in order."""
    binder = _Binder()
    for node in nodes if isinstance(nodes, list) else [nodes]:
        binder.visit(node)
    return list(binder.names)


def declared(fn_node) -> tuple:
    """(global names, nonlocal names) declared directly in a function's scope."""
    globals_, nonlocals = set(), set()

    def walk(node):
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Global):
                globals_.update(child.names)
            elif isinstance(child, ast.Nonlocal):
                nonlocals.update(child.names)
            elif not isinstance(child, _SCOPES):
                walk(child)

    walk(fn_node)
    return globals_, nonlocals


def has_exit(nodes, kinds, loops: bool = True) -> bool:
    """Whether ``nodes`` hold a statement of ``kinds`` (Return/Break/Continue) for this level.

    ``loops=False`` does not look into nested loops (their break/continue are their own).
    """
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            return True
        if isinstance(node, _SCOPES) or isinstance(node, ast.expr):
            continue
        if not loops and isinstance(node, (ast.For, ast.While, ast.AsyncFor)):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False


def contains_yield(fn_node) -> bool:
    stack = list(fn_node.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom, ast.Await)):
            return True
        if isinstance(node, _SCOPES):
            continue
        stack.extend(ast.iter_child_nodes(node))
    return False
