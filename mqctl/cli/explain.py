"""`mqctl explain`: where one publication goes, hop by hop, and why each other subscriber misses it.

Parses the question, calls ``services.explain`` (a dry run over the model), renders the answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import MessageHeaders, MessageProperties, emit_json, hint, store_url
from mqctl.cli.pictures import ExplainOutput, emit_diagram

app = sub_app()

if TYPE_CHECKING:
    from mqctl.domain.explanation import Failures, Publication
    from mqctl.services.explain import Explained


def _pairs(values: list[str], option: str, what: str) -> list[tuple[str, str]]:
    from mqctl.domain.errors import InputError

    out = []
    for value in values:
        left, sep, right = value.partition(":")
        if not sep or not left or not right:
            raise InputError(f"{value!r} is not {what}", attribute=option)
        out.append((left, right))
    return out


def _failures(down: list[str], link_down: list[str], offline: list[str]) -> Failures:
    from mqctl.domain.explanation import Failures

    return Failures(
        down=frozenset(down),
        links_down=frozenset(frozenset(p) for p in _pairs(link_down, "--link-down", "NODE:NODE")),
        offline=frozenset(_pairs(offline, "--offline", "NODE:SUB")),
    )


@app.command("explain")
def explain_command(
    from_node: Annotated[
        str, typer.Option("--from", metavar="NODE", help="The publisher's queue manager or EMS server.")
    ],
    topic: Annotated[str, typer.Option("--topic", metavar="TOPIC", help="The concrete topic published on.")],
    prop: MessageProperties,
    header: MessageHeaders,
    down: list[str] = typer.Option([], "--down", metavar="NODE", help="A node that is down (repeatable)."),
    link_down: list[str] = typer.Option(
        [], "--link-down", metavar="A:B", help="A link that is down (repeatable)."
    ),
    offline: list[str] = typer.Option(
        [], "--offline", metavar="NODE:SUB", help="A subscriber that is offline (repeatable)."
    ),
    observed: bool = typer.Option(
        False,
        "--observed",
        help="Channels observed not RUNNING and hierarchy relations not ACTIVE (import display) are links down.",
    ),
    output: ExplainOutput = typer.Option(
        ExplainOutput.table,
        "--output",
        "-o",
        case_sensitive=False,
        help="table (a tree) for people, json for programs, mermaid or dot for a diagram.",
    ),
) -> None:
    """Explain how one publication routes (dry run: nothing is sent anywhere)."""
    from mqctl.services.explain import explain_publication

    _check_names(from_node, topic, down, link_down, offline)
    publication = _publication(from_node, topic, prop, header)
    explained = explain_publication(
        store_url(), publication, _failures(down, link_down, offline), observed=observed
    )
    for text in explained.hints:
        hint(text)
    _show(explained, output, observed)


def _check_names(
    from_node: str, topic: str, down: list[str], link_down: list[str], offline: list[str]
) -> None:
    """Every name given is text, and ``--from`` and ``--down`` name a node: checked before any of them
    is looked up in the store."""
    from mqctl.domain.errors import InputError
    from mqctl.domain.valid_text import check_text

    for option, values in (
        ("--from", [from_node]),
        ("--topic", [topic]),
        ("--down", down),
        ("--link-down", link_down),
        ("--offline", offline),
    ):
        for value in values:
            check_text(value, attribute=option)
            if option in ("--from", "--down") and not value.strip():  # `--down=`: no name, not a node
                raise InputError(f"{option} needs a node name")


def _publication(from_node: str, topic: str, prop: list[str], header: list[str]) -> Publication:
    """The publication asked about: its properties typed, its headers as a message built from them has."""
    from mqctl.domain.explanation import Publication
    from mqctl.domain.messages import Message, parse_header, parse_property

    properties = dict(parse_property(p) for p in prop)
    headers = dict(Message.create(properties, dict(parse_header(h) for h in header)).headers)
    return Publication(from_node, topic, properties, headers)


def _show(explained: Explained, output: ExplainOutput, observed: bool) -> None:
    """The answer as a tree (with the links ``--observed`` found down), JSON or a diagram."""
    result, topology, failures, notes = (
        explained.result,
        explained.topology,
        explained.failures,
        explained.notes,
    )
    if output is ExplainOutput.json:
        emit_json({**result.to_json(), "observed_links_down": notes} if observed else result.to_json())
    elif output is ExplainOutput.table:
        from mqctl.render.explain_tree import render

        render(result, topology, failures)
        for note in notes:
            typer.echo(f"observed: link {' - '.join(note['link'])} down: {note['observation']}")
    else:
        from mqctl.render.journey import journey_diagram

        emit_diagram(journey_diagram(result, failures, topology), output)
