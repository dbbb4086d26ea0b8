"""The attribute table (``domain.objects.attributes``) is the one list of each kind's attributes: every
place that spells them out agrees with it, so an attribute added in one place only fails here."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from mqctl.domain.model import (
    Channel,
    ChannelType,
    ClRoute,
    Direction,
    Enablement,
    Namelist,
    Node,
    NodeState,
    ProxySub,
    Route,
    RouteSelector,
    Scope,
    SubScope,
    Subscription,
    SubType,
    TopicObject,
    Wildcard,
    WSchema,
    ZoneType,
)
from mqctl.domain.objects import attributes
from mqctl.domain.objects.attributes import BOOKKEEPING, TABLES, Attribute
from mqctl.formats import snapshot_schema
from mqctl.formats.mqsc import display, vocabulary
from mqctl.formats.mqsc.writer import write_mqsc
from mqctl.store import tables

KINDS = list(TABLES.items())
STORE = {
    TopicObject: tables.topics,
    Subscription: tables.subscriptions,
    Channel: tables.channels,
    Namelist: tables.namelists,
    Node: tables.nodes,
    Route: tables.routes,
    RouteSelector: tables.route_selectors,
}
SNAPSHOT = {
    TopicObject: "topics",
    Subscription: "subscriptions",
    Channel: "channels",
    Namelist: "namelists",
    Node: "nodes",
    Route: "routes",
    RouteSelector: "route_selectors",
}
MQSC_MODELLED = {
    TopicObject: vocabulary.TOPIC_MODELLED,
    Subscription: vocabulary.SUB_MODELLED,
    Channel: vocabulary.CHANNEL_MODELLED,
    Namelist: vocabulary.NAMELIST_MODELLED,
    Node: vocabulary.QMGR_MODELLED,
}


def ids(kind: Any) -> str:
    return str(kind[0].__name__)


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_the_model_holds_exactly_the_table(kind: tuple[type, tuple[Attribute, ...]]) -> None:
    cls, table = kind
    fields = {f.name: f for f in dataclasses.fields(cls)}
    assert {f for f in fields if f not in BOOKKEEPING} == {a.field for a in table}, cls.__name__
    for attr in table:
        field = fields[attr.field]
        if field.default is not dataclasses.MISSING:
            assert field.default == attr.default, (cls.__name__, attr.field)


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_the_store_and_the_snapshot_have_a_column_for_each_attribute(
    kind: tuple[type, tuple[Attribute, ...]],
) -> None:
    cls, table = kind
    columns = set(STORE[cls].c.keys())
    snapshot = set(snapshot_schema.SCHEMAS[SNAPSHOT[cls]].names)
    for attr in table:
        assert attr.field in columns, (STORE[cls].name, attr.field)
        if (cls, attr.field) == (Node, "parent"):  # a snapshot keeps the hierarchy links in a table
            assert "parent" in snapshot_schema.SCHEMAS["hierarchy"].names
            continue
        assert attr.field in snapshot, (SNAPSHOT[cls], attr.field)


@pytest.mark.parametrize("kind", [k for k in KINDS if k[0] in MQSC_MODELLED], ids=ids)
def test_mqsc_knows_each_keyword(kind: tuple[type, tuple[Attribute, ...]]) -> None:
    cls, table = kind
    assert attributes.keywords(table) <= MQSC_MODELLED[cls]


def _not_default() -> NodeState:
    """A queue manager whose every attribute is off its default, so writers and DISPLAY must show it."""
    state = NodeState(node=Node("QM1", psmode="COMPAT", psclus="DISABLED", descr="d", parent="QM0"))
    state.topics["T"] = TopicObject(
        "QM1",
        "T",
        "/a",
        cluster="CL1",
        clroute=ClRoute.TOPICHOST,
        wildcard=Wildcard.BLOCK,
        pubscope=Scope.QMGR,
        subscope=Scope.ALL,
        proxysub=ProxySub.FORCE,
        pub=Enablement.DISABLED,
        sub=Enablement.ENABLED,
        descr="d",
    )
    state.subscriptions["S"] = Subscription(
        "QM1",
        "S",
        "/a/#",
        selector="x > 1",
        subscope=SubScope.QMGR,
        wschema=WSchema.CHAR,
        dest="Q",
        destqmgr="QMX",
        topicobj="T",
        subid="414D5120514D312020202020202020203D7C2A6720001F05",
    )
    state.namelists["NL"] = Namelist("QM1", "NL", ("CL1", "CL2"), descr="d")
    state.channels["C"] = Channel(
        "QM1",
        "C",
        ChannelType.CLUSSDR,
        clusnl="NL",
        conname="h(1)",
        descr="d",
        clwlrank=1,
        clwlprty=2,
        clwlwght=3,
    )
    return state


@pytest.mark.parametrize(
    ("cls", "noun"),
    [(TopicObject, "TOPIC"), (Subscription, "SUB"), (Channel, "CHANNEL"), (Namelist, "NAMELIST")],
)
def test_the_mqsc_writer_writes_each_attribute(cls: type, noun: str) -> None:
    script = write_mqsc(_not_default())
    block = script[script.index(f"DEFINE {noun}(") :].split("REPLACE", 1)[0]
    for attr in TABLES[cls]:
        if attr.command:
            assert f"{attr.keyword}(" in block, (noun, attr.keyword)


def test_display_shows_each_attribute() -> None:
    state = _not_default()
    shown = {
        TopicObject: dict(display.topic_pairs(state.topics["T"])),
        Subscription: dict(display.sub_pairs(state.subscriptions["S"])),
        Channel: dict(display.channel_pairs(state.channels["C"])),
        Namelist: dict(display.namelist_pairs(state.namelists["NL"])),
        Node: dict(display.qmgr_pairs(state)),
    }
    for cls, pairs in shown.items():
        for attr in TABLES[cls]:
            assert attr.keyword in pairs, (cls.__name__, attr.keyword)


def test_each_enumeration_lists_the_values_of_its_model_class() -> None:
    for table in TABLES.values():
        for attr in table:
            if attr.enum is not None and attr.default is not None:
                assert isinstance(attr.default, attr.enum), attr
    assert attributes.enums(attributes.ROUTE) == {"zone_type": ZoneType}
    assert attributes.enums(attributes.ROUTE_SELECTOR) == {"direction": Direction}


def test_the_shell_offers_an_option_for_each_topic_sub_and_channel_attribute() -> None:
    for command, fields in _shell_commands(TABLES):
        for field in fields:
            assert field in _options(command), (command.__name__, field)


def _off_default(attr: Attribute) -> tuple[str, str]:
    """A value of ``attr`` other than its default: (as the shell takes it, as JSON shows it)."""
    enum = attr.enum
    if enum is not None:
        value = next(str(m) for m in enum if m != attr.default)
        return value.lower(), value
    if attr.field == "cluster":
        return "CL1", "CL1"
    if attr.field == "topicstr":
        return "/a/b", "/a/b"
    return "x", "x"


def test_display_topic_json_shows_every_attribute_of_the_table(cli: Any) -> None:
    """Through the CLI: each attribute of the topic table, set off its default by the shell, is shown as
    stored, and each one routing reads (TOPICSTR aside) is shown as MQ makes it effective."""
    assert cli("define", "qmgr", "QM1", "--cluster", "CL1").exit_code == 0
    args: list[str] = []
    shown: dict[str, str] = {}
    for attr in attributes.TOPIC:
        given, shown[attr.field] = _off_default(attr)
        args += [f"--{attr.field}", given]
    result = cli("define", "topic", "T", "--qmgr", "QM1", *args)
    assert result.exit_code == 0, result.stderr
    result = cli("display", "topic", "T", "-o", "json")
    assert result.exit_code == 0, result.stderr
    (item,) = json.loads(result.stdout)
    assert {k: item[k] for k in shown} == shown
    effective = item["effective"]
    for attr in attributes.TOPIC:
        if attr.routing and attr.field != "topicstr":
            assert attr.field in effective, attr.field
    assert effective["object"] == "T" and effective["cluster_point"] == "T"
    assert effective["hosts"] == ["QM1"] and effective["wildcard"] == shown["wildcard"]
    assert effective["proxysub"] == shown["proxysub"]


def test_display_sub_shows_the_subtype_held() -> None:
    """SUBTYPE is the subscription's (a captured API subscription is not shown as ADMIN)."""
    api = Subscription("QM1", "S", "/a", subtype=SubType.API)
    assert dict(display.sub_pairs(api))["SUBTYPE"] == "API"
    assert dict(display.sub_pairs(Subscription("QM1", "S", "/a")))["SUBTYPE"] == "ADMIN"


