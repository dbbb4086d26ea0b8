"""`topic match` and `selector test`: try a pattern or a selector before deploying it."""

from __future__ import annotations

from typing import Annotated

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import OUTPUT_OPTION, MessageHeaders, MessageProperties, Output, emit_json, hint
from mqctl.domain.model import Dialect

topic_app = sub_app(help="Topic strings and patterns.", no_args_is_help=True)
selector_app = sub_app(help="JMS message selectors.", no_args_is_help=True)


@topic_app.callback()
def topic_group() -> None:
    """Topic strings and patterns."""


@selector_app.callback()
def selector_group() -> None:
    """JMS message selectors."""


@topic_app.command("match")
def match(
    pattern: str = typer.Argument(..., metavar="PATTERN", help="Subscription pattern."),
    topic: str = typer.Argument(..., metavar="TOPIC", help="Concrete topic."),
    dialect: Dialect = typer.Option(
        Dialect.MQ, "--dialect", case_sensitive=False, help="mq ('/', '#', '+') or ems ('.', '*', '>')."
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Does PATTERN match TOPIC? Exit 0 match, 1 no match, 2 invalid input."""
    from mqctl.domain import topics

    topics.validate_pattern(pattern, dialect)
    topics.validate_topic(topic, dialect)
    result = topics.matches(pattern, topic, dialect)
    if dialect is Dialect.MQ and topics.looks_like_ems_pattern(pattern):
        hint(
            f"{pattern!r} looks like an EMS pattern ('.' between levels, '*' and '>' wildcards); in the MQ "
            "dialect '*' and '>' are literal: add --dialect ems"
        )
    if output is Output.json:
        emit_json({"pattern": pattern, "topic": topic, "dialect": str(dialect), "match": result})
    else:
        typer.echo("match" if result else "no match")
    if not result:
        raise typer.Exit(1)


@selector_app.command("test")
def test(
    expression: Annotated[
        str,
        typer.Argument(metavar="SELECTOR", help="The selector, e.g. \"country = 'USA' AND priority > 4\"."),
    ],
    prop: MessageProperties,
    header: MessageHeaders,
    output: Output = OUTPUT_OPTION,
) -> None:
    """Evaluate a selector against one message: TRUE exits 0, FALSE or UNKNOWN 1, a bad selector 2."""
    from mqctl.domain.messages import Message, parse_header, parse_property
    from mqctl.domain.selector import compile_selector

    selector = compile_selector(expression)
    properties = dict(parse_property(p) for p in prop)
    headers = dict(parse_header(h) for h in header)
    message = Message.create(properties, headers)
    result = selector.evaluate(message)
    text = "UNKNOWN" if result is None else ("TRUE" if result else "FALSE")
    if output is Output.json:
        emit_json(
            {
                "selector": expression,
                "result": result,
                "text": text,
                "properties": {k: {"type": v.type, "value": v.value} for k, v in sorted(properties.items())},
                "headers": {
                    k: {"type": v.type, "value": v.value} for k, v in sorted(message.headers.items())
                },
            }
        )
    else:
        typer.echo(text)
    if result is not True:
        raise typer.Exit(1)
