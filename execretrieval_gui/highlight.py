"""Python colouring from the standard library's tokenizer, in Pygments' default style.

The diff view colours every snippet it shows. Pygments' Python lexer compiles about a
hundred regular expressions on first use, which the first diff of a session waited for;
:mod:`tokenize` is loaded by then already and classifies a snippet in well under a
millisecond. The colours and the token classes follow Pygments' ``default`` style and its
``PythonLexer`` (keywords, constants, operator words, builtins, exceptions, ``self``, magic
names, function, class, decorator and import names, strings with their escapes,
docstrings, numbers, comments); a test compares the result with Pygments itself over every
bundled snippet. Code the tokenizer cannot finish (an unterminated string, a bad dedent)
is coloured up to that point and shown plain after it.
"""

from __future__ import annotations

import builtins
import io
import keyword
import re
import tokenize
from collections.abc import Iterator
from functools import lru_cache

__all__ = ["highlight_lines"]

# Pygments' default style, as the token classes below resolve in it
KEYWORD = "color:#008000;font-weight:bold"
OPERATOR_WORD = "color:#AA22FF;font-weight:bold"
OPERATOR = "color:#666666"
BUILTIN = "color:#008000"
EXCEPTION = "color:#CB3F38;font-weight:bold"
FUNCTION = "color:#0000FF"
CLASS = "color:#0000FF;font-weight:bold"
NAMESPACE = "color:#0000FF;font-weight:bold"
DECORATOR = "color:#AA22FF"
MAGIC = "color:#19177C"
NUMBER = "color:#666666"
STRING = "color:#BA2121"
DOC = "color:#BA2121;font-style:italic"
ESCAPE = "color:#AA5D1F;font-weight:bold"
INTERPOL = "color:#A45A77;font-weight:bold"
COMMENT = "color:#3D7B7B;font-style:italic"

_OPERATOR_WORDS = frozenset({"and", "or", "not", "in", "is"})
_PSEUDO = frozenset({"self", "cls", "Ellipsis", "NotImplemented"})
_MAGIC_VARS = frozenset({
    "__annotations__", "__bases__", "__class__", "__closure__", "__code__", "__defaults__",
    "__dict__", "__doc__", "__file__", "__func__", "__globals__", "__kwdefaults__",
    "__module__", "__mro__", "__name__", "__objclass__", "__qualname__", "__self__",
    "__slots__", "__weakref__"})
_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException))
_BUILTINS = frozenset(
    name for name in dir(builtins) if not name.startswith("_")) - _EXCEPTIONS - _PSEUDO - {
        "True", "False", "None", "copyright", "credits", "exit", "license", "quit"}
_PUNCTUATION = frozenset("()[]{},:;")
# what follows ``match`` or ``case`` when it is a plain name (Pygments' own rule)
_NOT_SOFT_START = frozenset(":,;=^&|@~)]}")
_NOT_SOFT = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "**", "//"})
_ESCAPES = re.compile(r"\\(N\{[^}]*\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}"
                      r"|[0-7]{1,3}|.)", re.S)
_PREFIX = re.compile(r"[A-Za-z]*")

Run = tuple[str, str]


@lru_cache(maxsize=512)
def highlight_lines(code: str) -> tuple[tuple[Run, ...], ...]:
    """Per line of ``code`` (split at ``\\n``), its (css, text) runs; the texts of all runs
    joined with newlines are ``code`` exactly."""
    offsets = [0]
    for line in code.split("\n"):
        offsets.append(offsets[-1] + len(line) + 1)
    runs: list[Run] = []
    pos = 0
    for start, end, css in _spans(code, offsets):
        if start < pos:
            continue
        if start > pos:
            runs.append(("", code[pos:start]))
        if css == STRING:
            runs.extend(_string_runs(code[start:end]))
        else:
            runs.append((css, code[start:end]))
        pos = end
    if pos < len(code):
        runs.append(("", code[pos:]))
    lines: list[list[Run]] = [[]]
    for css, text in runs:
        for k, part in enumerate(text.split("\n")):
            if k:
                lines.append([])
            if part:
                lines[-1].append((css, part))
    return tuple(tuple(line) for line in lines)


