"""Plain data beyond the builtins: ``datetime`` values, ``Fraction``, ``Decimal``,
``bytearray`` and the ``collections`` containers — read from source without evaluating
it, mutated type-aware and moved to their boundaries.

:func:`rich_value` builds such a value from the AST of a constructor call (``date(2024,
11, 17)``, ``datetime.timedelta(days=1)``, ``collections.Counter({'a': 2})``), written
with the module's name as their reprs are, or with the bare class name as a suite that
imports it writes them; the constructor is called only after every argument has been
read as plain data of the type it takes. Dates move the way a tester moves them: a day
either way, to the first and last day of the month and of the year, and across February
of a leap year; times by a second or a minute, to midnight and to 23:59:59.
"""

from __future__ import annotations

import ast
import calendar
import collections
import datetime
import decimal
import fractions
import random
from collections.abc import Callable
from typing import Any

__all__ = ["RICH_TYPES", "rich_boundaries", "mutate_rich", "rich_value"]

#: the class name each stdlib type is written with, by module
QUALIFIED = {
    "date": "datetime", "datetime": "datetime", "time": "datetime", "timedelta": "datetime",
    "timezone": "datetime", "Fraction": "fractions", "Decimal": "decimal",
    "Counter": "collections", "OrderedDict": "collections", "defaultdict": "collections",
    "deque": "collections"}
RICH_TYPES = (datetime.date, datetime.datetime, datetime.time, datetime.timedelta,
              fractions.Fraction, decimal.Decimal, bytearray, collections.Counter,
              collections.OrderedDict, collections.defaultdict, collections.deque)
_FACTORIES = {"int": int, "list": list, "set": set, "str": str, "float": float,
              "dict": dict, "tuple": tuple, "bool": bool, "frozenset": frozenset}
_DAY = datetime.timedelta(days=1)


def _class_of(func: ast.expr) -> str | None:
    """``date`` for ``date``, ``datetime.date`` or an import alias ``_erx_datetime.date``;
    None for anything else."""
    if isinstance(func, ast.Name):
        return func.id if func.id in QUALIFIED else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        module = func.value.id.removeprefix("_erx_")
        if QUALIFIED.get(func.attr) == module:
            return func.attr
    return None


def rich_value(node: ast.expr, value: Callable[[ast.expr], Any]) -> Any:
    """The value a constructor call (or ``timezone.utc``) in ``node`` stands for; its
    arguments are read by ``value`` (the plain-data reader). ValueError otherwise."""
    if isinstance(node, ast.Attribute):
        if node.attr == "utc" and _class_of(node.value) == "timezone":
            return datetime.UTC
        raise ValueError("Attribute is not allowed")
    assert isinstance(node, ast.Call)
    name = _class_of(node.func)
    if name is None:
        raise ValueError("Call is not allowed")
    skip = 1 if name == "defaultdict" else 0   # its factory is a name, read below
    args = [None] * skip + [value(a) for a in node.args[skip:]]
    kwargs = {k.arg: value(k.value) for k in node.keywords if k.arg is not None}
    if len(kwargs) != len(node.keywords):
        raise ValueError("** in a call")
    try:
        return _construct(name, args, kwargs, node)
    except OverflowError as exc:
        raise ValueError(str(exc)) from exc


def _ints(values: list[Any] | tuple[Any, ...]) -> bool:
    return all(type(v) is int for v in values)


def _construct(name: str, args: list[Any], kwargs: dict[str, Any], node: ast.Call) -> Any:
    zone = kwargs.get("tzinfo")
    if zone is not None and type(zone) is not datetime.timezone:
        raise ValueError("tzinfo must be a datetime.timezone")
    if name == "date" and _ints(args) and not kwargs:
        return datetime.date(*args)
    if name in ("datetime", "time") and _ints(args) and set(kwargs) <= {"tzinfo", "fold"}:
        if type(kwargs.get("fold", 0)) is not int:
            raise ValueError("fold must be an int")
        return (datetime.datetime if name == "datetime" else datetime.time)(*args, **kwargs)
    if name == "timedelta" and len(args) <= 3 and all(
            type(v) in (int, float) for v in (*args, *kwargs.values())) and set(kwargs) <= {
            "days", "seconds", "microseconds", "milliseconds", "minutes", "hours", "weeks"}:
        return datetime.timedelta(*args, **kwargs)
    if name == "timezone" and not kwargs and 1 <= len(args) <= 2 and type(
            args[0]) is datetime.timedelta and (len(args) == 1 or type(args[1]) is str):
        return datetime.timezone(*args)
    if name == "Fraction" and not kwargs and (
            (len(args) == 2 and _ints(args)) or (len(args) == 1 and type(args[0]) in (int, str))):
        return fractions.Fraction(*args)
    if name == "Decimal" and not kwargs and len(args) == 1 and type(args[0]) in (int, str):
        try:
            return decimal.Decimal(args[0])
        except decimal.InvalidOperation as exc:
            raise ValueError(f"not a decimal: {args[0]!r}") from exc
    if name in ("Counter", "OrderedDict") and not kwargs and len(args) <= 1 and (
            not args or type(args[0]) is dict):
        return (collections.Counter if name == "Counter" else collections.OrderedDict)(*args)
    if name == "defaultdict" and not kwargs and len(node.args) == 2 and type(args[1]) is dict:
        factory = node.args[0]
        if isinstance(factory, ast.Constant) and factory.value is None:
            return collections.defaultdict(None, args[1])
        if isinstance(factory, ast.Name) and factory.id in _FACTORIES:
            return collections.defaultdict(_FACTORIES[factory.id], args[1])
        raise ValueError("a defaultdict's factory must be a built-in type")
    if name == "deque" and len(args) == 1 and type(args[0]) is list and set(kwargs) <= {
            "maxlen"} and type(kwargs.get("maxlen", 0)) is int:
        return collections.deque(*args, **kwargs)
    raise ValueError(f"{name}(...) with these arguments is not allowed")


