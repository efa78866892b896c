"""How a test is compiled so that the runner judges it (stdlib only).

Used by the fork server (``_sandbox_suite.py``) before any candidate code runs. A test is
parsed and rewritten, then its placeholder constants are swapped for the runner's own
objects (placed into the code object's constants, so no name lookup that the candidate
could shadow leads to them):

* every comparison with ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``, ``in`` or ``not in``
  becomes a call of the runner-held ``compare(a, b, op)`` (a chain: ``chain(ops, thunks)``,
  each operand evaluated once, in order), which applies the plain-data rule
  (``_sandbox_compare.py``); ``is`` / ``is not`` alone stay as they are;
* every arithmetic or bitwise operator (``a - b``, ``a / b``, ``x -= y``...) becomes a call
  of the runner-held ``arith(a, b, op)``: plain data is only combined with plain data, so
  an object whose ``-`` gives 0 cannot pass ``abs(f(x) - y) < 1e-6`` (``_sandbox_compare.py``);
* a bare ``assert A op B`` (no message) becomes ``explain(op, A, B, side)``, which fails
  with both values ("returned -1, expected 0" when only ``side`` calls something);
* every name the test reads that is a builtin (``abs``, ``all``, ``sorted``, ``len``,
  ``isinstance``, ``ValueError``...) or ``pytest`` means the real one, even if the candidate's
  module (or its ``__builtins__``) rebinds it: unless the test binds that name itself
  (assigns it, defines it, imports it as something else), its reads become the object the
  runner holds. ``import pytest`` / ``from pytest import raises`` in a test bind the runner's
  shim, and ``pytest.raises`` / ``pytest.approx`` / ``pytest.fail`` are the shim's own
  functions, whatever the candidate did to the module; a literal ``match=`` pattern is
  compiled here, before the candidate can touch ``re``. Dunder names (``__name__``) are left
  alone: they are the module's. A helper the candidate defines under another name
  (``sum_digits``) is unaffected; a candidate that defines a function called ``sum`` and a
  test that calls ``sum`` get the builtin; ``isinstance`` and ``issubclass`` are the
  runner's own (``_sandbox_classes.py``), which decide by the object's real type, not by
  its ``__class__`` or ``__bases__``;
* the expected exception of ``pytest.raises(X)`` and the class of ``except X:``, when the
  test reads X from the candidate's namespace (stdlib's ``StatisticsError``), go through
  the runner's ``own(X)``, which takes only an exception class the candidate's own code
  made, of metaclass ``type``, or the standard library's own; the class of
  ``isinstance(x, X)`` / ``issubclass(x, X)`` through ``classes(X)``; an alias of the
  test's own so used (``E = StatisticsError``) has its value checked where it is bound
  (``_CandidateClasses``, ``_sandbox_classes.py``); else the test is an error; and
  every ``except X:`` becomes ``except CATCH(X):`` (``catch``), which decides by the
  exception class's real bases where its metaclass's own ``mro()`` could list ``X``;
* every ``def`` and ``lambda`` binds its function behind the runner's opaque wrapper
  (``_Functions``), so what the test hands to the candidate leads to none of its globals;
  the code a test's ``eval(x)`` / ``exec(x)`` evaluates is the runner's ``compiled(x,
  mode)``, which refuses code that makes a function (it would carry the test's globals);
  reached otherwise (``e = eval``, ``builtins.exec``, ``types.FunctionType``), the
  channel's audit hook refuses the same for any frame of the test's (``make_channel``);
* in a test that defines classes, each class is held after its class statement and checked
  after every call the test makes (``_ClassGuard``), so a wrong function cannot rebind
  what the test's class binds through an instance the test handed it (a
  ``patch.object(C, "x", ...)`` of the test's may change ``C.x``: ``PATCHED``; a test's
  ``o.__class__ = B`` becomes ``SWAP(B, o)``, which the channel lets through);
* every ``import`` statement becomes a call of the runner's importer (``make_scope`` in
  ``_sandbox_channel.py``) given the module object the server loaded before any candidate
  code ran and a snapshot of its namespaces (``_Imports``, ``_snapshot``); the importer
  checks that ``sys.modules`` still holds it and that nothing in it was rebound, and so does
  ``recheck`` when the test's code ends.
"""

from __future__ import annotations

import ast
import re
import sys
import types
import warnings

TYPE_CHECKING = False  # (not typing.TYPE_CHECKING: the server does not import typing)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["compile_test", "OPS"]

# a test's comparison operators -> the op codes of ``compare`` / ``chain``
OPS = {ast.Eq: 0, ast.NotEq: 1, ast.Lt: 2, ast.LtE: 3, ast.Gt: 4, ast.GtE: 5, ast.In: 6,
       ast.NotIn: 7, ast.Is: 8, ast.IsNot: 9}
_JUDGED = (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.In, ast.NotIn)
# a test's arithmetic and bitwise operators -> the op codes of ``arith`` (+13: in place)
ARITH = {ast.Add: 0, ast.Sub: 1, ast.Mult: 2, ast.Div: 3, ast.FloorDiv: 4, ast.Mod: 5,
         ast.Pow: 6, ast.LShift: 7, ast.RShift: 8, ast.BitAnd: 9, ast.BitOr: 10,
         ast.BitXor: 11, ast.MatMult: 12}
_constant: Any = ast.Constant  # (typeshed does not allow a tuple; compile() does)

# Calls that build an expected value rather than compute the answer under test.
_BUILDERS = frozenset({"list", "tuple", "set", "frozenset", "dict", "range", "str", "int",
                       "float", "bool", "bytes", "complex", "sorted", "reversed", "len",
                       "abs", "round", "sum", "min", "max", "enumerate", "zip", "map",
                       "filter", "approx", "Fraction", "Decimal", "date", "datetime",
                       "time", "timedelta", "Counter", "OrderedDict", "deque",
                       "defaultdict", "bytearray"})


def _located(node: Any, where: ast.AST) -> Any:
    for name in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
        setattr(node, name, getattr(where, name, None))
    return node


def _calls(node: ast.AST) -> bool:
    """Whether ``node`` calls something other than a builder of expected values. (Every
    node of ``node``, as ``ast.walk`` would visit them, by a walk of its own: ~2x faster,
    on the way of every test's asserts.)"""
    stack = [node]
    pop, push = stack.pop, stack.append
    while stack:
        n = pop()
        if isinstance(n, ast.Call):
            func = n.func
            name = func.id if isinstance(func, ast.Name) else (
                func.attr if isinstance(func, ast.Attribute) else "")
            if name not in _BUILDERS:
                return True
        for field in n._fields:
            value = getattr(n, field, None)
            if isinstance(value, ast.AST):
                push(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.AST):
                        push(item)
    return False


_BLOCK_FIELDS = ("body", "orelse", "finalbody", "handlers")


def _blocks(tree: ast.AST):  # type: ignore[no-untyped-def]
    """Every statement list in ``tree`` (what ``ast.walk`` would find as a node's body,
    orelse, finalbody or handlers), reached through statements only: an expression holds
    no statement list, so the walk need not visit the (often large) expressions."""
    stack = [tree]
    while stack:
        parent = stack.pop()
        for field in _BLOCK_FIELDS:
            block = getattr(parent, field, None)
            if isinstance(block, list):
                yield block
                stack.extend(block)
        cases = getattr(parent, "cases", None)  # match statements: their match_case nodes
        if isinstance(cases, list):
            stack.extend(cases)


