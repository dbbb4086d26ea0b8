"""The nearest valid names to a mistyped one, for "did you mean …?" in every door's errors.

One helper over ``difflib`` for the CLI's options and commands, the MQSC verbs and object types, queue
managers, clusters and explain's nodes, so that every error that can point the way does it alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6
"""difflib's default: below it a "match" is more likely a different name than a typing mistake."""


def close_matches(word: str, candidates: Iterable[str], *, n: int = 3, cutoff: float = CUTOFF) -> list[str]:
    """Up to ``n`` candidates close to ``word``, closest first (compared without regard to case: MQ folds
    unquoted names to upper case, a user may type them in lower)."""
    by_key: dict[str, str] = {}
    for candidate in sorted(set(candidates)):
        by_key.setdefault(candidate.upper(), candidate)
    found = difflib.get_close_matches(word.upper(), list(by_key), n=n, cutoff=cutoff)
    return [by_key[key] for key in found]


def nearest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate closest to ``word``, however far (a hint beats a bare "no": the CLI's options)."""
    found = close_matches(word, candidates, n=1, cutoff=0.0)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str], *, cutoff: float = CUTOFF) -> str:
    """``"; did you mean EU?"`` (``"; did you mean A, B or C?"``), or ``""`` when nothing is close."""
    near = close_matches(word, candidates, cutoff=cutoff)
    if not near:
        return ""
    return f"; did you mean {', '.join(near[:-1]) + ' or ' if near[1:] else ''}{near[-1]}?"
