"""Pipeline names: ``BASE+STAGE+STAGE...``, the string a pipeline is known by everywhere.

Grammar (``+`` binds loosest, so ``rrf:bm25,minilm+exec`` is exec after the fusion)::

    pipeline := base ("+" stage)*
    base     := MODEL | ("rrf" | "combsum") ":" MODEL "," MODEL ("," MODEL)* ("," key=value)*
    stage    := NAME | NAME ":" key=value ("," key=value)*

A MODEL is anything the ranking registry knows (``bm25``, ``minilm``, a ``.npz`` path...).
Only shell-safe characters are accepted (letters, digits and ``_ - . / : , = + @ %``), so a
pipeline never needs quoting and can never redirect or start a subshell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import ModelNotFoundError

__all__ = ["FUSIONS", "STAGES", "BaseSpec", "PipelineSpec", "StageSpec", "is_pipeline",
           "parse_pipeline"]

#: stage name -> the options it accepts
STAGES: dict[str, tuple[str, ...]] = {"exec": ("depth",),
                                      "consensus": ("depth", "inputs", "seed"),
                                      "api": ("url", "model", "format", "key_env", "depth",
                                              "batch"),
                                      "cross-encoder": ("path", "depth", "batch"),
                                      "llm": ("url", "model", "key_env", "depth")}
#: fusion name -> the options it accepts beside its models
FUSIONS: dict[str, tuple[str, ...]] = {"rrf": ("k", "depth"), "combsum": ("depth",)}

_SAFE = re.compile(r"[A-Za-z0-9_\-./:,=+@%]+")
_KEY = re.compile(r"[a-z][a-z0-9_]*")


class PipelineNameError(ModelNotFoundError):
    """A pipeline string that cannot be parsed, or names an unknown stage or option."""


@dataclass(frozen=True)
class StageSpec:
    """One stage: its name and options as written (values are strings)."""

    name: str
    options: tuple[tuple[str, str], ...] = ()

    def option(self, key: str, default: str | None = None) -> str | None:
        return dict(self.options).get(key, default)


@dataclass(frozen=True)
class BaseSpec:
    """The first stage: one model, or a fusion (``rrf`` / ``combsum``) of several."""

    model: str = ""
    fusion: str = ""
    models: tuple[str, ...] = ()
    options: tuple[tuple[str, str], ...] = ()

    def option(self, key: str, default: str | None = None) -> str | None:
        return dict(self.options).get(key, default)


@dataclass(frozen=True)
class PipelineSpec:
    """A parsed pipeline name; ``text`` is the string it was parsed from (its label)."""

    text: str
    base: BaseSpec
    stages: tuple[StageSpec, ...] = ()

    @property
    def is_plain_model(self) -> bool:
        return not self.stages and not self.base.fusion


def is_pipeline(name: str) -> bool:
    """True if ``name`` has a stage or a fusion (so it is not a plain model name)."""
    return not parse_pipeline(name).is_plain_model


def _options(text: str, where: str, allowed: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for item in text.split(","):
        key, eq, value = item.partition("=")
        if not eq or not _KEY.fullmatch(key) or not value:
            raise PipelineNameError(f"{where}: malformed option {item!r}; expected key=value")
        if key not in allowed:
            raise PipelineNameError(f"{where}: unknown option {key!r}; it accepts "
                                    f"{', '.join(allowed) or 'no options'}")
        if key in dict(out):
            raise PipelineNameError(f"{where}: option {key!r} given twice")
        out.append((key, value))
    return tuple(out)


def _base(text: str, pipeline: str) -> BaseSpec:
    name, colon, rest = text.partition(":")
    if not colon or name not in FUSIONS:
        if not text:
            raise PipelineNameError(f"pipeline {pipeline!r}: no base model before the first '+'")
        return BaseSpec(model=text)
    where = f"pipeline {pipeline!r}, fusion {name!r}"
    models: list[str] = []
    opts: list[str] = []
    for item in rest.split(","):
        if "=" in item:
            opts.append(item)
        elif opts:
            raise PipelineNameError(f"{where}: model {item!r} after the options; write the "
                                    "models first, e.g. rrf:bm25,minilm,k=60")
        elif not item:
            raise PipelineNameError(f"{where}: empty model name in {rest!r}")
        else:
            models.append(item)
    if len(models) < 2:
        raise PipelineNameError(f"{where}: needs two or more models, e.g. {name}:bm25,minilm")
    options = _options(",".join(opts), where, FUSIONS[name]) if opts else ()
    return BaseSpec(fusion=name, models=tuple(models), options=options)


def _stage(text: str, pipeline: str) -> StageSpec:
    name, colon, rest = text.partition(":")
    known = ", ".join(sorted(STAGES))
    if not name:
        raise PipelineNameError(f"pipeline {pipeline!r}: empty stage (two '+' in a row or a "
                                f"trailing '+'); stages: {known}")
    if name not in STAGES:
        raise PipelineNameError(f"pipeline {pipeline!r}: unknown stage {name!r}; stages: "
                                f"{known}")
    where = f"pipeline {pipeline!r}, stage {name!r}"
    if colon and not rest:
        raise PipelineNameError(f"{where}: nothing after ':'; write {name}:key=value")
    return StageSpec(name, _options(rest, where, STAGES[name]) if colon else ())


def parse_pipeline(text: str) -> PipelineSpec:
    """The parsed form of a pipeline (or plain model) name.

    Raises :class:`PipelineNameError` (a ModelNotFoundError) naming the bad part and what
    exists. A plain model name (no ``+``, no fusion prefix) parses to a base with no stages
    and is not checked against the registry here.
    """
    if not isinstance(text, str) or not text:
        raise PipelineNameError("empty model or pipeline name")
    if ("+" not in text and text.partition(":")[0] not in FUSIONS) \
            or Path(text).expanduser().exists():
        return PipelineSpec(text, BaseSpec(model=text))   # any model name or path, as is
    if not _SAFE.fullmatch(text):
        bad = sorted({c for c in text if not _SAFE.fullmatch(c)})
        raise PipelineNameError(f"pipeline {text!r}: characters {''.join(bad)!r} are not "
                                "allowed (only letters, digits and _ - . / : , = + @ %)")
    base, *stages = text.split("+")
    return PipelineSpec(text, _base(base, text), tuple(_stage(s, text) for s in stages))