def _explain_asserts(tree: ast.AST, explain_name: str) -> int:
    """``assert A op B`` (no message) -> ``EXPLAIN(op, A, B, side)`` in place; ``side``
    is "left" / "right" when only that operand calls something, else "". How many."""
    done = 0
    for block in _blocks(tree):
        for k, stmt in enumerate(block):
            test = stmt.test if isinstance(stmt, ast.Assert) else None
            if (stmt.__class__ is not ast.Assert or stmt.msg is not None
                    or not isinstance(test, ast.Compare) or len(test.ops) != 1
                    or not isinstance(test.ops[0], _JUDGED)):
                continue
            left, right = test.left, test.comparators[0]
            side = ("left" if _calls(left) and not _calls(right) else
                    "right" if _calls(right) and not _calls(left) else "")
            func, op = ast.Constant(explain_name), ast.Constant(OPS[type(test.ops[0])])
            where = ast.Constant(side)
            call = ast.Call(func=func, args=[op, left, right, where], keywords=[])
            expr = ast.Expr(value=call)
            for node in (func, op, where, call, expr):
                _located(node, stmt)
            block[k] = expr
            done += 1
    return done


class _Comparisons(ast.NodeTransformer):
    """Every judged comparison -> ``COMPARE(a, b, op)`` or ``CHAIN(ops, (thunks))``,
    innermost first."""

    def __init__(self, compare_name: str, chain_name: str) -> None:
        self.compare_name, self.chain_name = compare_name, chain_name

    def visit_Compare(self, node: ast.Compare) -> Any:
        self.generic_visit(node)
        if not any(isinstance(op, _JUDGED) for op in node.ops):
            return node
        if len(node.ops) == 1:
            return _located(ast.Call(
                func=_located(ast.Constant(self.compare_name), node),
                args=[node.left, node.comparators[0],
                      _located(ast.Constant(OPS[type(node.ops[0])]), node)],
                keywords=[]), node)
        codes = tuple(OPS[type(op)] for op in node.ops)
        thunks = [_located(ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], vararg=None,
                                                         kwonlyargs=[], kw_defaults=[],
                                                         kwarg=None, defaults=[]),
                                      body=operand), operand)
                  for operand in [node.left, *node.comparators]]
        for thunk in thunks:  # the runner's own: handed to ``chain`` only, never wrapped
            thunk.erxr_thunk = True  # type: ignore[attr-defined]
        return _located(ast.Call(
            func=_located(ast.Constant(self.chain_name), node),
            args=[_located(_constant(codes), node),
                  _located(ast.Tuple(elts=thunks, ctx=ast.Load()), node)],
            keywords=[]), node)


class _Arithmetic(ast.NodeTransformer):
    """Every arithmetic or bitwise ``a op b`` -> ``ARITH(a, b, op)``, and ``name op= b``
    -> ``name = ARITH(name, b, op + 13)`` (the in-place operator: a list still grows in
    place), innermost first: plain data is only combined with plain data."""

    def __init__(self, arith_name: str) -> None:
        self.arith_name = arith_name

    def _call(self, left: Any, right: Any, op: int, where: ast.AST) -> ast.Call:
        return _located(ast.Call(func=_located(ast.Constant(self.arith_name), where),
                                 args=[left, right, _located(ast.Constant(op), where)],
                                 keywords=[]), where)

    def visit_BinOp(self, node: ast.BinOp) -> Any:
        self.generic_visit(node)
        return self._call(node.left, node.right, ARITH[type(node.op)], node)

    def visit_AugAssign(self, node: ast.AugAssign) -> Any:
        self.generic_visit(node)
        if not isinstance(node.target, ast.Name):  # (a[i] -= 1: evaluated once, as it is)
            return node
        load = _located(ast.Name(node.target.id, ast.Load()), node.target)
        return _located(ast.Assign(targets=[node.target], value=self._call(
            load, node.value, 13 + ARITH[type(node.op)], node)), node)


# Methods type() makes a classmethod / staticmethod of when they are plain functions: a
# wrapped one (``_Functions``) is not, so the rewrite says so itself.
_IMPLICIT = {"__init_subclass__": "classmethod", "__class_getitem__": "classmethod",
             "__new__": "staticmethod"}


