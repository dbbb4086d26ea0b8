"""topic (MQ topic object or EMS topic definition) and sub commands."""

from __future__ import annotations

from typing import Any

import typer

from mqctl.cli.apps import alter_app, define_app, delete_app, display_app
from mqctl.cli.common import OUTPUT_OPTION, Output, done, no_match_exit, parse_props, show_table, transaction

NODE_OPT = typer.Option(..., "--qmgr", "-m", "--server", help="The queue manager or EMS server.")
NODE_FILTER = typer.Option(None, "--qmgr", "-m", "--server", help="Only objects on this node.")
TOPIC_ENUMS = {
    "clroute": "ClRoute",
    "wildcard": "Wildcard",
    "pubscope": "Scope",
    "subscope": "Scope",
    "proxysub": "ProxySub",
    "pub": "Enablement",
    "sub": "Enablement",
}


def _topic_changes(name: str, values: dict[str, str | None]) -> dict[str, Any]:
    """Option values -> typed attribute changes (case-insensitive enums, MQSC names in errors)."""
    from mqctl.domain import model
    from mqctl.domain.checks import parse_enum

    changes: dict[str, Any] = {}
    for key, value in values.items():
        if value is None:
            continue
        if key in TOPIC_ENUMS:
            changes[key] = parse_enum(getattr(model, TOPIC_ENUMS[key]), value, f"topic {name}", key.upper())
        else:
            changes[key] = value
    return changes


@define_app.command("topic")
def define_topic(
    name: str = typer.Argument(..., help="Topic object name (EMS: the topic pattern, e.g. 'market.fx.*')."),
    qmgr: str = NODE_OPT,
    topicstr: str | None = typer.Option(None, "--topicstr", help="TOPICSTR (EMS: defaults to the name)."),
    cluster: str = typer.Option("", "--cluster", help="CLUSTER: share the object with this cluster."),
    clroute: str = typer.Option("DIRECT", "--clroute", help="CLROUTE: direct|topichost."),
    wildcard: str = typer.Option("PASSTHRU", "--wildcard", help="WILDCARD: passthru|block."),
    pubscope: str = typer.Option("ASPARENT", "--pubscope", help="PUBSCOPE: all|qmgr|asparent."),
    subscope: str = typer.Option("ASPARENT", "--subscope", help="SUBSCOPE: all|qmgr|asparent."),
    proxysub: str = typer.Option("FIRSTUSE", "--proxysub", help="PROXYSUB: firstuse|force."),
    pub: str = typer.Option("ASPARENT", "--pub", help="PUB: enabled|disabled|asparent."),
    sub: str = typer.Option("ASPARENT", "--sub", help="SUB: enabled|disabled|asparent."),
    descr: str = typer.Option("", "--descr", help="DESCR."),
    prop: list[str] = typer.Option(
        [], "--prop", help="EMS property: global, maxbytes=1GB, ... (repeatable)."
    ),
    replace: bool = typer.Option(False, "--replace", help="Redefine if it exists (MQSC REPLACE)."),
) -> None:
    """Define a topic object (MQ) or topic definition (EMS)."""
    from mqctl.domain.model import TopicObject
    from mqctl.services.objects import define_object

    attrs = _topic_changes(
        name,
        {
            "clroute": clroute,
            "wildcard": wildcard,
            "pubscope": pubscope,
            "subscope": subscope,
            "proxysub": proxysub,
            "pub": pub,
            "sub": sub,
        },
    )
    obj = TopicObject(
        node=qmgr,
        name=name,
        topicstr=name if topicstr is None else topicstr,
        cluster=cluster,
        descr=descr,
        properties=parse_props(prop, f"topic {name}"),
        **attrs,
    )
    with transaction() as repo:
        if topicstr is None and repo.require_node(qmgr).dialect == "mq":
            from mqctl.domain.errors import InputError

            raise InputError("is required for an MQ topic object", obj=f"topic {name}", attribute="TOPICSTR")
        define_object(repo, qmgr, "topics", name, obj, replace=replace)
    done(f"topic {name} defined on {qmgr}.")