def test_display_sub_shows_the_subid_after_the_name_when_known() -> None:
    """MQ assigns SUBID: one from a capture is shown again, right after SUB; the model makes none up."""
    subid = "414D5120514D312020202020202020203D7C2A6720001F05"
    shown = display.sub_pairs(Subscription("QM1", "S", "/a", subid=subid))
    assert shown[:2] == [("SUB", "S"), ("SUBID", subid)]
    assert "SUBID" not in dict(display.sub_pairs(Subscription("QM1", "S", "/a")))


def test_a_layout_names_only_the_table_and_shows_the_rest_after() -> None:
    extra = (*attributes.TOPIC, Attribute("colour", "COLOUR", str, ""))
    out = attributes.laid_out(extra, ("DESCR", "TOPICSTR"))
    assert [a.keyword for a in out][:2] == ["DESCR", "TOPICSTR"]
    assert [a.keyword for a in out][-1] == "COLOUR" and len(out) == len(extra)
    with pytest.raises(KeyError, match="COLOUR"):
        attributes.laid_out(attributes.TOPIC, ("COLOUR",))


def test_the_store_codec_refuses_a_model_out_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """The converters take each attribute from the table: a field the table lacks, or an attribute the
    model lacks, stops the codec from being built."""
    from mqctl.store.convert import Codec

    assert Codec(TopicObject, tables.topics).fields[1:11] == [a.field for a in attributes.TOPIC]
    monkeypatch.setitem(TABLES, TopicObject, attributes.TOPIC[:-1])
    with pytest.raises(TypeError, match="descr"):
        Codec(TopicObject, tables.topics)
    monkeypatch.setitem(TABLES, TopicObject, (*attributes.TOPIC, Attribute("colour", "COLOUR", str, "")))
    with pytest.raises(TypeError, match="colour"):
        Codec(TopicObject, tables.topics)