class _Functions(ast.NodeTransformer):
    """Every function the test makes -> the runner's ``WRAP(function)``: a ``lambda``
    becomes ``WRAP(lambda ...)`` and a ``def`` / ``async def`` gets ``WRAP`` as its
    innermost decorator (``make_wrap`` in ``_sandbox_channel.py``), so a function the test
    hands to the candidate is an opaque C callable that calls it, binds as a method, and
    leads to neither the test's globals nor its cells nor its code. A method ``type()``
    makes a classmethod or staticmethod of (``__init_subclass__``, ``__new__``) gets that
    decorator too when it has none. The comparison chains' thunks stay as they are."""

    def __init__(self, wrap_name: str, implicit: dict) -> None:
        self.wrap_name, self.implicit = wrap_name, implicit

    def visit_Lambda(self, node: ast.Lambda) -> Any:
        self.generic_visit(node)
        if getattr(node, "erxr_thunk", False):
            return node
        return _located(ast.Call(func=_located(ast.Constant(self.wrap_name), node),
                                 args=[node], keywords=[]), node)

    def _visit_def(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Any:
        self.generic_visit(node)
        implicit = self.implicit.get(node.name) if getattr(
            node, "erxr_method", False) and not node.decorator_list else None
        node.decorator_list = ([_located(ast.Constant(implicit), node)] if implicit else []) \
            + node.decorator_list + [_located(ast.Constant(self.wrap_name), node)]
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_def

    def visit_ClassDef(self, node: ast.ClassDef) -> Any:
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                stmt.erxr_method = True  # type: ignore[union-attr]
        self.generic_visit(node)
        return node


class _ClassGuard(ast.NodeTransformer):
    """A test that defines classes keeps them as it made them (``make_class_guard`` in
    ``_sandbox_classes.py``): its code starts with ``START()``, each class statement is
    followed by ``NOTE(<the class>)``, every call ``f(x)`` becomes ``CHECKED(f(x))`` (so
    what a wrong function did to a class the test handed it an instance of is seen before
    the test reads the class again), and each simple statement that writes attributes
    (``Box.want = 6``, ``type(self).n += 1``, ``del C.m``, ``setattr(C, 'n', 0)``) is
    followed by ``RENOTE(<the attribute names>, <the objects written>)``, which takes the
    test's own writes in (on the classes written, when the statement's targets can be read
    again without side effects: a name, ``type(name)``; else on every class held).
    A write to the first argument of a plain method of the test's class (``self.v = v``
    in ``__init__``) writes an instance, not a class, and takes nothing in: else a wrong
    function could set a property ``v`` on the class and call the class, whose
    ``__init__``'s own write would take the change in."""

    def __init__(self, prefix: str, placeholders: dict) -> None:
        self.start, self.note = prefix + "guard-start", prefix + "guard-note"
        self.renote, self.checked = prefix + "guard-renote", prefix + "guard-checked"
        self.patched, self.swap = prefix + "guard-patched", prefix + "guard-swap"
        # setattr / delattr: by name, or the runner's placeholder of the real builtin
        self.writers = {"setattr", "delattr"} | {placeholders.get(n) for n in (
            "setattr", "delattr")} - {None}
        self.class_decorators = {"classmethod", "staticmethod"} | {placeholders.get(n) for n in (
            "classmethod", "staticmethod")} - {None}
        self.instances: list[str | None] = []  # the enclosing methods' instance argument
        self.type_name = placeholders.get("type")  # (a metaclass's methods take classes)

    def _instance(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
        """The name of a plain method's instance argument (None for a classmethod,
        staticmethod, ``__new__``, ``__init_subclass__`` or ``__class_getitem__``, or a
        method of a metaclass, whose first argument is a class)."""
        if not getattr(node, "erxr_guard_method", False) or node.name in (
                "__new__", "__init_subclass__", "__class_getitem__"):
            return None
        for decorator in node.decorator_list:
            if (isinstance(decorator, ast.Name) and decorator.id in self.class_decorators) or (
                    isinstance(decorator, ast.Constant)
                    and decorator.value in self.class_decorators):
                return None
        positional = node.args.posonlyargs + node.args.args
        return positional[0].arg if positional else None

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> Any:
        patches = any(isinstance(d, ast.Call) and self._patch(d) for d in node.decorator_list)
        self.instances.append(self._instance(node))
        try:
            node = self.generic_visit(node)  # type: ignore[assignment]
        finally:
            self.instances.pop()
        if patches:  # a check as the body starts, the patcher entered: see ``patched``
            node.body.insert(0, self._first_check(node.body[0]))
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _visit_function

    def _first_check(self, where: ast.AST) -> ast.stmt:
        return _located(ast.Expr(self._call(self.checked, [_located(ast.Constant(None), where)],
                                            where)), where)

    def _patch(self, node: ast.Call) -> bool:
        """``patch.object(Box, "x", ...)`` (any ``<expr>.object`` with a name and a literal
        attribute name first, no ``*`` / ``**``)."""
        return (isinstance(node.func, ast.Attribute) and node.func.attr == "object"
                and len(node.args) >= 2 and isinstance(node.args[0], ast.Name)
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
                and not any(isinstance(a, ast.Starred) for a in node.args)
                and all(k.arg is not None for k in node.keywords))

    def visit_With(self, node: ast.With) -> Any:
        patches = any(isinstance(i.context_expr, ast.Call) and self._patch(i.context_expr)
                      for i in node.items)
        node = self.generic_visit(node)  # type: ignore[assignment]
        if patches:  # a check as the body starts, the patcher entered: see ``patched``
            node.body.insert(0, self._first_check(node.body[0]))
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> Any:
        meta = any((isinstance(b, ast.Name) and b.id == "type") or (
            isinstance(b, ast.Constant) and b.value == self.type_name) for b in node.bases)
        for stmt in node.body:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and not meta:
                stmt.erxr_guard_method = True  # type: ignore[union-attr]
        return self.generic_visit(node)

    def _writer(self, node: ast.Call) -> bool:
        func = node.func
        return (isinstance(func, ast.Name) and func.id in self.writers) or (
            isinstance(func, ast.Constant) and func.value in self.writers)

    def _call(self, name: str, args: list, where: ast.AST) -> ast.Call:
        return _located(ast.Call(func=_located(ast.Constant(name), where), args=args,
                                 keywords=[]), where)

    def _target(self, base: ast.expr) -> ast.expr | None:
        """An expression that reads again, without side effects, the object a write's
        target names (``Box`` of ``Box.want = 6``, ``type(self)`` of ``type(self).n +=
        1``, with the real ``type``), or None."""
        if isinstance(base, ast.Name):
            return _located(ast.Name(base.id, ast.Load()), base)
        if (isinstance(base, ast.Call) and isinstance(base.func, ast.Constant)
                and base.func.value == self.type_name and len(base.args) == 1
                and not base.keywords and isinstance(base.args[0], ast.Name)):
            return _located(ast.Call(func=_located(ast.Constant(self.type_name), base),
                                     args=[_located(ast.Name(base.args[0].id, ast.Load()),
                                                    base)], keywords=[]), base)
        return None

    def _writes(self, stmt: ast.stmt) -> tuple | None | bool:
        """(the attribute names a simple statement writes (a tuple), or None for a
        computed one (``setattr(c, name, v)``); expressions of the objects written, or
        None when one cannot be read again), or False for no write."""
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.For,
                             ast.AsyncFor, ast.While, ast.If, ast.With, ast.AsyncWith,
                             ast.Try, ast.Match, ast.Return, ast.Raise,
                             getattr(ast, "TryStar", ast.Try))):
            return False
        names: set[str] | None = set()
        targets: list | None = []
        instance = self.instances[-1] if self.instances else None
        for n in ast.walk(stmt):
            base = None
            if isinstance(n, ast.Attribute) and not isinstance(n.ctx, ast.Load):
                if instance is not None and isinstance(n.value, ast.Name) \
                        and n.value.id == instance:
                    continue  # (an instance's own attribute)
                base = n.value
                if names is not None:
                    names.add(n.attr)
            elif isinstance(n, ast.Call) and self._writer(n) and n.args:
                base = n.args[0]
                if len(n.args) >= 2 and isinstance(n.args[1], ast.Constant) \
                        and isinstance(n.args[1].value, str):
                    if names is not None:
                        names.add(n.args[1].value)
                else:
                    names = None
            else:
                continue
            target = self._target(base)
            if target is None or targets is None:
                targets = None
            else:
                targets.append(target)
        if names is not None and not names:
            return False
        return (None if names is None else tuple(sorted(names)),
                None if targets is None else targets)

    def _block(self, block: list) -> list:
        out: list = []
        for stmt in block:
            if (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1
                    and isinstance(stmt.targets[0], ast.Attribute)
                    and stmt.targets[0].attr == "__class__"):
                # the test's own ``o.__class__ = B``: SWAP(B, o), which the channel lets
                # through (it refuses a new class for an instance of a held class else);
                # evaluated as Python does, the value first
                out.append(_located(ast.Expr(self.visit(self._call(self.swap, [
                    stmt.value, stmt.targets[0].value], stmt))), stmt))
                continue
            writes = self._writes(stmt)
            out.append(self.visit(stmt))
            if isinstance(stmt, ast.ClassDef):
                out.append(_located(ast.Expr(self._call(self.note, [_located(
                    ast.Name(stmt.name, ast.Load()), stmt)], stmt)), stmt))
            elif writes is not False:
                names, targets = writes  # type: ignore[misc]
                out.append(_located(ast.Expr(self._call(self.renote, [
                    _located(_constant(names), stmt),
                    _located(ast.Constant(None) if targets is None else ast.Tuple(
                        targets, ast.Load()), stmt)], stmt)), stmt))
        return out

    def generic_visit(self, node: ast.AST) -> ast.AST:
        for field in _BLOCK_FIELDS:
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, field, self._block(block))
        for field, value in ast.iter_fields(node):
            if field in _BLOCK_FIELDS and isinstance(value, list) and value and isinstance(
                    value[0], ast.stmt):
                continue
            if isinstance(value, list):
                value[:] = [self.visit(v) if isinstance(v, ast.AST) else v for v in value]
            elif isinstance(value, ast.AST):
                setattr(node, field, self.visit(value))
        return node

    def visit_Module(self, node: ast.Module) -> Any:
        self.generic_visit(node)
        first = 0
        while first < len(node.body) and isinstance(node.body[first], ast.ImportFrom) \
                and node.body[first].module == "__future__":  # type: ignore[attr-defined]
            first += 1
        node.body.insert(first, ast.Expr(self._call(self.start, [], node.body[0])))
        node.body.append(ast.Expr(self._call(self.checked, [ast.Constant(None)],
                                             node.body[-1])))
        return node

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        if self._writer(node):
            return node  # (the test's own write: RENOTE follows the statement)
        if self._patch(node):
            # ``patch.object(Box, "x", v)`` -> ``PATCHED(patch.object, Box, "x", (v,), {})``,
            # which makes the call: the patcher (if it is unittest.mock's, made with what
            # the test gave it) may change that attribute of that class to what it puts
            # in, and back
            return self._call(self.checked, [self._call(self.patched, [
                node.func, node.args[0], node.args[1],
                _located(ast.Tuple(node.args[2:], ast.Load()), node),
                _located(ast.Dict([_located(ast.Constant(k.arg), k) for k in node.keywords],
                                  [k.value for k in node.keywords]), node)], node)], node)
        return self._call(self.checked, [node], node)