@alter_app.command("topic")
def alter_topic(
    name: str = typer.Argument(...),
    qmgr: str = NODE_OPT,
    topicstr: str | None = typer.Option(None, "--topicstr"),
    cluster: str | None = typer.Option(None, "--cluster", help="'' removes it from its cluster."),
    clroute: str | None = typer.Option(None, "--clroute"),
    wildcard: str | None = typer.Option(None, "--wildcard"),
    pubscope: str | None = typer.Option(None, "--pubscope"),
    subscope: str | None = typer.Option(None, "--subscope"),
    proxysub: str | None = typer.Option(None, "--proxysub"),
    pub: str | None = typer.Option(None, "--pub"),
    sub: str | None = typer.Option(None, "--sub"),
    descr: str | None = typer.Option(None, "--descr"),
    prop: list[str] = typer.Option([], "--prop", help="EMS: add or set a property."),
    remove_prop: list[str] = typer.Option([], "--remove-prop", help="EMS: remove a property."),
) -> None:
    """Alter a topic object; only the given attributes change."""
    from mqctl.services.objects import alter_object

    changes = _topic_changes(
        name,
        {
            "topicstr": topicstr,
            "cluster": cluster,
            "clroute": clroute,
            "wildcard": wildcard,
            "pubscope": pubscope,
            "subscope": subscope,
            "proxysub": proxysub,
            "pub": pub,
            "sub": sub,
            "descr": descr,
        },
    )
    with transaction() as repo:
        if prop or remove_prop:
            state = repo.load_node_state(qmgr)
            old = state.topics.get(name)
            props = dict(old.properties) if old is not None else {}
            props.update(parse_props(prop, f"topic {name}"))
            for key in remove_prop:
                props.pop(key, None)
            changes["properties"] = props
        alter_object(repo, qmgr, "topics", name, changes)
    done(f"topic {name} altered on {qmgr}.")


