"""An interactive runmqsc session: each command its own unit of work, and the names completion offers.

The session (``cli/runmqsc_prompt``) reads one command at a time; this applies it as a one-command
script (all or nothing, as ``mqctl runmqsc QMGR FILE`` applies a whole file) and reads back the object
names the next command may complete, from the model as it now is.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from mqctl.domain.model import Dialect
from mqctl.formats.mqsc.vocabulary import (
    CHANNEL_IGNORED,
    CHANNEL_MODELLED,
    COMMON,
    DELETE_KEYWORDS,
    DISPLAY_OPTIONS,
    NAMELIST_IGNORED,
    NAMELIST_MODELLED,
    NOUNS,
    QMGR_MODELLED,
    SUB_IGNORED,
    SUB_MODELLED,
    TOPIC_IGNORED,
    TOPIC_MODELLED,
    VERBS,
)

if TYPE_CHECKING:
    from mqctl.services.file_doors import FileResult
    from mqctl.store.repository import Store

PROMPT_FILE = "<prompt>"
"""How errors name a command typed at the prompt (``<prompt>:LINE:COL``, the line within the command)."""

CHANGES: dict[str, frozenset[str]] = {
    "TOPIC": TOPIC_MODELLED | TOPIC_IGNORED | COMMON,
    "SUB": SUB_MODELLED | SUB_IGNORED | COMMON,
    "NAMELIST": NAMELIST_MODELLED | NAMELIST_IGNORED | COMMON,
    "CHANNEL": CHANNEL_MODELLED | CHANNEL_IGNORED | COMMON,
    "QMGR": QMGR_MODELLED | frozenset({"FORCE"}),
}
"""What DEFINE and ALTER take after each object type (what the runmqsc door accepts for it)."""
KEYWORDS: dict[str, dict[str, frozenset[str]]] = {
    "DEFINE": CHANGES,
    "ALTER": CHANGES,
    "DELETE": DELETE_KEYWORDS,
    # DISPLAY names attributes (every one the door knows) and its own selecting parameters
    "DISPLAY": {noun: keywords | DISPLAY_OPTIONS for noun, keywords in CHANGES.items()},
}
"""The keywords completion offers after each verb and object type: never one the verb refuses (a
DISPLAY-only WHERE after DEFINE)."""
WORDS = {"verbs": sorted(set(VERBS.values())), "nouns": sorted(NOUNS)}


def keywords_after(noun: str, verb: str) -> list[str]:
    """The keywords ``verb`` (``DEFINE``, ``DEF``, ...) takes after the object type ``noun`` (``TOPIC``,
    ``SUB(S1)``, an abbreviation such as ``NL``); none for a verb mqctl does not model."""
    by_noun = KEYWORDS.get(VERBS.get(verb.upper(), ""), {})
    return sorted(by_noun.get(NOUNS.get(noun.split("(")[0].upper(), ""), frozenset()))


def run_command(
    store: Store, qmgr: str, text: str, *, inserts: Mapping[str, str], create: bool
) -> FileResult:
    """One command typed at the prompt, applied as a one-command script (refused whole on an error)."""
    from mqctl.services.runmqsc import runmqsc

    return runmqsc(
        store, qmgr, text, file=PROMPT_FILE, inserts=inserts, create=create, continue_on_error=False
    )


def object_names(store: Store, qmgr: str) -> dict[str, list[str]]:
    """What ``NOUN(`` completes to on ``qmgr``: its topic objects, subscriptions, namelists, channels, and
    every cluster of the store (``CLUSTER(``); empty lists for a queue manager not defined yet."""
    ref = store.node(qmgr)
    clusters = sorted({name for name, _descr, _seq in _clusters(store)})
    if ref is None or ref.node.dialect is not Dialect.MQ:
        return {"TOPIC": [], "SUB": [], "NAMELIST": [], "CHANNEL": [], "CLUSTER": clusters}
    state = store.load_node_state(ref)
    return {
        "TOPIC": sorted(state.topics),
        "SUB": sorted(state.subscriptions),
        "NAMELIST": sorted(state.namelists),
        "CHANNEL": sorted(state.channels),
        "CLUSTER": clusters,
    }


def _clusters(store: Store) -> list[tuple[str, str, int]]:
    return store.clusters()


def start_session(store: Store, qmgr: str, *, create: bool) -> dict[str, list[str]]:
    """Check the queue manager as runmqsc does when it starts (it must exist unless ``create``), and
    return the names completion offers."""
    from mqctl.domain.errors import InputError, NotFoundError
    from mqctl.domain.names import check_mq_name

    check_mq_name(qmgr, "qmgr")
    ref = store.node(qmgr)
    if ref is None and not create:
        raise NotFoundError("does not exist (give --create to define it)", obj=f"qmgr {qmgr}")
    if ref is not None and ref.node.dialect is not Dialect.MQ:
        raise InputError("is an EMS server: use `mqctl tibemsadmin`", obj=f"server {qmgr}")
    return object_names(store, qmgr)


def session_summary(runs: list[FileResult]) -> list[str]:
    """runmqsc's closing lines for the whole session, counting every command typed."""
    from mqctl.formats.mqsc.apply import MqscRun, summary

    total = MqscRun(applied=True)
    for result in runs:
        run = result.run
        total.read += run.read
        total.processed += run.processed
        total.not_modelled += run.not_modelled
        total.skipped += run.skipped
        total.failed += run.failed
        total.unmodelled.update(run.unmodelled)
        if isinstance(run, MqscRun):
            total.syntax_errors += run.syntax_errors
    return summary(total)