# --- each consumer's attributes are the table's: one added in one place only fails here ----------------

INDEX_COLUMNS = {"id", "node_id", "route_id", "name_key", "topicstr_key", "prefix_key", "topic_key"}
"""Columns the store adds for its keys and indexes (digests of long keys), not attributes."""


@pytest.mark.parametrize("kind", KINDS, ids=ids)
def test_the_store_and_the_snapshot_have_no_column_beyond_the_table(
    kind: tuple[type, tuple[Attribute, ...]],
) -> None:
    cls, table = kind
    fields = {a.field for a in table}
    assert set(STORE[cls].c.keys()) - INDEX_COLUMNS - BOOKKEEPING == fields, STORE[cls].name
    snapshot = set(snapshot_schema.SCHEMAS[SNAPSHOT[cls]].names) - BOOKKEEPING
    assert snapshot == fields - ({"parent"} if cls is Node else set()), SNAPSHOT[cls]


NOT_ATTRIBUTES = {"name", "qmgr", "prop", "remove_prop", "replace"}
"""The shell's parameters that are not attributes: keys, EMS properties, REPLACE."""


def _options(command: Any) -> set[str]:
    """The attributes a command of the shell takes (its Typer signature's parameters)."""
    params = set(command.__code__.co_varnames[: command.__code__.co_argcount])
    return params - NOT_ATTRIBUTES


def _shell_commands(table: dict[type, tuple[Attribute, ...]]) -> list[tuple[Any, set[str]]]:
    """Each define/alter command of the shell with the attributes of ``table`` it must take."""
    from mqctl.cli import mqobjects, topics
    from mqctl.cli.main import app  # noqa: F401  (registers the commands)

    def fields(cls: type) -> set[str]:
        return {a.field for a in table[cls]}

    # a define makes an ADMIN subscription, and MQ gives the SUBID
    sub = fields(Subscription) - {"subtype", "subid"}
    return [
        (topics.define_topic, fields(TopicObject)),
        (topics.alter_topic, fields(TopicObject)),
        (topics.define_sub, sub),
        (topics.alter_sub, sub - {"topicobj"}),  # a subscription keeps its TOPICOBJ
        (mqobjects.define_channel, fields(Channel)),
        (mqobjects.alter_channel, fields(Channel) - {"chltype"}),  # a channel keeps its CHLTYPE
    ]


