"""Unrendered placeholders: what kustomize, ``sed`` and Helm replace before anything is deployed.

A repository often holds templates (``__qmgrname__``, ``${ENV}``, ``$(VAR)``, ``{{ .Values.x }}``):
checked as they stand, their names and values would be validated as the literal text, so they are
refused in one line naming the first one and its place. MQ's own insert variables (``+QMNAME+``) are
not placeholders: the queue manager expands them (``formats.kube.qmini``, ``services.kube``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from mqctl.domain.errors import InputError, clip

PLACEHOLDER = re.compile(
    r"__[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*__"  # sed / kustomize-replacement style: __qmgrname__
    r"|\$\{[^}\n]{1,80}\}"  # ${VAR}, envsubst
    r"|\$\([A-Za-z_][A-Za-z0-9_]*\)"  # $(VAR), Kubernetes env expansion
    r"|\{\{[^\n]{0,200}?\}\}"  # {{ .Values.x }}, Helm / Go templates
)

Locate = Callable[[int, int], tuple[str, int, int]]
"""(line, column) in the text, 1-based -> (file, line, column) to name to the user."""


def find_placeholders(text: str, *, mqsc: bool = False) -> Iterator[tuple[str, int, int]]:
    """Each placeholder with its (line, column), 1-based; in MQSC (``mqsc``) comment lines are skipped."""
    for number, line in enumerate(text.splitlines(), start=1):
        if mqsc and line.startswith("*"):
            continue
        if "_" not in line and "$" not in line and "{" not in line:
            continue
        for match in PLACEHOLDER.finditer(line):
            yield match.group(0), number, match.start() + 1


def check_rendered(text: str, locate: Locate, *, mqsc: bool = False) -> None:
    """Refuse ``text`` holding a placeholder: ``unrendered placeholder __qmgrname__ at f.mqsc:3:22``."""
    for found, line, column in find_placeholders(text, mqsc=mqsc):
        file, at_line, at_column = locate(line, column)
        raise InputError(
            f"unrendered placeholder {clip(found)} at {file}:{at_line}:{at_column}: render with kustomize or helm first"
        )