@display_app.command("topic")
def display_topic(
    name: str = typer.Argument("*", help="Name; a trailing * is generic."),
    qmgr: str | None = NODE_FILTER,
    exact: bool = typer.Option(
        False, "--exact", help="Take a trailing * literally (EMS names like market.fx.*)."
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display topic objects."""
    from mqctl.services.display import display_topics

    with transaction() as repo:
        rows = display_topics(repo, name, exact, qmgr)
    show_table(
        "Topics", ["qmgr", "name", "topicstr", "cluster", "clroute", "wildcard", "properties"], rows, output
    )
    no_match_exit(rows)


@delete_app.command("topic")
def delete_topic(
    name: str = typer.Argument(...),
    qmgr: str = NODE_OPT,
    cascade: bool = typer.Option(False, "--cascade", help="Also delete subscriptions naming it (TOPICOBJ)."),
) -> None:
    """Delete a topic object."""
    from mqctl.services.objects import delete_object

    with transaction() as repo:
        delete_object(repo, qmgr, "topics", name, cascade=cascade)
    done(f"topic {name} deleted from {qmgr}.")


@define_app.command("sub")
def define_sub(
    name: str = typer.Argument(..., help="Subscription name (MQ: SUBNAME; EMS: durable name)."),
    qmgr: str = NODE_OPT,
    topicstr: str = typer.Option(..., "--topicstr", help="Topic pattern (MQ '#','+'; EMS '*','>')."),
    selector: str | None = typer.Option(None, "--selector", help="JMS message selector."),
    durable: bool | None = typer.Option(
        None, "--durable/--non-durable", help="Default: durable on MQ, non-durable on EMS."
    ),
    subscope: str = typer.Option("ALL", "--subscope", help="SUBSCOPE: all|qmgr."),
    wschema: str = typer.Option("TOPIC", "--wschema", help="WSCHEMA: topic|char."),
    dest: str = typer.Option("", "--dest", help="DEST queue."),
    destqmgr: str = typer.Option("", "--destqmgr", help="DESTQMGR."),
    topicobj: str = typer.Option("", "--topicobj", help="TOPICOBJ (its TOPICSTR prefixes --topicstr)."),
    replace: bool = typer.Option(False, "--replace"),
) -> None:
    """Define a subscription."""
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import Dialect, SubScope, Subscription, WSchema
    from mqctl.services.objects import define_object

    obj = f"sub {name}"
    with transaction() as repo:
        dialect = Dialect(repo.require_node(qmgr).dialect)
        full_topic = topicstr
        if topicobj:
            state = repo.load_node_state(qmgr)
            base = state.topics.get(topicobj)
            if base is None:
                from mqctl.domain.errors import NotFoundError

                raise NotFoundError(
                    f"topic object {topicobj} is not defined on {qmgr}", obj=obj, attribute="TOPICOBJ"
                )
            full_topic = f"{base.topicstr}/{topicstr}" if topicstr else base.topicstr
        sub = Subscription(
            node=qmgr,
            name=name,
            topicstr=full_topic,
            selector=selector or None,
            durable=(dialect is Dialect.MQ) if durable is None else durable,
            subscope=parse_enum(SubScope, subscope, obj, "SUBSCOPE"),
            wschema=parse_enum(WSchema, wschema, obj, "WSCHEMA"),
            dest=dest,
            destqmgr=destqmgr,
            topicobj=topicobj,
        )
        define_object(repo, qmgr, "subscriptions", name, sub, replace=replace)
    done(f"sub {name} defined on {qmgr}.")


@alter_app.command("sub")
def alter_sub(
    name: str = typer.Argument(...),
    qmgr: str = NODE_OPT,
    topicstr: str | None = typer.Option(None, "--topicstr"),
    selector: str | None = typer.Option(None, "--selector", help="'' removes the selector."),
    durable: bool | None = typer.Option(None, "--durable/--non-durable"),
    subscope: str | None = typer.Option(None, "--subscope"),
    wschema: str | None = typer.Option(None, "--wschema"),
    dest: str | None = typer.Option(None, "--dest"),
    destqmgr: str | None = typer.Option(None, "--destqmgr"),
) -> None:
    """Alter a subscription; only the given attributes change."""
    from mqctl.domain.checks import parse_enum
    from mqctl.domain.model import SubScope, WSchema
    from mqctl.services.objects import alter_object

    obj = f"sub {name}"
    changes: dict[str, Any] = {}
    if topicstr is not None:
        changes["topicstr"] = topicstr
    if selector is not None:
        changes["selector"] = selector or None
    if durable is not None:
        changes["durable"] = durable
    if subscope is not None:
        changes["subscope"] = parse_enum(SubScope, subscope, obj, "SUBSCOPE")
    if wschema is not None:
        changes["wschema"] = parse_enum(WSchema, wschema, obj, "WSCHEMA")
    if dest is not None:
        changes["dest"] = dest
    if destqmgr is not None:
        changes["destqmgr"] = destqmgr
    with transaction() as repo:
        alter_object(repo, qmgr, "subscriptions", name, changes)
    done(f"sub {name} altered on {qmgr}.")


@display_app.command("sub")
def display_sub(
    name: str = typer.Argument("*"),
    qmgr: str | None = NODE_FILTER,
    exact: bool = typer.Option(False, "--exact"),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Display subscriptions."""
    from mqctl.services.display import display_subscriptions

    with transaction() as repo:
        rows = display_subscriptions(repo, name, exact, qmgr)
    show_table("Subscriptions", ["qmgr", "name", "topicstr", "selector", "durable", "subscope"], rows, output)
    no_match_exit(rows)


@delete_app.command("sub")
def delete_sub(name: str = typer.Argument(...), qmgr: str = NODE_OPT) -> None:
    """Delete a subscription."""
    from mqctl.services.objects import delete_object

    with transaction() as repo:
        delete_object(repo, qmgr, "subscriptions", name, cascade=False)
    done(f"sub {name} deleted from {qmgr}.")