def test_a_define_of_the_shell_defaults_each_attribute_as_the_table() -> None:
    """An option not given takes the table's default (Typer's defaults are static, as its signatures)."""
    from mqctl.cli import mqobjects, nodes, topics
    from mqctl.cli.main import app  # noqa: F401  (registers the commands)

    apart = {
        ("define_topic", "topicstr"),  # none given: EMS takes the name, MQ refuses it
        ("define_sub", "durable"),  # none given: durable on MQ, non-durable on EMS
        ("define_channel", "chltype"),  # required
    }
    checked = 0
    for command, table in (
        (topics.define_topic, attributes.TOPIC),
        (topics.define_sub, attributes.SUB),
        (mqobjects.define_channel, attributes.CHANNEL),
        (mqobjects.define_namelist, attributes.NAMELIST),
        (nodes.define_qmgr, attributes.NODE),
    ):
        params = {p.name: p for p in _click_params(command)}
        for attr in table:
            if attr.field not in params or (command.__name__, attr.field) in apart:
                continue
            default = attr.default
            expected = list(default) if isinstance(default, tuple) else default
            assert params[attr.field].default == expected, (command.__name__, attr.field)
            checked += 1
    assert checked == 29


def test_the_shell_offers_no_attribute_beyond_the_table() -> None:
    """The CLI's Typer signatures are static: each option of an attribute is held to the table."""
    for command, fields in _shell_commands(TABLES):
        assert _options(command) == fields, command.__name__


def test_the_read_models_and_the_tree_view_show_the_table() -> None:
    from mqctl.domain import tree_view
    from mqctl.domain.resolution import Resolution
    from mqctl.store import read_models

    def fields(table: tuple[Attribute, ...]) -> list[str]:
        return [a.field for a in table]

    assert list(read_models.MQ_TOPIC_KEYS) == fields(attributes.TOPIC)
    assert [*read_models.MQ_SUB_KEYS, *read_models.SUB_FLAGS] == [
        f for f in fields(attributes.SUB) if f != "durable"
    ] + ["durable"]
    assert {"cluster", *read_models.CHANNEL_KEYS} == set(fields(attributes.CHANNEL))
    assert list(tree_view.OBJECT_KEYS) == [a.field for a in attributes.TOPIC if a.enum is not None]
    assert list(tree_view.SUBSCRIPTION_KEYS) == [a.field for a in attributes.SUB if a.routing]
    routing = {a.field for a in attributes.TOPIC if a.routing} - {"topicstr"}
    assert routing <= set(tree_view.EFFECTIVE_KEYS)
    assert routing <= {f.name for f in dataclasses.fields(Resolution)}


def test_the_mqsc_writer_and_display_lay_out_exactly_the_table() -> None:
    from mqctl.formats.mqsc import writer

    def keywords(laid: tuple[Attribute, ...]) -> list[str]:
        return sorted(a.keyword for a in laid)

    for laid, table in (
        (writer.TOPIC_ATTRS, attributes.TOPIC),
        (writer.SUB_ATTRS, attributes.SUB),
        (writer.NAMELIST_ATTRS, attributes.NAMELIST),
        (writer.CHANNEL_ATTRS, attributes.CHANNEL),
        (writer.QMGR_ATTRS, attributes.NODE),
        (display.TOPIC_SHOWN, attributes.TOPIC),
        (display.SUB_SHOWN, attributes.SUB),
        (display.NAMELIST_SHOWN, attributes.NAMELIST),
        (display.CHANNEL_SHOWN, attributes.CHANNEL),
        (display.QMGR_SHOWN, attributes.NODE),
    ):
        assert keywords(laid) == keywords(table)