def _defines_classes(tree: ast.AST) -> bool:
    return any(isinstance(n, ast.ClassDef) for n in ast.walk(tree))


def _bound_names(tree: ast.AST, imports: bool = True) -> set[str]:
    """Every name the test binds anywhere (any scope): those keep their own meaning.
    ``imports=False``: leaving out what ``import`` statements bind."""
    bound: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load):
            bound.add(n.id)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(n.name)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, ast.ImportFrom) or (imports and isinstance(n, ast.Import)):
            for alias in n.names:
                if not (alias.name == "pytest" and alias.asname is None
                        and isinstance(n, ast.Import)):
                    bound.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(n, ast.ExceptHandler) and n.name:
            bound.add(n.name)
        elif isinstance(n, (ast.Global, ast.Nonlocal)):
            bound.update(n.names)
        elif isinstance(n, (ast.MatchAs, ast.MatchStar)) and n.name:
            bound.add(n.name)
        elif isinstance(n, ast.MatchMapping) and n.rest:
            bound.add(n.rest)
    return bound


def _annotation_names(tree: ast.AST) -> set[int]:
    """The ids of the names in a test's annotations when the test has ``from __future__
    import annotations``: those annotations are their text (``'int'``), never evaluated,
    so their names stay names (a placeholder's text is no type ``get_type_hints`` finds)."""
    if not any(isinstance(n, ast.ImportFrom) and n.module == "__future__" and any(
            a.name == "annotations" for a in n.names) for n in tree.body):  # type: ignore
        return set()
    found: set[int] = set()
    for n in ast.walk(tree):
        notes = [n.annotation] if isinstance(n, (ast.arg, ast.AnnAssign)) else (
            [n.returns] if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) else [])
        for note in notes:
            if note is not None:
                found.update(id(m) for m in ast.walk(note) if isinstance(m, ast.Name))
    return found


class _RealNames(ast.NodeTransformer):
    """Reads of builtin names and ``pytest`` -> placeholders of the runner's objects. A
    zero-argument ``super()`` in a function becomes ``SUPER(__class__, <its first
    argument>)``, which is what it means: the compiler makes a method's ``__class__`` cell
    only where it sees the name ``super`` or ``__class__``, so the placeholder alone made
    every ``super()`` of a test's class a RuntimeError."""

    def __init__(self, placeholders: dict, attributes: dict, patterns: dict,
                 bound: set, tree: ast.AST) -> None:
        self.placeholders, self.attributes, self.patterns = placeholders, attributes, patterns
        self.bound = bound
        self.firsts: list[str | None] = []  # the enclosing functions' first arguments
        self.text = _annotation_names(tree)
        self.compiled = placeholders["pytest"][:-len("pytest")] + "compiled"

    def _real(self, name: str) -> str | None:
        return self.placeholders.get(name) if name not in self.bound else None

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda
                        ) -> Any:
        positional = node.args.posonlyargs + node.args.args
        self.firsts.append(positional[0].arg if positional else None)
        try:
            self.generic_visit(node)
        finally:
            self.firsts.pop()
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _visit_function

    def visit_Name(self, node: ast.Name) -> Any:
        real = self._real(node.id) if isinstance(node.ctx, ast.Load) and id(
            node) not in self.text else None
        return _located(ast.Constant(real), node) if real is not None else node

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        if (isinstance(node.value, ast.Name) and node.value.id == "pytest"
                and isinstance(node.ctx, ast.Load) and self._real("pytest") is not None
                and node.attr in self.attributes):
            return _located(ast.Constant(self.attributes[node.attr]), node)
        self.generic_visit(node)
        return node

    def visit_Call(self, node: ast.Call) -> Any:
        if (isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args
                and not node.keywords and self.firsts and self.firsts[-1] is not None
                and self._real("super") is not None):
            node.args = [_located(ast.Name("__class__", ast.Load()), node),
                         _located(ast.Name(self.firsts[-1], ast.Load()), node)]
        if (isinstance(node.func, ast.Name) and node.func.id in ("eval", "exec")
                and node.args and not isinstance(node.args[0], ast.Starred)
                and self._real(node.func.id) is not None):
            # the code a test evaluates: checked and compiled by the runner (``compiled``
            # in ``_sandbox_channel.py``): no function made at run time carries its globals
            node.args[0] = _located(ast.Call(
                func=_located(ast.Constant(self.compiled), node),
                args=[node.args[0], _located(ast.Constant(node.func.id), node)],
                keywords=[]), node.args[0])
        self.generic_visit(node)
        if isinstance(node.func, ast.Constant) and node.func.value == self.attributes.get(
                "raises"):
            for keyword in node.keywords:
                value = keyword.value
                if keyword.arg == "match" and isinstance(value, ast.Constant) \
                        and isinstance(value.value, str):
                    try:
                        pattern = re.compile(value.value)
                    except re.error:
                        continue  # raised at run time, as pytest would
                    name = f"{self.placeholders['pytest']}-re{len(self.patterns)}"
                    self.patterns[name] = pattern
                    keyword.value = _located(ast.Constant(name), value)
        return node

    def visit_Import(self, node: ast.Import) -> Any:
        """``import pytest`` -> ``pytest = <the shim>`` (other modules still imported)."""
        if "pytest" in self.bound or not any(a.name == "pytest" and a.asname is None
                                             for a in node.names):
            return node
        out: list[ast.stmt] = [_located(ast.Assign(
            targets=[_located(ast.Name("pytest", ast.Store()), node)],
            value=_located(ast.Constant(self.placeholders["pytest"]), node)), node)]
        rest = [a for a in node.names if not (a.name == "pytest" and a.asname is None)]
        if rest:
            out.append(_located(ast.Import(names=rest), node))
        return out

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        """``from pytest import raises as r`` -> ``r = <the shim's raises>``."""
        if node.module != "pytest" or node.level or any(
                a.name not in self.attributes for a in node.names):
            return node
        return [_located(ast.Assign(
            targets=[_located(ast.Name(a.asname or a.name, ast.Store()), node)],
            value=_located(ast.Constant(self.attributes[a.name]), node)), node)
            for a in node.names]


