"""JMS message selectors (Jakarta Messaging 3 / JMS 1.1 SQL-92 subset), compiled once to closures.

`compile_selector(text)` parses, type-checks literal operands (rejecting `p > 'foo'`, `TRUE = 0`, ... as the
TCK requires) and returns a `Selector` whose `evaluate` is three-valued and whose `matches` is true only
for TRUE, and whose `identifiers` are the property and header names it reads. Never evaluated with Python
`eval`; see docs/selectors.md for the language and its choices.
"""

from __future__ import annotations

from functools import lru_cache

from mqctl.domain.messages import Message
from mqctl.domain.selector.errors import SelectorError
from mqctl.domain.selector.evaluate import Cond, build
from mqctl.domain.selector.parser import MAX_SELECTOR_LENGTH, identifiers, parse
from mqctl.domain.selector.typecheck import check

__all__ = ["MAX_SELECTOR_LENGTH", "Selector", "SelectorError", "check_selector", "compile_selector"]


class Selector:
    """A compiled selector; immutable, shareable across threads, picklable (recompiled from its text).

    ``identifiers`` holds every property and header name the selector reads, so that a caller can key
    messages by only those (two messages that agree on them get the same verdict).
    """

    __slots__ = ("text", "identifiers", "_cond")

    def __init__(self, text: str, cond: Cond, identifiers: frozenset[str] = frozenset()) -> None:
        self.text = text
        self.identifiers = identifiers
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
    return Selector(text, build(tree), identifiers(tree))


def check_selector(text: str) -> None:
    """Raise SelectorError (with its column) unless TEXT is a valid selector."""
    compile_selector(text)