def test_an_attribute_added_to_the_table_is_written_shown_and_read() -> None:
    """A fake attribute on a copy of the table: the writer, DISPLAY, the read models and the tree view's
    JSON take it from the table with no list of their own to edit."""
    from mqctl.formats.mqsc import writer
    from mqctl.store import read_models

    colour = Attribute("colour", "COLOUR", Wildcard, Wildcard.PASSTHRU, routing=True)
    table = (*attributes.TOPIC, colour)
    fake = dataclasses.make_dataclass(
        "Coloured", [("colour", Wildcard, Wildcard.PASSTHRU)], bases=(TopicObject,)
    )
    obj = fake("QM1", "T", "/a", colour=Wildcard.BLOCK)
    layout = ("TOPICSTR", "DESCR")
    assert writer.keyword_items(obj, attributes.laid_out(table, layout))[-1] == "COLOUR(BLOCK)"
    assert display._pairs(obj, attributes.laid_out(table, layout))[-1] == ("COLOUR", "BLOCK")
    row = {a.field: str(getattr(obj, a.field)) for a in table}
    assert read_models._attrs(row, table)["colour"] == "BLOCK"
    assert "colour" in attributes.enums(table) and "COLOUR" in attributes.keywords(table)


def test_reconcile_compares_every_attribute_routing_reads() -> None:
    """DISPLAY TCLUSTER against the model: the topic attributes routing reads, from the table."""
    from mqctl.domain import reconcile

    routing = [a for a in attributes.TOPIC if a.routing]
    assert list(reconcile.COMPARED) == routing
    topic = TopicObject("QM1", "T", "a/b", cluster="CL1")
    assert reconcile._model_values(topic) == {a.keyword: str(getattr(topic, a.field)) for a in routing}


def test_reconcile_compares_what_tpstatus_shows_of_the_attributes_routing_reads() -> None:
    """DISPLAY TPSTATUS of the members of a cluster, against each other: the enumerated topic attributes
    routing reads, from the table, but WILDCARD and PROXYSUB, which TPSTATUS does not show (IBM's MQSC
    reference). One the table gains is compared, or named there, once this fails."""
    from mqctl.domain import reconcile

    assert list(reconcile._RESOLVED) == ["CLROUTE", "PUBSCOPE", "SUBSCOPE", "PUB", "SUB"]


def test_psmode_and_psclus_values_are_spelt_once() -> None:
    """The domain's rule, the store's CHECK, the MQSC reader and the shell take them from the table, and
    the table from the model's ``PS_*``: no other module spells them (nor ENABLED/DISABLED of PUB/SUB)."""
    from mqctl.cli import nodes as cli_nodes
    from mqctl.domain.objects import nodes
    from mqctl.formats.mqsc import clusters as mqsc_qmgr

    for field, values in (("psmode", attributes.PSMODES), ("psclus", attributes.PSCLUS)):
        assert values == attributes.attribute(attributes.NODE, field).choices
        check = next(c for c in tables.nodes.constraints if f"{field} IN" in str(getattr(c, "sqltext", "")))
        assert all(f"'{v}'" in str(check.sqltext) for v in values)
    assert (nodes.PSMODES, nodes.PSCLUS) == (attributes.PSMODES, attributes.PSCLUS)
    assert {a.keyword for a in mqsc_qmgr.QMGR_ATTRIBUTES} == {a.keyword for a in attributes.NODE} - {"PARENT"}
    metavars = {
        p.opts[0]: p.metavar
        for p in _click_params(cli_nodes.define_qmgr)
        if p.opts[0] in ("--psmode", "--psclus")
    }
    assert metavars == {"--psmode": "|".join(attributes.PSMODES), "--psclus": "|".join(attributes.PSCLUS)}
    defaults = {p.opts[0]: p.default for p in _click_params(cli_nodes.define_qmgr)}
    assert defaults["--psmode"] == attributes.attribute(attributes.NODE, "psmode").default
    assert defaults["--psclus"] == attributes.attribute(attributes.NODE, "psclus").default
    assert _spelt({*attributes.PSMODES, *attributes.PSCLUS}) == ["mqctl/domain/model.py"]


def _spelt(words: set[str]) -> list[str]:
    """The modules of mqctl that hold one of ``words`` as a string literal of its own (not a part of a
    message)."""
    import ast
    from pathlib import Path

    import mqctl

    root = Path(mqctl.__file__).parent
    found = set()
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and node.value in words:
                found.add(path.relative_to(root.parent).as_posix())
    return sorted(found)


def _click_params(command: Any) -> list[Any]:
    import typer.main

    return typer.main.get_params_convertors_ctx_param_name_from_function(command)[0]