def _checked_uses(tree: ast.AST, raises: set, checks: set) -> tuple[set, set]:
    """(names, names) the test uses as an expected exception (``pytest.raises(E)``,
    ``except E``) and as the class of an ``isinstance`` / ``issubclass`` call, as names
    or in tuples. ``raises``: the names that mean the shim's raises (placeholders, and the
    test's own aliases of it); ``checks``: the placeholders of isinstance and issubclass."""
    exceptions: set[str] = set()
    others: set[str] = set()

    def names(node: ast.expr, into: set) -> None:
        if isinstance(node, ast.Name):
            into.add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for element in node.elts:
                names(element, into)

    for n in ast.walk(tree):
        if isinstance(n, ast.ExceptHandler) and n.type is not None:
            names(n.type, exceptions)
        elif isinstance(n, ast.Call):
            func = n.func
            key = func.value if isinstance(func, ast.Constant) else (
                func.id if isinstance(func, ast.Name) else None)
            if key in raises:
                if n.args and not isinstance(n.args[0], ast.Starred):
                    names(n.args[0], exceptions)
                for keyword in n.keywords:
                    if keyword.arg == "expected_exception":
                        names(keyword.value, exceptions)
            elif key in checks and len(n.args) == 2 and not n.keywords:
                names(n.args[1], others)
    return exceptions, others


class _CandidateClasses(ast.NodeTransformer):
    """The classes a test takes from the candidate's namespace (a name the test does not
    bind, or an attribute or call of one) where they decide its verdict: the expected
    exception of ``pytest.raises(X, ...)``, the class of ``except X:``, the class an
    ``isinstance(x, X)`` / ``issubclass(x, X)`` checks against -> ``OWN(X, "X", "X")`` /
    ``CLASSES(X, "X", "X")``, which let only a class the candidate's own code made, or the
    standard library's own, through (``_sandbox_classes.py``): bound to ``Exception`` or
    ``object``, or a class whose metaclass says yes to every check, it would decide the
    test. Builtins (placeholders by now), names the test binds itself (its imports:
    ``statistics.StatisticsError``) and tuples of those are left alone, but an alias of the
    test's own (``E = StatisticsError``, ``E = (ValueError, StatisticsError)``, ``for E in
    (...)``) whose name it then uses that way has its value checked where it is bound,
    through any chain of such aliases."""

    def __init__(self, own_name: str, classes_name: str, raises_name: str | None,
                 checks: set, bound: set, tree: ast.AST, catch_name: str = "") -> None:
        self.own_name, self.classes_name, self.raises_name = own_name, classes_name, \
            raises_name
        self.catch_name = catch_name
        self.checks, self.bound = checks, bound
        self.aliases: set[str] = set()  # names the test binds to the shim's raises
        for n in ast.walk(tree):
            if (isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
                    and n.value.value == raises_name and raises_name is not None):
                self.aliases.update(t.id for t in n.targets if isinstance(t, ast.Name))
        exceptions, others = _checked_uses(
            tree, self.aliases | ({raises_name} if raises_name else set()), checks)
        # follow aliases back: a name bound by ``E = F`` / ``E = (F, G)`` whose name is
        # used so makes F and G used so too
        self.uses = {"own": exceptions & bound, "classes": (others - exceptions) & bound}
        changed = True
        while changed:
            changed = False
            for n in ast.walk(tree):
                for target, value in self._bindings(n):
                    kind = self._kind(target)
                    if kind is None:
                        continue
                    found: set[str] = set()
                    self._names(value, found)
                    for name in found & bound:
                        if self._kind(name) is None or (
                                kind == "own" and name in self.uses["classes"]):
                            self.uses["classes"].discard(name)
                            self.uses[kind].add(name)
                            changed = True

    @staticmethod
    def _names(node: ast.expr, into: set) -> None:
        if isinstance(node, ast.Name):
            into.add(node.id)
        elif isinstance(node, (ast.Tuple, ast.List)):
            for element in node.elts:
                _CandidateClasses._names(element, into)

    @staticmethod
    def _bindings(n: ast.AST):  # type: ignore[no-untyped-def]
        """(name, value) of a simple binding: ``E = X`` (one or more targets), ``E: t = X``,
        ``for E in (X, Y)`` (each element)."""
        if isinstance(n, ast.Assign):
            for target in n.targets:
                if isinstance(target, ast.Name):
                    yield target.id, n.value
        elif isinstance(n, ast.AnnAssign) and n.value is not None and isinstance(
                n.target, ast.Name):
            yield n.target.id, n.value
        elif isinstance(n, (ast.For, ast.AsyncFor)) and isinstance(n.target, ast.Name) \
                and isinstance(n.iter, (ast.Tuple, ast.List)):
            for element in n.iter.elts:
                yield n.target.id, element

    def _kind(self, name: str) -> str | None:
        return "own" if name in self.uses["own"] else (
            "classes" if name in self.uses["classes"] else None)

    def _trusted(self, node: ast.expr) -> bool:
        while isinstance(node, (ast.Attribute, ast.Subscript)):
            node = node.value
        return isinstance(node, ast.Constant) or (isinstance(node, ast.Name)
                                                  and node.id in self.bound)

    def _wrap(self, node: ast.expr, kind: str = "own") -> ast.expr:
        if isinstance(node, (ast.Tuple, ast.List)) and isinstance(node.ctx, ast.Load):
            node.elts = [self._wrap(e, kind) for e in node.elts]
            return node
        if self._trusted(node) or isinstance(node, ast.Starred) or (
                kind == "classes" and isinstance(node, ast.Call)
                and isinstance(node.func, ast.Constant)):  # type(y), int | str: the runner's
            return node
        label = ast.unparse(node)
        read = node.attr if isinstance(node, ast.Attribute) else (
            node.id if isinstance(node, ast.Name) else None)
        return _located(ast.Call(func=_located(ast.Constant(
            self.own_name if kind == "own" else self.classes_name), node), args=[
            node, _located(ast.Constant(label if len(label) <= 80 else label[:77] + "..."),
                           node), _located(ast.Constant(read), node)], keywords=[]), node)

    def _bound_value(self, n: ast.AST) -> None:
        for target, _value in list(self._bindings(n)):
            kind = self._kind(target)
            if kind is None:
                continue
            if isinstance(n, (ast.For, ast.AsyncFor)):
                n.iter.elts = [self._wrap(e, kind) for e in n.iter.elts]  # type: ignore
                return
            n.value = self._wrap(n.value, kind)  # type: ignore[attr-defined]
            return

    def _visit_binding(self, node: ast.Assign | ast.AnnAssign | ast.For | ast.AsyncFor) -> Any:
        self.generic_visit(node)
        self._bound_value(node)
        return node

    visit_Assign = visit_AnnAssign = visit_For = visit_AsyncFor = _visit_binding

    def visit_Call(self, node: ast.Call) -> Any:
        self.generic_visit(node)
        func = node.func
        if (isinstance(func, ast.Constant) and func.value == self.raises_name
                and self.raises_name is not None) or (
                isinstance(func, ast.Name) and func.id in self.aliases):
            if node.args and not isinstance(node.args[0], ast.Starred):
                node.args[0] = self._wrap(node.args[0])
            for keyword in node.keywords:
                if keyword.arg == "expected_exception":
                    keyword.value = self._wrap(keyword.value)
        elif (isinstance(func, ast.Constant) and func.value in self.checks
              and len(node.args) == 2 and not node.keywords
              and not isinstance(node.args[1], ast.Starred)):
            node.args[1] = self._wrap(node.args[1], "classes")
        return node

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> Any:
        self.generic_visit(node)
        if node.type is not None:
            node.type = self._wrap(node.type)
            if self.catch_name:  # decided by the real bases (``catch``)
                node.type = _located(ast.Call(
                    func=_located(ast.Constant(self.catch_name), node.type),
                    args=[node.type], keywords=[]), node.type)
        return node


