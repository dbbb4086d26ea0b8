"""The output sanitiser's Rich half: text from the input in Rich markup or a table cell, never read as
markup (a value's ``[bold]`` restyles nothing, its ``[/]`` stops nothing), its controls escaped.

The pure half (``safe``, ``shorten``, ``json_text``, ``error_line``) is ``mqctl.text``, which every
layer may import; it is re-exported here for the renderers that import it from here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mqctl.text import NAME_LIMIT, error_line, json_text, safe, shorten

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["error_line", "json_text", "markup", "safe", "shorten", "text"]


def markup(value: str, *, limit: int | None = NAME_LIMIT) -> str:
    """``value`` for a Rich markup string: escaped, cut, and its brackets never read as markup."""
    from rich.markup import escape

    shown = safe(value)
    return escape(shorten(shown, limit) if limit is not None else shown)


def text(value: str, *, limit: int | None = None) -> Text:
    """``value`` as a Rich ``Text`` (a table cell): escaped, optionally cut, never read as markup."""
    from rich.text import Text

    shown = safe(value)
    return Text(shorten(shown, limit) if limit is not None else shown)
