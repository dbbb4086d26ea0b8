"""topic (MQ topic object or EMS topic definition) and sub commands."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import (
    OUTPUT_OPTION,
    Output,
    done,
    hint,
    no_match_exit,
    parse_props,
    reading,
    show_table,
    show_tuples,
    transaction,
)
from mqctl.domain.objects import attributes

NODE_OPT = typer.Option(
    ..., "--qmgr", "-m", "--server", metavar="NODE", help="The queue manager or EMS server."
)
NODE_FILTER = typer.Option(
    None, "--qmgr", "-m", "--server", metavar="NODE", help="Only objects on this queue manager or server."
)


def _enumerated(table: tuple[attributes.Attribute, ...]) -> tuple[attributes.Attribute, ...]:
    return tuple(a for a in table if a.enum is not None and a.command)


def _options(enumerated: tuple[attributes.Attribute, ...]) -> dict[str, Any]:
    return {
        a.field: typer.Option(f"--{a.field}", metavar="|".join(a.enum or ()), help=f"{a.keyword}.")
        for a in enumerated
    }


ENUMERATED = _enumerated(attributes.TOPIC)
"""The topic attributes with values to choose from (CLROUTE, WILDCARD, ...): one option each, written
here once from the attribute table for ``define topic`` (with the table's default) and ``alter topic``."""
TOPIC_OPTIONS = _options(ENUMERATED)
DEFAULT = {a.field: str(a.default) for a in ENUMERATED}
SUB_ENUMERATED = _enumerated(attributes.SUB)
"""The same for ``define sub`` (SUBSCOPE, WSCHEMA); ``alter sub`` takes them only to refuse them."""
SUB_OPTIONS = _options(SUB_ENUMERATED)
SUB_DEFAULT = {a.field: str(a.default) for a in SUB_ENUMERATED}
PROP_HELP = "EMS property: global, maxbytes=1GB, ... (repeatable)."


def _typed(name: str, values: dict[str, str | None], kind: str, what: str) -> dict[str, Any]:
    """Option values -> typed attribute changes: the enumerations of ``kind``'s attribute table
    (``domain.objects.attributes``), case-insensitive, with MQSC names in errors."""
    from mqctl.domain.objects import attributes
    from mqctl.domain.objects.text import parse_enum

    enums = attributes.enums(getattr(attributes, kind))
    changes: dict[str, Any] = {}
    for key, value in values.items():
        if value is None:
            continue
        enum = enums.get(key)
        changes[key] = value if enum is None else parse_enum(enum, value, f"{what} {name}", key.upper())
    return changes


@define_app.command("topic")
def define_topic(
    name: str = typer.Argument(
        ..., metavar="NAME", help="Topic object name (EMS: the topic pattern, e.g. 'market.fx.*')."
    ),
    qmgr: str = NODE_OPT,
    topicstr: str | None = typer.Option(
        None, "--topicstr", metavar="TOPIC", help="TOPICSTR (EMS: defaults to the name)."
    ),
    cluster: str = typer.Option(
        "", "--cluster", metavar="CLUSTER", help="CLUSTER: share the object with this cluster."
    ),
    clroute: Annotated[str, TOPIC_OPTIONS["clroute"]] = DEFAULT["clroute"],
    wildcard: Annotated[str, TOPIC_OPTIONS["wildcard"]] = DEFAULT["wildcard"],
    pubscope: Annotated[str, TOPIC_OPTIONS["pubscope"]] = DEFAULT["pubscope"],
    subscope: Annotated[str, TOPIC_OPTIONS["subscope"]] = DEFAULT["subscope"],
    proxysub: Annotated[str, TOPIC_OPTIONS["proxysub"]] = DEFAULT["proxysub"],
    pub: Annotated[str, TOPIC_OPTIONS["pub"]] = DEFAULT["pub"],
    sub: Annotated[str, TOPIC_OPTIONS["sub"]] = DEFAULT["sub"],
    descr: str = typer.Option("", "--descr", metavar="TEXT", help="DESCR (at most 64 characters)."),
    prop: list[str] = typer.Option([], "--prop", metavar="NAME[=VALUE]", help=PROP_HELP),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists (MQSC REPLACE)."),
) -> None:
    """Define a topic object (MQ) or topic definition (EMS)."""
    from mqctl.domain.model import TopicObject
    from mqctl.services.objects import define_topic as define

    given = locals()
    attrs = _typed(name, {a.field: given[a.field] for a in ENUMERATED}, "TOPIC", "topic")
    obj = TopicObject(
        node=qmgr,
        name=name,
        topicstr=topicstr if topicstr is not None else "",
        cluster=cluster,
        descr=descr,
        properties=parse_props(prop, f"topic {name}"),
        **attrs,
    )
    with transaction() as store:
        notes = define(store, obj, replace=replace)
    for note in notes:
        hint(note)
    done(f"topic {name} defined on {qmgr}.")


@alter_app.command("topic")
def alter_topic(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = NODE_OPT,
    topicstr: str | None = typer.Option(None, "--topicstr", hidden=True),
    cluster: str | None = typer.Option(
        None, "--cluster", metavar="CLUSTER", help="CLUSTER; '' removes it from its cluster."
    ),
    clroute: Annotated[str | None, TOPIC_OPTIONS["clroute"]] = None,
    wildcard: Annotated[str | None, TOPIC_OPTIONS["wildcard"]] = None,
    pubscope: Annotated[str | None, TOPIC_OPTIONS["pubscope"]] = None,
    subscope: Annotated[str | None, TOPIC_OPTIONS["subscope"]] = None,
    proxysub: Annotated[str | None, TOPIC_OPTIONS["proxysub"]] = None,
    pub: Annotated[str | None, TOPIC_OPTIONS["pub"]] = None,
    sub: Annotated[str | None, TOPIC_OPTIONS["sub"]] = None,
    descr: str | None = typer.Option(None, "--descr", metavar="TEXT", help="DESCR."),
    prop: list[str] = typer.Option([], "--prop", metavar="NAME[=VALUE]", help="EMS: add or set a property."),
    remove_prop: list[str] = typer.Option(
        [], "--remove-prop", metavar="NAME", help="EMS: remove a property."
    ),
) -> None:
    """Alter a topic object; only the given attributes change (TOPICSTR cannot change, as in MQ)."""
    from mqctl.domain.objects.topic_objects import check_alterable
    from mqctl.services.objects import alter_topic as alter

    if topicstr is not None:
        check_alterable(name, ["TOPICSTR"])
    given = locals()
    fields = ("cluster", *(a.field for a in ENUMERATED), "descr")
    changes = _typed(name, {f: given[f] for f in fields}, "TOPIC", "topic")
    props = parse_props(prop, f"topic {name}")
    with transaction() as store:
        notes = alter(store, qmgr, name, changes, set_props=props, remove_props=remove_prop)
    for note in notes:
        hint(note)
    done(f"topic {name} altered on {qmgr}.")


@display_app.command("topic")
def display_topic(
    name: str = typer.Argument("*", metavar="[NAME]", help="Name; a trailing * is generic."),
    qmgr: str | None = NODE_FILTER,
    exact: bool = typer.Option(
        False, "--exact", help="Take a trailing * literally (EMS names like market.fx.*)."
    ),
    every: bool = typer.Option(
        False, "--all", help="A column per attribute (the table shows those not at their default)."
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display topic objects: the MQSC attributes not at their default (every one with --all)."""
    from mqctl.services.views import TOPIC_TABLE, TOPIC_TABLE_ALL, display_topics, topic_table

    with reading() as store:  # the effective values are JSON's only: the table has no column for them
        if output is Output.json:
            rows: Sequence[Any] = display_topics(store, name, exact, qmgr)
        else:
            rows = topic_table(store, name, exact, qmgr, every=every)
    if output is Output.json:  # every attribute, --all or not (docs/cli.md)
        show_table("Topics", TOPIC_TABLE, rows, output)
    else:
        show_tuples("Topics", TOPIC_TABLE_ALL if every else TOPIC_TABLE, rows)
    no_match_exit(rows)


@delete_app.command("topic")
def delete_topic(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = NODE_OPT,
) -> None:
    """Delete a topic object; subscriptions naming it (TOPICOBJ) keep their topic string, as in MQ."""
    from mqctl.services.objects import delete_topic as delete

    with transaction() as store:
        delete(store, qmgr, name)
    done(f"topic {name} deleted from {qmgr}.")


@define_app.command("sub")
def define_sub(
    name: str = typer.Argument(
        ..., metavar="NAME", help="Subscription name (MQ: SUBNAME; EMS: durable name)."
    ),
    qmgr: str = NODE_OPT,
    topicstr: str = typer.Option(
        "",
        "--topicstr",
        metavar="PATTERN",
        help="Topic pattern (MQ '#','+'; EMS '*','>'); with --topicobj, the part after the object's.",
    ),
    selector: str | None = typer.Option(None, "--selector", metavar="SELECTOR", help="JMS message selector."),
    durable: bool | None = typer.Option(
        None, "--durable/--non-durable", help="Default: durable on MQ, non-durable on EMS."
    ),
    subscope: Annotated[str, SUB_OPTIONS["subscope"]] = SUB_DEFAULT["subscope"],
    wschema: Annotated[str, SUB_OPTIONS["wschema"]] = SUB_DEFAULT["wschema"],
    dest: str = typer.Option("", "--dest", metavar="QUEUE", help="DEST queue."),
    destqmgr: str = typer.Option("", "--destqmgr", metavar="QMGR", help="DESTQMGR."),
    topicobj: str = typer.Option(
        "", "--topicobj", metavar="TOPIC", help="TOPICOBJ (its TOPICSTR prefixes --topicstr)."
    ),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists (MQSC REPLACE)."),
) -> None:
    """Define a subscription."""
    from mqctl.domain.model import Subscription
    from mqctl.services.objects import define_sub as define

    given = locals()
    attrs = _typed(name, {a.field: given[a.field] for a in SUB_ENUMERATED}, "SUB", "sub")
    sub = Subscription(
        node=qmgr,
        name=name,
        topicstr=topicstr,
        selector=selector or None,
        durable=bool(durable),
        dest=dest,
        destqmgr=destqmgr,
        topicobj=topicobj,
        **attrs,
    )
    with transaction() as store:
        define(store, sub, replace=replace, dialect_durable=durable is None)
    done(f"sub {name} defined on {qmgr}.")


@alter_app.command("sub")
def alter_sub(
    name: str = typer.Argument(..., metavar="NAME"),
    qmgr: str = NODE_OPT,
    topicstr: str | None = typer.Option(None, "--topicstr", hidden=True),
    selector: str | None = typer.Option(None, "--selector", hidden=True),
    subscope: str | None = typer.Option(None, "--subscope", hidden=True),
    wschema: str | None = typer.Option(None, "--wschema", hidden=True),
    durable: bool | None = typer.Option(None, "--durable/--non-durable", help="Durable or not."),
    dest: str | None = typer.Option(None, "--dest", metavar="QUEUE", help="DEST queue."),
    destqmgr: str | None = typer.Option(None, "--destqmgr", metavar="QMGR", help="DESTQMGR."),
) -> None:
    """Alter a subscription; only the given attributes change (TOPICSTR, SELECTOR, SUBSCOPE and WSCHEMA
    cannot change, as in MQ: delete the subscription and define it again)."""
    from mqctl.domain.objects.subscriptions import check_alterable
    from mqctl.services.objects import alter_sub as alter

    fixed = {"topicstr": topicstr, "selector": selector, "subscope": subscope, "wschema": wschema}
    check_alterable(name, [key for key, value in fixed.items() if value is not None])
    changes: dict[str, Any] = {
        key: value
        for key, value in {"durable": durable, "dest": dest, "destqmgr": destqmgr}.items()
        if value is not None
    }
    with transaction() as store:
        alter(store, qmgr, name, changes)
    done(f"sub {name} altered on {qmgr}.")


@display_app.command("sub")
def display_sub(
    name: str = typer.Argument("*", metavar="[NAME]", help="Name; a trailing * is generic."),
    qmgr: str | None = NODE_FILTER,
    exact: bool = typer.Option(False, "--exact", help="Take a trailing * literally."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display subscriptions."""
    from mqctl.services.views import display_subscriptions

    with reading() as store:
        rows = display_subscriptions(store, name, exact, qmgr)
    show_table("Subscriptions", ["qmgr", "name", "topicstr", "selector", "durable", "subscope"], rows, output)
    no_match_exit(rows)


@delete_app.command("sub")
def delete_sub(name: str = typer.Argument(..., metavar="NAME"), qmgr: str = NODE_OPT) -> None:
    """Delete a subscription."""
    from mqctl.services.objects import delete_sub as delete

    with transaction() as store:
        delete(store, qmgr, name)
    done(f"sub {name} deleted from {qmgr}.")
