"""What applying an admin script did (runmqsc or tibemsadmin): its output, counts and errors."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from mqctl.domain.errors import InputError


@dataclass
class ScriptRun:
    lines: list[str] = field(default_factory=list)
    """The output, as the product's own tool prints it (each command echoed, then its result)."""
    read: int = 0
    processed: int = 0
    not_modelled: int = 0
    skipped: int = 0
    """Commands skipped with a warning (an MQSC insert with no value)."""
    unmodelled: Counter[str] = field(default_factory=Counter)
    """What was read and not modelled, by name: skipped commands (``DEFINE QLOCAL``) and accepted but
    ignored attributes (``NPMSGDLV on TOPIC``)."""
    failed: int = 0
    errors: list[InputError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    applied: bool = False
    """True when the state was changed (no error, or ``continue_on_error``)."""

    @property
    def first_error(self) -> InputError | None:
        return self.errors[0] if self.errors else None

    @property
    def attributes_not_modelled(self) -> int:
        """Attributes read and ignored (``NPMSGDLV on TOPIC``): the named ones that are not skipped
        commands, so the counts printed add up to what ``unmodelled_text`` names."""
        return sum(n for name, n in self.unmodelled.items() if " on " in name)

    def unmodelled_text(self) -> str:
        """``DEFINE QLOCAL (3), NPMSGDLV on TOPIC (2)``: most frequent first."""
        return ", ".join(
            f"{name} ({n})" for name, n in sorted(self.unmodelled.items(), key=lambda x: (-x[1], x[0]))
        )


def counted(n: int, noun: str) -> str:
    """``1 command``, ``3 commands``: a count and its noun, singular for one."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