def _tokens(code: str) -> list[tokenize.TokenInfo]:
    """The tokens the tokenizer gives before it stops (it may stop early on bad code)."""
    out: list[tokenize.TokenInfo] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            out.append(tok)
    except (tokenize.TokenError, SyntaxError):
        pass
    return out


def _spans(code: str, offsets: list[int]) -> list[tuple[int, int, str]]:
    """(start, end, css) of every coloured token, in order."""
    toks = _tokens(code)
    out: list[tuple[int, int, str]] = []
    line_start = True        # the next token begins a logical line
    depth = 0                # open brackets
    after = ""               # "def", "class", "import", "from", "@": what a name means
    previous = ""
    for n, tok in enumerate(toks):
        kind, text = tok.type, tok.string
        if kind in (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT) or (
                kind == tokenize.NL and depth == 0):
            line_start, after = True, ""
            continue
        if kind in (tokenize.NL, tokenize.ENDMARKER):
            continue
        start = offsets[tok.start[0] - 1] + tok.start[1]
        end = offsets[tok.end[0] - 1] + tok.end[1]
        following = toks[n + 1].string if n + 1 < len(toks) else ""
        css = ""
        if kind == tokenize.NAME:
            css, after = _name(text, previous, following, after, line_start)
        elif kind == tokenize.OP:
            depth = max(0, depth + (text in "([{") - (text in ")]}")) if len(text) == 1 \
                else depth
            if text == "@" and line_start:
                css, after = DECORATOR, "@"
            elif text == "." and after in ("import", "from"):
                css = NAMESPACE
            elif text not in _PUNCTUATION:
                css, after = OPERATOR, ""
            elif text == "(":
                after = ""
        elif kind == tokenize.NUMBER:
            css = NUMBER
        elif kind == tokenize.STRING:
            css = DOC if line_start and _triple(text) else STRING
        elif kind == tokenize.COMMENT:
            css = COMMENT
        if css:
            out.append((start, end, css))
        previous = text
        line_start = text == ";"
    return out


def _name(text: str, previous: str, following: str, after: str, line_start: bool
          ) -> tuple[str, str]:
    """The css of a name and what the names after it mean."""
    if keyword.iskeyword(text):
        if text in _OPERATOR_WORDS:
            return OPERATOR_WORD, after
        if text in ("def", "class"):
            return KEYWORD, text
        if text == "import":
            return KEYWORD, "import" if after != "from" else "from-import"
        if text == "from":
            return KEYWORD, "from" if line_start else after
        if text == "as" and after == "import":
            return KEYWORD, "import"
        return KEYWORD, "" if after not in ("from-import",) else after
    if text in ("match", "case") and line_start and following and \
            following[0] not in _NOT_SOFT_START and following.rstrip("=") not in _NOT_SOFT:
        return KEYWORD, ""
    if after == "def":
        return FUNCTION, ""
    if after == "class":
        return CLASS, ""
    if after == "@":   # only the first name: Pygments shows the rest of the path plain
        return DECORATOR, ""
    if after in ("import", "from"):
        return NAMESPACE, after
    if previous == ".":
        return "", after
    if text in _PSEUDO or text in _BUILTINS:
        return BUILTIN, after
    if text in _EXCEPTIONS:
        return EXCEPTION, after
    if text in _MAGIC_VARS:
        return MAGIC, after
    return "", after


def _triple(text: str) -> bool:
    body = text[len(_PREFIX.match(text).group(0)):]  # type: ignore[union-attr]
    return body.startswith(('"""', "'''"))