# Standard-library modules whose functions, classes and constants a test's ``mod.attr``
# (``import mod`` in the test) and ``from mod import attr`` mean as they were before the
# candidate ran, when the server has the module loaded: a candidate that rebinds
# ``math.fabs`` (HumanEval's find_zero test: ``math.fabs(poly(xs, x)) < 1e-4``) changes
# nothing the test computes with.
_REAL_MODULES = frozenset({
    "math", "cmath", "operator", "functools", "itertools", "collections", "datetime",
    "decimal", "fractions", "json", "re", "struct", "keyword", "heapq", "bisect",
    "statistics", "string", "copy", "random", "textwrap", "unicodedata", "base64",
    "binascii", "hashlib", "zlib", "array", "calendar", "difflib", "numbers", "enum"})
# Never handed to a test as a module object: what the sandbox refuses or never preloads
# (``_NOT_PRELOADED`` in ``_sandbox_runner.py``, which imports this one); a test importing
# one of those imports it the ordinary way (and a refused one raises SandboxImportError).
_UNPINNED = frozenset({
    "ctypes", "_ctypes", "_signal", "_testcapi", "_testinternalcapi", "_xxsubinterpreters",
    "_xxinterpchannels", "multiprocessing", "concurrent", "uuid", "tkinter",
    "turtle", "turtledemo", "idlelib", "this", "antigravity", "webbrowser", "pydoc", "test",
    "venv", "ensurepip", "lib2to3", "curses"})
# What a test gets for a module instead of the module itself (random: the server's view of
# it, whose functions draw from a stream of the runner's; ``_sandbox_draws.py``), set from
# the judge's ``views`` once per server.
_VIEWS: dict = {}
_HELD_TYPES = (types.BuiltinFunctionType, types.FunctionType, types.MethodType, type, int,
               float, complex, str, bytes, bool, type(None), frozenset)


def _held(module_name: str, attr: str) -> tuple[bool, Any]:
    """(True, the attribute) when the server holds ``module_name.attr`` as a function,
    class or immutable constant the runner may hand the test itself."""
    module = _VIEWS.get(module_name) or sys.modules.get(module_name)
    if module_name not in _REAL_MODULES or module is None:
        return False, None
    value = module.__dict__.get(attr, _held)
    if value is _held or type(value) not in _HELD_TYPES:
        return False, None
    return True, value


def _module_aliases(tree: ast.AST) -> dict[str, str]:
    """Names the test binds only by ``import mod`` (top-level modules): name -> module."""
    imported: dict[str, set[str]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for alias in n.names:
                imported.setdefault(alias.asname or alias.name.split(".")[0], set()).add(
                    alias.name if alias.asname or "." not in alias.name else "")
    others = _bound_names(tree, imports=False)
    loads: dict[str, int] = {}  # reads of the name, and of the name as ``name.attr``
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id in imported:
            loads[n.id] = loads.get(n.id, 0) + 1
        elif (isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
              and n.value.id in imported):
            # a test that sets the module's attributes itself, or hands the module on
            # (setattr(math, ...)), keeps its own meaning: none is held for it
            loads[n.value.id] = loads.get(n.value.id, 0) - (
                1 if isinstance(n.ctx, ast.Load) else 1 << 20)
    return {name: next(iter(mods)) for name, mods in imported.items()
            if len(mods) == 1 and "" not in mods and "." not in next(iter(mods))
            and name not in others and loads.get(name, 0) == 0}


class _RealAttributes(ast.NodeTransformer):
    """``mod.attr`` and ``from mod import attr`` -> placeholders of the objects the server
    holds (see ``_REAL_MODULES``)."""

    def __init__(self, aliases: dict[str, str], prefix: str, swaps: dict,
                 touched: set) -> None:
        self.aliases, self.prefix, self.swaps = aliases, prefix, swaps
        self.touched = touched

    def _placeholder(self, module: str, attr: str) -> str | None:
        ok, value = _held(module, attr)
        if not ok:
            return None
        name = f"{self.prefix}m-{module}.{attr}"
        self.swaps[name] = value
        return name

    def visit_Attribute(self, node: ast.Attribute) -> Any:
        if (isinstance(node.value, ast.Name) and isinstance(node.ctx, ast.Load)
                and node.value.id in self.aliases):
            name = self._placeholder(self.aliases[node.value.id], node.attr)
            if name is not None:
                return _located(ast.Constant(name), node)
        self.generic_visit(node)
        return node

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        if node.level or not node.module or any(a.name == "*" for a in node.names):
            return node
        names = [self._placeholder(node.module, a.name) for a in node.names]
        if None in names:
            return node
        check = _check_call(self.prefix, self.swaps, node.module, self.touched)  # intact?
        first = [] if check is None else [_located(ast.Expr(check), node)]
        return first + [_located(ast.Assign(
            targets=[_located(ast.Name(a.asname or a.name, ast.Store()), node)],
            value=_located(ast.Constant(name), node)), node)
            for a, name in zip(node.names, names, strict=True)]


def _pinned(name: str) -> Any:
    """The module ``name`` as the server holds it, when a test may be handed it directly:
    a standard-library module the server has loaded (``pin_modules`` loads those a test
    names), never one the sandbox refuses or does not preload."""
    parts = name.split(".")
    if parts[0] not in sys.stdlib_module_names or not _UNPINNED.isdisjoint(parts):
        return None
    module = sys.modules.get(name)
    return module if type(module) is types.ModuleType else None


def _warm_tempfile(m: Any) -> None:
    m.gettempdir()  # (the suite's folder: W has the same TMPDIR)
    _ = m._get_candidate_names().rng  # (W's own pid then rewrites its values, not its keys)


def _warm_base64(m: Any) -> None:
    m.a85encode(b"")
    m.b85encode(b"")
    m.b85decode(b"")


def _warm_posixpath(m: Any) -> None:
    m.expandvars("$_")
    m.expandvars(b"$_")


def _warm_urllib_parse(m: Any) -> None:
    m.unquote_to_bytes("%41")
    m._splittype("a:b")
    m._splithost("//a/b")
    m._splitport("a:1")


# Standard-library modules whose own functions bind a module global on first use (a table,
# a regex, a cache; ``global`` in the function): the server makes that first use before
# the module's first snapshot (W's environment is the server's: the same files, TMPDIR,
# uname), so a test's own call of them writes nothing and only a candidate's change shows
# (else ``tempfile.mkdtemp()`` in a test was an error: "the candidate's code changed the
# module"). What binds a global only when asked to (``logging.setLoggerClass``,
# ``gettext.textdomain``) is the test's or the candidate's own doing, as before.
_WARM: dict[str, Any] = {
    "tempfile": _warm_tempfile,
    "mimetypes": lambda m: m.init(),
    "platform": lambda m: (m.uname(), m.freedesktop_os_release()),
    "sysconfig": lambda m: m.get_config_vars(),
    "base64": _warm_base64,
    "posixpath": _warm_posixpath,
    "urllib.parse": _warm_urllib_parse,
    "ipaddress": lambda m: format(m.ip_address("127.0.0.1"), "b"),
    "zipfile": lambda m: m._ZipDecrypter(b""),
    # a class attribute: the first finalize sets finalize._registered_with_atexit (a
    # tempfile.TemporaryDirectory makes one)
    "weakref": lambda m: m.finalize(_warm_tempfile, int).detach(),
    # the first strptime imports _strptime, whose LocaleTime calls time.tzset(): a new
    # time.tzname tuple
    "time": lambda m: m.strptime("2000", "%Y"),
    "datetime": lambda m: m.datetime.strptime("2000", "%Y"),
}
_WARMED: set[str] = set()


def _touched_modules(tree: ast.AST) -> set[str]:
    """Modules the test's own code may change: those it imports under a name whose
    attributes it sets or deletes, or that it hands on (any use but ``name.attr``). Their
    namespaces are the test's business: only their identity is checked, not a snapshot."""
    imported: dict[str, set[str]] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            for alias in n.names:
                imported.setdefault(alias.asname or alias.name.split(".")[0], set()).add(
                    alias.name)
    if not imported:
        return set()
    attribute_reads: set[int] = set()
    touched: set[str] = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) \
                and n.value.id in imported:
            if isinstance(n.ctx, ast.Load):
                attribute_reads.add(id(n.value))
            else:
                touched.add(n.value.id)
    for n in ast.walk(tree):
        if isinstance(n, ast.Name) and n.id in imported and id(n) not in attribute_reads \
                and isinstance(n.ctx, ast.Load):
            touched.add(n.id)
    names: set[str] = set()
    for bound in touched:
        for module in imported[bound]:
            parts = module.split(".")
            names.update(".".join(parts[:k]) for k in range(1, len(parts) + 1))
    return names