def test_alter_qmgr_reads_each_qmgr_attribute_of_the_table() -> None:
    from mqctl.formats.mqsc import apply_mqsc

    for attr in attributes.NODE:
        if attr.field == "parent":
            continue
        value = attr.choices[-1] if attr.choices else "X"  # unquoted: MQSC folds it to upper case
        state = NodeState(Node("QM1"))
        run = apply_mqsc(
            state, f"ALTER QMGR {attr.keyword}({value})\n", file=None, inserts={}, next_seq=lambda: 1
        )
        assert run.error_count == 0 and getattr(state.node, attr.field) == value, attr.keyword
        bad = apply_mqsc(
            NodeState(Node("QM1")),
            f"ALTER QMGR {attr.keyword}(BOGUS)\n",
            file=None,
            inserts={},
            next_seq=lambda: 1,
        )
        assert (bad.error_count == 1) is bool(attr.choices), attr.keyword


def test_the_topic_options_of_define_and_alter_are_the_table_s() -> None:
    """One option per enumerated topic attribute, written once: its values, its keyword, its default."""
    from mqctl.cli import topics as cli_topics

    enumerated = [a for a in attributes.TOPIC if a.enum is not None]
    assert list(cli_topics.ENUMERATED) == enumerated
    for command, defaults in ((cli_topics.define_topic, True), (cli_topics.alter_topic, False)):
        params = {p.name: p for p in _click_params(command)}
        for attr in enumerated:
            param = params[attr.field]
            assert param.metavar == "|".join(attr.enum or ()) and param.help == f"{attr.keyword}."
            assert param.default == (str(attr.default) if defaults else None), (command.__name__, attr.field)


# --- an attribute added to a copy of the SUB and CHANNEL tables reaches each part that lists them --------

COLOUR = Attribute("colour", "COLOUR", Wildcard, Wildcard.PASSTHRU)
"""A fake attribute (an enumeration, which an ALTER may change)."""


def _coloured(monkeypatch: pytest.MonkeyPatch, cls: type) -> tuple[tuple[Attribute, ...], type]:
    """``cls``'s table with COLOUR, in place of the table (and what the MQSC handlers, the writer and
    DISPLAY derive from it when imported, derived again the same way); and a model class with a
    ``colour`` field."""
    from functools import cache

    from mqctl.domain.objects import edits
    from mqctl.formats.mqsc import clusters, topics, writer
    from mqctl.formats.mqsc.values import alike
    from mqctl.formats.mqsc.vocabulary import CHANNEL_IGNORED, COMMON, SUB_IGNORED

    table = (*TABLES[cls], COLOUR)
    monkeypatch.setitem(TABLES, cls, table)
    monkeypatch.setattr(edits, "alterable", cache(edits.alterable.__wrapped__))  # a cache of its own
    if cls is Subscription:
        monkeypatch.setattr(topics, "SUB_KEYWORDS", attributes.keywords(table) | SUB_IGNORED | COMMON)
        monkeypatch.setattr(topics, "SUB_MUTABLE", topics.sub_attributes(table)[1])
        monkeypatch.setattr(writer, "SUB_ATTRS", attributes.laid_out(table, writer.SUB_ORDER))
        monkeypatch.setattr(display, "SUB_SHOWN", attributes.laid_out(table, display.SUB_ORDER))
    else:
        monkeypatch.setattr(
            clusters, "CHANNEL_KEYWORDS", attributes.keywords(table) | CHANNEL_IGNORED | COMMON
        )
        monkeypatch.setattr(clusters, "CHANNEL_ATTRIBUTES", alike(table, clusters.CHANNEL_APART))
        monkeypatch.setattr(writer, "CHANNEL_ATTRS", table)
        monkeypatch.setattr(display, "CHANNEL_SHOWN", attributes.laid_out(table, display.CHANNEL_ORDER))
    fake = dataclasses.make_dataclass(
        f"Coloured{cls.__name__}", [("colour", Wildcard, Wildcard.PASSTHRU)], bases=(cls,)
    )
    return table, fake