def _string_runs(text: str) -> list[Run]:
    """A string token: its prefix, then its body with escapes marked (not in raw strings;
    docstrings are not split: Pygments shows them whole)."""
    prefix = _PREFIX.match(text).group(0)  # type: ignore[union-attr]
    runs: list[Run] = [(STRING, prefix)] if prefix else []
    body = text[len(prefix):]
    if "f" in prefix.lower():
        quote = 3 if body[:3] in ('"""', "'''") else 1
        runs.append((STRING, body[:quote]))
        runs.extend(_fstring_runs(body[quote:len(body) - quote], "r" in prefix.lower()))
        runs.append((STRING, body[len(body) - quote:]))
        return runs
    runs.extend(_literal_runs(body, "r" in prefix.lower()))
    return runs


def _literal_runs(body: str, raw: bool) -> list[Run]:
    """String text with its escapes marked (none in a raw string)."""
    if raw or "\\" not in body:
        return [(STRING, body)] if body else []
    runs: list[Run] = []
    pos = 0
    for m in _ESCAPES.finditer(body):
        if m.start() > pos:
            runs.append((STRING, body[pos:m.start()]))
        runs.append((ESCAPE, m.group(0)))
        pos = m.end()
    if pos < len(body):
        runs.append((STRING, body[pos:]))
    return runs


def _fstring_runs(body: str, raw: bool) -> list[Run]:
    """An f-string's text: literal parts as strings, each replacement field's braces,
    conversion and ``:`` as interpolation, its expression coloured as code, its format
    spec as string (as Pygments shows them)."""
    runs: list[Run] = []
    pos = i = 0
    while i < len(body):
        if body[i] in "{}" and body[i:i + 2] in ("{{", "}}"):   # a doubled brace: escaped
            runs.extend(_literal_runs(body[pos:i], raw))
            runs.append((ESCAPE, body[i:i + 2]))
            pos = i = i + 2
            continue
        if body[i] != "{":
            i += 1
            continue
        close = _field_end(body, i)
        if close < 0:
            break
        runs.extend(_literal_runs(body[pos:i], raw))
        runs.extend(_field_runs(body[i + 1:close]))
        pos = i = close + 1
    runs.extend(_literal_runs(body[pos:], raw))
    return runs


def _unquoted(text: str, start: int) -> Iterator[tuple[int, str, int]]:
    """(index, character, bracket depth before it) of every character of ``text`` from
    ``start`` that is not inside a quoted string (an f-string field's own strings)."""
    depth, quote = 0, ""
    for k in range(start, len(text)):
        ch = text[k]
        if quote:
            quote = "" if ch == quote else quote
            continue
        if ch in "'\"":
            quote = ch
            continue
        yield k, ch, depth
        depth += (ch in "([{") - (ch in ")]}")


def _field_end(body: str, start: int) -> int:
    """Index of the ``}`` closing the replacement field opened at ``start`` (-1: none)."""
    for k, ch, depth in _unquoted(body, start + 1):
        if depth == 0 and ch in ")]}":
            return k if ch == "}" else -1
    return -1


def _field_runs(field: str) -> list[Run]:
    """``{`` expression [``!c``] [``:`` spec] ``}``."""
    cut = len(field)
    for k, ch, depth in _unquoted(field, 0):
        if depth == 0 and (ch == ":" or (ch == "!" and field[k + 1:k + 2] != "=")):
            cut = k
            break
    expr, rest = field[:cut], field[cut:]
    runs: list[Run] = [(INTERPOL, "{")]
    for k, line in enumerate(highlight_lines(expr) if expr else ()):
        if k:
            runs.append(("", "\n"))
        runs.extend(line)
    if rest:
        spec = rest.find(":")
        head = rest if spec < 0 else rest[:spec + 1]
        runs.append((INTERPOL, head))
        if spec >= 0 and rest[spec + 1:]:
            runs.append((STRING, rest[spec + 1:]))
    runs.append((INTERPOL, "}"))
    return runs
