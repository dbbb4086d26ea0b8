"""JMS message selectors (Jakarta Messaging 3 / JMS 1.1 SQL-92 subset), compiled once to closures.

`compile_selector(text)` parses, type-checks literal operands (rejecting `p > 'foo'`, `TRUE = 0`, ... as the
TCK requires) and returns a `Selector` whose `evaluate` is three-valued and whose `matches` is true only
for TRUE. Never evaluated with Python `eval`; see docs/selectors.md for the language and its choices.
"""

from __future__ import annotations

from functools import lru_cache

from mqctl.domain.messages import Message
from mqctl.domain.selector.errors import SelectorError
from mqctl.domain.selector.evaluate import Cond, build
from mqctl.domain.selector.parser import parse
from mqctl.domain.selector.typecheck import check

__all__ = ["Selector", "SelectorError", "check_selector", "compile_selector"]


class Selector:
    """A compiled selector; immutable, shareable across threads, picklable (recompiled from its text)."""

    __slots__ = ("text", "_cond")

    def __init__(self, text: str, cond: Cond) -> None:
        self.text = text
        self._cond = cond

    def evaluate(self, message: Message) -> bool | None:
        """True, False, or None for UNKNOWN (a NULL or mismatched operand decided the result)."""
        return self._cond(message)

    def matches(self, message: Message) -> bool:
        """Whether the message is selected: only TRUE selects, UNKNOWN does not."""
        return self._cond(message) is True

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (compile_selector, (self.text,))

    def __repr__(self) -> str:
        return f"Selector({self.text!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Selector) and other.text == self.text

    def __hash__(self) -> int:
        return hash(self.text)


@lru_cache(maxsize=4096)
def compile_selector(text: str) -> Selector:
    """Parse, type-check and compile TEXT; an empty or blank selector selects everything."""
    tree = parse(text)
    check(tree, text)
    return Selector(text, build(tree))


def check_selector(text: str) -> None:
    """Raise SelectorError (with its column) unless TEXT is a valid selector."""
    compile_selector(text)
