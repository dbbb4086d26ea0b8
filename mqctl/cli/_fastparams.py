"""Parameter values without pydantic, for the parameter types whose values click already delivers.

Typer 0.29 coerces every parameter value through a pydantic ``TypeAdapter``: the first option read imports
pydantic and builds adapters, 60-100 ms of every command - a third of `mqctl explain` on a small store.
mqctl's options are mostly ``str``, ``str | None``, ``list[str]``, ``bool`` and ``StrEnum`` choices: click
hands over exactly those values, so the coercion is an identity (or ``list()``, or the enum lookup).
``install`` makes Typer use such a plain coercion for those types when the value is already right, and
Typer's own (pydantic) coercion in every other case - other types, and wrong values, so error messages
stay Typer's. If Typer's internals are not the expected ones, nothing is changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

_PLAIN: tuple[Any, ...] = (str, str | None)


def _plain_value(annotation: Any, value: Any) -> tuple[bool, Any]:
    """(True, coerced) when ``value`` needs no pydantic for ``annotation``, else (False, None)."""
    if annotation in _PLAIN:
        return (True, value) if isinstance(value, str) else (False, None)
    if annotation is bool:
        return (True, value) if isinstance(value, bool) else (False, None)
    if annotation == list[str]:
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return True, list(value)
        return False, None
    if isinstance(annotation, type) and issubclass(annotation, StrEnum):
        if isinstance(value, annotation):
            return True, value
        if isinstance(value, str) and value in annotation._value2member_map_:
            return True, annotation(value)
    return False, None


def _handled(annotation: Any) -> bool:
    return (
        annotation in _PLAIN
        or annotation is bool
        or annotation == list[str]
        or (isinstance(annotation, type) and issubclass(annotation, StrEnum))
    )


def install() -> None:
    """Route Typer's coercion of the plain parameter types through ``_plain_value`` (see the module doc)."""
    try:
        from typer import _coercion, core

        base = _coercion.RuntimeParam
        original = core.build_runtime_param
    except (ImportError, AttributeError):
        return
    if getattr(original, "_mqctl_plain", False):
        return

    @dataclass(frozen=True)
    class PlainRuntimeParam(base):  # type: ignore[misc, valid-type]
        descriptor: Any

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            ok, coerced = _plain_value(self.annotation, value)
            if ok:
                return coerced
            return original(self.descriptor)._coerce_value(value, param=param, ctx=ctx)

    def build(descriptor: Any) -> Any:
        info = descriptor.parameter_info
        custom = getattr(info, "parser", None) or getattr(info, "click_type", None)
        if descriptor.file_annotation is None and not custom and _handled(descriptor.annotation):
            return PlainRuntimeParam(
                parameter_info=info, annotation=descriptor.annotation, descriptor=descriptor
            )
        return original(descriptor)

    build._mqctl_plain = True  # type: ignore[attr-defined]
    core.build_runtime_param = build