def _snapshot(module: Any) -> tuple:
    """What the importer checks of a pinned module before handing it to a test (see
    ``make_scope``): per namespace (the module's, each class it defines that Python code
    can change, each instance of those it holds, each of its dispatch tables: a dict of
    functions or classes), (the namespace, its size or -1, keys, values); and (None, -2,
    its functions and its classes' methods, their code, defaults and keyword defaults, and
    what those keyword defaults bind).
    Taken here, in the server, before any candidate code ran; class attributes change
    without an audit event in 3.11 (``random.Random._randbelow = ...``), and so do
    functions' code and defaults (as far as the channel looks)."""
    if module.__name__ in ("sys", "builtins"):  # changed by W itself (and fingerprinted)
        return ()
    if module.__name__ not in _WARMED:  # its first use made first (``_WARM``)
        _WARMED.add(module.__name__)
        warm = _WARM.get(module.__name__)
        if warm is not None:
            try:
                warm(module)
            except Exception:  # (then its first use in W writes it: the test is an error)
                pass
    space = vars(module)
    # Not its dunder names (the import system rewrites __package__ & co. at times), nor
    # the state a fork renews (threading's locks and sets after os.fork)
    names = tuple(k for k in space if not (k.startswith("__") and k.endswith("__"))
                  and type(space[k]) not in _RENEWED)
    spaces = [(space, -1, names, tuple(space[k] for k in names))]
    name = module.__name__
    for value in tuple(space.values()):
        kind = type(value)
        if isinstance(value, type) and value.__module__ == name \
                and not value.__flags__ & (1 << 8):  # (not Py_TPFLAGS_IMMUTABLETYPE)
            # a class's ``__annotations__``, read, is stored in its namespace (an empty
            # dict) when it has none: typing's protocol check reads those of the protocol
            # and its bases, so ``isinstance(x, typing.SupportsInt)`` grew SupportsInt's
            # namespace, and the test was an error. Read here, before the snapshot.
            type.__dict__["__annotations__"].__get__(value)
            attrs = vars(value)  # (its metadata strs may be other, equal objects in W)
            keys = tuple(k for k in attrs if k not in ("__module__", "__doc__",
                                                       "__qualname__"))
            spaces.append((attrs, len(attrs), keys, tuple(attrs[k] for k in keys)))
        elif getattr(kind, "__module__", None) == name and isinstance(
                getattr(value, "__dict__", None), dict):
            spaces.append((value.__dict__, len(value.__dict__), (), ()))
    for key, value in space.items():  # dispatch tables (copy._deepcopy_dispatch): contents
        if (type(value) is dict and key in names and 0 < len(value) <= 256
                and all(type(v) in _CALLABLE for v in value.values())):
            spaces.append((value, len(value), tuple(value), tuple(value.values())))
    # the code, defaults and keyword defaults of its functions and of its classes' methods
    # (copy.deepcopy.__code__ replaced: the same function, something else computed)
    functions = [v for v in space.values() if type(v) is types.FunctionType
                 and v.__module__ == name]
    for value in space.values():
        if isinstance(value, type) and value.__module__ == name:
            for attr in vars(value).values():
                attr = getattr(attr, "__func__", attr)  # classmethod, staticmethod
                if type(attr) is types.FunctionType:
                    functions.append(attr)
    if functions:
        spaces.append((None, -2, tuple(functions), tuple(
            (f.__code__, f.__defaults__, f.__kwdefaults__,
             None if f.__kwdefaults__ is None else tuple(f.__kwdefaults__),
             None if f.__kwdefaults__ is None else tuple(f.__kwdefaults__.values()))
            for f in functions)))
    view = _VIEWS.get(name)
    if view is not None:  # what the test gets instead, made by the runner: all of it
        spaces.append((vars(view), len(vars(view)), tuple(vars(view)),
                       tuple(vars(view).values())))
    return tuple(spaces)


_RENEWED = (type(__import__("_thread").allocate_lock()), __import__("_thread").RLock, set)
_CALLABLE = (types.FunctionType, types.BuiltinFunctionType, types.MethodType, type)


def _check_call(prefix: str, swaps: dict, name: str, touched: set) -> Any:
    """``IMPORT(name, False, <module>, None, <snapshot>)``, or None when not pinned."""
    module = _pinned(name)
    if module is None:
        return None
    swaps[f"{prefix}i-{name}"] = module
    snapshot = ast.Constant(None)
    if name not in touched:
        swaps[f"{prefix}s-{name}"] = _snapshot(module)
        snapshot = ast.Constant(f"{prefix}s-{name}")
    return ast.Call(func=ast.Constant(prefix + "import"), args=[
        ast.Constant(name), ast.Constant(False), ast.Constant(f"{prefix}i-{name}"),
        ast.Constant(None), snapshot], keywords=[])