# --- mutation ---------------------------------------------------------------------------

def _month_end(d: datetime.date) -> int:
    return calendar.monthrange(d.year, d.month)[1]


def _add_months(d: Any, months: int) -> Any:
    """``d`` moved by whole months, the day clamped to the new month's length."""
    index = d.year * 12 + d.month - 1 + months
    year, month = divmod(index, 12)
    year = min(max(year, datetime.MINYEAR), datetime.MAXYEAR)
    day = min(d.day, calendar.monthrange(year, month + 1)[1])
    return d.replace(year=year, month=month + 1, day=day)


def _leap_near(year: int) -> int:
    return next(y for y in range(year, year + 8) if calendar.isleap(y)) \
        if year + 8 <= datetime.MAXYEAR else 2024


def _shift(d: Any, delta: datetime.timedelta) -> Any:
    try:
        return d + delta
    except OverflowError:
        return d


def _date_tiers(d: Any) -> list[list[Any]]:
    """One day either way; the month's and the year's first and last days; February's
    end and March 1 of the nearest leap year (time of day kept for a datetime)."""
    leap = _leap_near(d.year)
    tiers = [[_shift(d, -_DAY), _shift(d, _DAY)],
             [d.replace(day=1), d.replace(day=_month_end(d)), d.replace(month=1, day=1),
              d.replace(month=12, day=31)],
             [d.replace(year=leap, month=2, day=28), d.replace(year=leap, month=2, day=29),
              d.replace(year=leap, month=3, day=1),
              _add_months(d, 1), _add_months(d, -1)]]
    return tiers


def _clock_tiers(t: Any) -> list[list[Any]]:
    """A second and a minute either way; midnight and 23:59:59; noon."""
    if type(t) is datetime.time:
        moved = [datetime.datetime.combine(datetime.date(2000, 1, 2), t) + s
                 for s in (datetime.timedelta(seconds=-1), datetime.timedelta(seconds=1),
                           datetime.timedelta(minutes=-1), datetime.timedelta(minutes=1))]
        first = [m.time().replace(tzinfo=t.tzinfo, fold=t.fold) for m in moved]
    else:
        first = [_shift(t, datetime.timedelta(seconds=s)) for s in (-1, 1, -60, 60)]
    return [first,
            [t.replace(hour=0, minute=0, second=0, microsecond=0),
             t.replace(hour=23, minute=59, second=59, microsecond=0)],
            [t.replace(hour=12, minute=0, second=0, microsecond=0)]]


def rich_boundaries(value: Any) -> list[list[Any]] | None:
    """Boundary variants of one datetime, time, timedelta, Fraction or Decimal, in the
    three tiers of :func:`~execretrieval.inputs.mutate.boundary_variants` (one step, to
    a zero or an edge, further edges); None for any other value."""
    t = type(value)
    if t is datetime.date:
        tiers = _date_tiers(value)
    elif t is datetime.datetime:
        dates, clocks = _date_tiers(value), _clock_tiers(value)
        tiers = [dates[0] + clocks[0], dates[1] + clocks[1], dates[2] + clocks[2]]
    elif t is datetime.time:
        tiers = _clock_tiers(value)
    elif t is datetime.timedelta:
        tiers = [[value - _DAY, value + _DAY, value - datetime.timedelta(seconds=1),
                  value + datetime.timedelta(seconds=1)],
                 [datetime.timedelta(0)], [-value]]
    elif t is fractions.Fraction or t is decimal.Decimal:
        tiers = [[value - 1, value + 1], [t(0)], [-value]]
    else:
        return None
    return [[v for v in tier if v != value or type(v) is not type(value)] for tier in tiers]


def mutate_rich(value: Any, rng: random.Random, mutate: Callable[[Any], Any]) -> Any:
    """``value`` one type-aware edit away (same type), or ``value`` itself when it is
    not one of :data:`RICH_TYPES`; ``mutate`` mutates plain builtins (for containers)."""
    t = type(value)
    tiers = rich_boundaries(value)
    if tiers is not None:
        roll = rng.random()
        if t in (datetime.date, datetime.datetime) and roll < 0.3:
            return _shift(value, datetime.timedelta(days=rng.choice(
                (-400, -31, -7, -2, 2, 7, 30, 365))))
        if t in (fractions.Fraction, decimal.Decimal) and roll < 0.3:
            step = rng.choice((t(1) / 2, t(1) / 10, t(-1) / 4, t(3)))
            return value + step if rng.random() < 0.7 else value * step
        pool = [v for tier in tiers for v in tier]
        return rng.choice(pool) if pool else value
    if t is bytearray:
        return bytearray(mutate(bytes(value)))
    if t is collections.Counter or t is collections.OrderedDict:
        return t(mutate(dict(value)))
    if t is collections.defaultdict:
        return collections.defaultdict(value.default_factory, mutate(dict(value)))
    if t is collections.deque:
        return collections.deque(mutate(list(value)), maxlen=value.maxlen)
    return value
