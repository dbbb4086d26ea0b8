"""The nearest valid names to a mistyped one, for "did you mean …?" in every door's errors.

One helper over ``difflib`` for the CLI's options and commands, the MQSC verbs and object types, queue
managers, clusters and explain's nodes, so that every error that can point the way does it alike.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

CUTOFF = 0.6
"""difflib's default: below it a "match" is more likely a different name than a typing mistake."""
LONGEST = 256
"""Past this length a word is no mistyped name (MQ names are 48 characters, EMS ones 64)."""
MIN_PREFIX = 2
"""The shortest name taken as a prefix of another (one letter begins too many names)."""


def close_matches(word: str, candidates: Iterable[str], *, n: int = 3, cutoff: float = CUTOFF) -> list[str]:
    """Up to ``n`` candidates close to ``word``, closest first (compared without regard to case: MQ folds
    unquoted names to upper case, a user may type them in lower). A name that begins the other, or that
    the other begins, is close too however short (``EUROPE`` for the cluster ``EU``): a similarity ratio
    alone would miss the commonest mistake with short cluster and queue manager names."""
    if len(word) > LONGEST:
        return []  # nothing valid is near it; and difflib's cost grows with its length
    by_key: dict[str, str] = {}
    for candidate in sorted(set(candidates)):
        by_key.setdefault(candidate.upper(), candidate)
    key = word.upper()
    found = difflib.get_close_matches(key, list(by_key), n=n, cutoff=cutoff)
    if cutoff > 0 and len(found) < n and len(key) >= MIN_PREFIX:
        found += [
            c
            for c in sorted(by_key, key=lambda c: (-len(c), c))
            if c not in found and len(c) >= MIN_PREFIX and (key.startswith(c) or c.startswith(key))
        ][: n - len(found)]
    return [by_key[k] for k in found]


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