class _Imports(ast.NodeTransformer):
    """A test's ``import`` statements -> calls of the runner's importer, given the module
    objects the server loaded (``make_scope`` in ``_sandbox_channel.py``): ``import a.b`` ->
    ``a = IMPORT('a.b', True, <a.b>, <a>)``, ``import a.b as c`` -> ``c = IMPORT('a.b', False,
    <a.b>, None)``, ``from m import x as y`` -> ``(y,) = IMPORT_FROM('m', ('x',), <m>)``.
    ``from __future__``, relative and star imports stay as they are (``from random import
    *`` binds the names of the view of random that ``_VIEWS`` holds)."""

    def __init__(self, prefix: str, swaps: dict, touched: set) -> None:
        self.prefix, self.swaps, self.touched = prefix, swaps, touched

    def _module(self, name: str) -> ast.Constant:
        module = _pinned(name)
        if module is None:
            return ast.Constant(None)
        placeholder = f"{self.prefix}i-{name}"
        self.swaps[placeholder] = module
        return ast.Constant(placeholder)

    def _snapshot(self, name: str) -> ast.Constant:
        module = _pinned(name)
        if module is None or name in self.touched:
            return ast.Constant(None)
        placeholder = f"{self.prefix}s-{name}"
        self.swaps[placeholder] = _snapshot(module)
        return ast.Constant(placeholder)

    def visit_Import(self, node: ast.Import) -> Any:
        out = []
        for alias in node.names:
            top = alias.asname is None
            bound = alias.asname or alias.name.split(".")[0]
            call = ast.Call(func=ast.Constant(self.prefix + "import"), args=[
                ast.Constant(alias.name), ast.Constant(top), self._module(alias.name),
                self._module(alias.name.split(".")[0]) if top else ast.Constant(None),
                self._snapshot(alias.name)], keywords=[])
            out.append(_located(ast.Assign(targets=[ast.Name(bound, ast.Store())],
                                           value=call), node))
        return out

    def visit_ImportFrom(self, node: ast.ImportFrom) -> Any:
        view = _VIEWS.get(node.module or "")
        if view is not None and not node.level and [a.name for a in node.names] == ["*"]:
            # ``from random import *``: the view's public names, as the star would bind
            node = _located(ast.ImportFrom(node.module, [ast.alias(name) for name in getattr(
                view, "__all__", ())], 0), node)
        if (node.level or not node.module or node.module == "__future__"
                or any(a.name == "*" for a in node.names)):
            return node
        target = ast.Tuple([ast.Name(a.asname or a.name, ast.Store()) for a in node.names],
                           ast.Store())
        call = ast.Call(func=ast.Constant(self.prefix + "import_from"), args=[
            ast.Constant(node.module), _constant(tuple(a.name for a in node.names)),
            self._module(node.module), self._snapshot(node.module)], keywords=[])
        return _located(ast.Assign(targets=[target], value=call), node)


def _swap_constants(code, swaps: dict):  # type: ignore[no-untyped-def]
    def swapped(const):  # type: ignore[no-untyped-def]
        if type(const) is str and const in swaps:
            return swaps[const]
        if type(const) is type(code):
            return _swap_constants(const, swaps)
        if type(const) is tuple:
            return tuple(swapped(c) for c in const)
        if type(const) is frozenset:
            return frozenset(swapped(c) for c in const)
        return const
    return code.replace(co_consts=tuple(swapped(c) for c in code.co_consts))


# one match per judged comparison operator in a test's text (more where text looks like one)
_OPERATORS = re.compile(r"==|!=|<|>|\bin\b")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")
# text that may hold a binary arithmetic operator: one after an operand (a name, number,
# closing bracket or quote; ``-3`` after ``(``, ``,`` or ``==`` is a sign, not one)
_ARITHMETIC = re.compile(r"""[\w.)\]}'"][\s\\]*(?:[-+*/%@&|^]|<<|>>)""")


def _prepared(judge: dict, salt: str) -> tuple:
    """(swaps, placeholders of names, of pytest's names, the names that get folded) for a
    salt, made once per server (a few hundred strings)."""
    made = judge.get("_prepared")
    if made is not None and made[0] == salt:
        return made[1]
    prefix = f"\0erxr-{salt}-"
    _VIEWS.update(judge.get("views", {}))
    swaps = {prefix + "compare": judge["compare"], prefix + "chain": judge["chain"],
             prefix + "arith": judge["arith"],
             prefix + "explain": judge["explain"], prefix + "pytest": judge["pytest"],
             prefix + "import": judge["import"], prefix + "import_from": judge["import_from"],
             prefix + "recheck": judge["recheck"], prefix + "own": judge["own"],
             prefix + "classes": judge["classes"], prefix + "wrap": judge["wrap"],
             prefix + "catch": judge["catch"], prefix + "compiled": judge["compiled"],
             **{prefix + "guard-" + kind: function for kind, function in zip(
                 ("start", "note", "renote", "checked", "patched", "swap"), judge["guard"],
                 strict=True)},
             prefix + "classmethod": classmethod, prefix + "staticmethod": staticmethod}
    placeholders = {"pytest": prefix + "pytest"}
    for name, obj in judge["names"].items():
        placeholders[name] = prefix + "b-" + name
        swaps[placeholders[name]] = obj
    attributes = {}
    for name, obj in judge["pytest_names"].items():
        attributes[name] = prefix + "pytest-" + name
        swaps[attributes[name]] = obj
    made = (swaps, placeholders, attributes, frozenset(placeholders), prefix)
    judge["_prepared"] = (salt, made)
    return made


def compile_test(tree: ast.Module, judge: dict, salt: str,  # type: ignore[no-untyped-def]
                 source: str | None = None):
    """Compile a parsed test as the module docstring says. ``judge``: ``compare``,
    ``chain``, ``explain`` (the runner's, see ``_sandbox_compare.build``), ``names`` (name ->
    the real builtin), ``pytest`` (the shim module) and ``pytest_names`` (its public names).
    ``source``, the test's text, lets passes with nothing to do be skipped.

    ``salt`` makes the placeholder constants unguessable, so a test's own string constants
    are never mistaken for them. Raises SyntaxError / ValueError like ``compile``.
    """
    swaps, placeholders, attributes, foldable, prefix = _prepared(judge, salt)
    explained = _explain_asserts(tree, prefix + "explain")
    if source is None or len(_OPERATORS.findall(source)) != explained:
        tree = _Comparisons(prefix + "compare", prefix + "chain").visit(tree)
    if source is None or _ARITHMETIC.search(source):
        tree = _Arithmetic(prefix + "arith").visit(tree)
    if source is None or not foldable.isdisjoint(_IDENTIFIER.findall(source)):
        patterns: dict = {}
        tree = _RealNames(placeholders, attributes, patterns, _bound_names(tree),
                          tree).visit(tree)
        ast.fix_missing_locations(tree)  # (imports turned into assignments)
        if patterns:
            swaps = {**swaps, **patterns}
    if source is None or "raises" in source or "except" in source or (
            "isinstance" in source or "issubclass" in source):
        checks = {placeholders[n] for n in ("isinstance", "issubclass") if n in placeholders}
        tree = _CandidateClasses(prefix + "own", prefix + "classes", attributes.get("raises"),
                                 checks, _bound_names(tree), tree,
                                 prefix + "catch").visit(tree)
        ast.fix_missing_locations(tree)
    if source is None or "import" in source:
        held: dict = {}
        aliases, touched = _module_aliases(tree), _touched_modules(tree)
        tree = _RealAttributes(aliases, prefix, held, touched).visit(tree)
        tree = _Imports(prefix, held, touched).visit(tree)
        snapshots = sorted(k for k in held if k.startswith(prefix + "s-"))
        if snapshots:  # checked again when the test's code ends (what a pass needs)
            tree.body.append(ast.Expr(ast.Call(
                func=ast.Constant(prefix + "recheck"),
                args=[_constant(tuple((k[len(prefix) + 2:], k) for k in snapshots))],
                keywords=[])))
        ast.fix_missing_locations(tree)
        swaps = {**swaps, **held}
    if (source is None or "class" in source) and _defines_classes(tree):
        tree = _ClassGuard(prefix, placeholders).visit(tree)
        ast.fix_missing_locations(tree)
    if source is None or "lambda" in source or "def" in source:
        tree = _Functions(prefix + "wrap", {name: prefix + kind
                                            for name, kind in _IMPLICIT.items()}).visit(tree)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "'str' object is not callable" on a placeholder
        # dont_inherit: not this module's ``from __future__ import annotations``, which made
        # a test's annotations the text of its placeholders (``x: int`` read as the string
        # "'\\0erxr-...-b-int'", so ``functools.singledispatch``'s ``register`` failed)
        code = compile(tree, "<test>", "exec", dont_inherit=True)
    return _swap_constants(code, swaps)