@pytest.mark.parametrize(("cls", "noun"), [(Subscription, "SUB"), (Channel, "CHANNEL")])
def test_an_attribute_added_to_the_sub_or_channel_table_is_read_written_shown_and_held(
    monkeypatch: pytest.MonkeyPatch, cls: type, noun: str
) -> None:
    """COLOUR added to a copy of the table: ALTER reads it (the handler's keywords and its loop are the
    table's), ``export mqsc`` writes it and DISPLAY shows it (and can filter on it) with no list of their
    own to edit. The shell's options are Typer signatures, static: the table's test names the option
    missing. Reconcile compares no attribute of a subscription or a channel (a captured subscription is a
    definition, ``import display``; a channel is seen by its status), so there is nothing there to reach."""
    from mqctl.cli import topics as cli_topics
    from mqctl.domain import reconcile
    from mqctl.formats.mqsc import apply_mqsc

    table, fake = _coloured(monkeypatch, cls)
    state = _not_default()
    kept = "subscriptions" if cls is Subscription else "channels"
    name = next(iter(getattr(state, kept)))
    getattr(state, kept)[name] = fake(**dataclasses.asdict(getattr(state, kept)[name]))
    run = apply_mqsc(
        state, f"ALTER {noun}({name}) COLOUR(block)\n", file=None, inserts={}, next_seq=lambda: 9
    )
    altered = getattr(state, kept)[name]
    assert run.error_count == 0 and altered.colour is Wildcard.BLOCK

    script = write_mqsc(state)
    block = script[script.index(f"DEFINE {noun}(") :].split("REPLACE", 1)[0]
    assert "COLOUR(BLOCK)" in block
    pairs = display.sub_pairs(altered) if cls is Subscription else display.channel_pairs(altered)
    assert pairs[-1] == ("COLOUR", "BLOCK")
    assert display._kinds(table)["COLOUR"].choices == tuple(m.value for m in Wildcard)  # WHERE(COLOUR EQ …)

    missing = {command.__name__: fields - _options(command) for command, fields in _shell_commands(TABLES)}
    wanted = {"define_sub", "alter_sub"} if cls is Subscription else {"define_channel", "alter_channel"}
    assert {c: m for c, m in missing.items() if m} == dict.fromkeys(wanted, {"colour"})
    if cls is Subscription:  # an enumeration's option, once added to define sub, comes from the table
        option = cli_topics._options(cli_topics._enumerated(table))["colour"]
        assert option.metavar == "PASSTHRU|BLOCK" and option.help == "COLOUR."
    assert {a.field for a in reconcile.COMPARED} <= {a.field for a in attributes.TOPIC}


def test_import_display_reads_back_each_attribute_display_shows(cli: Any, tmp_path: Any) -> None:
    """DISPLAY SUB, TOPIC and QMGR of a queue manager whose every attribute is off its default, read back
    by ``import display``: each attribute of the tables comes back as it was, so an attribute DISPLAY
    gains from the table and the capture reader does not read fails here."""
    state = _not_default()
    sub, topic = state.subscriptions["S"], state.topics["T"]
    answers = [
        ("DISPLAY SUB(*) ALL", display._HEADERS["SUB"], display.sub_pairs(sub)),
        ("DISPLAY TOPIC(*) ALL", display._HEADERS["TOPIC"], display.topic_pairs(topic)),
        ("DISPLAY QMGR ALL", display._HEADERS["QMGR"], display.qmgr_pairs(state)),
    ]
    lines = ["5724-H72 (C) Copyright IBM Corp. 1994, 2025.", "Starting MQSC for queue manager QM1.", "", ""]
    for number, (command, header, pairs) in enumerate(answers, 1):
        lines += [f"{number:>6} : {command}", header, *display.layout(pairs)]
    lines += [
        "3 MQSC commands read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]
    capture = tmp_path / "QM1.txt"
    capture.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for args in (("define", "qmgr", "QM0"), ("define", "qmgr", "QM1"), ("import", "display", str(capture))):
        result = cli(*args)
        assert result.exit_code == 0, result.stderr
    for noun, obj in (("sub", sub), ("topic", topic), ("qmgr", state.node)):
        result = cli("display", noun, obj.name, "-o", "json")
        assert result.exit_code == 0, result.stderr
        (item,) = json.loads(result.stdout)
        for attr in TABLES[type(obj)]:
            value = getattr(obj, attr.field)
            assert item[attr.field] == (list(value) if isinstance(value, tuple) else value), (
                noun,
                attr.field,
            )
