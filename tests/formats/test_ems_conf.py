"""EMS configuration files: the corpus servers, errors with positions, tibemsd.json, round trips."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.domain.file_values import check_ems_name, check_ems_value
from mqctl.domain.model import (
    Dialect,
    Direction,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
    ZoneType,
)
from mqctl.domain.names import check_ems_server_name
from mqctl.domain.topics import validate_pattern
from mqctl.formats.ems import read_server, write_durables_conf, write_routes_conf, write_topics_conf
from mqctl.formats.ems.writer import ROUTE_KEYS
from tests.conftest import needs_shared
from tests.helpers import without_sources

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "ems"
SERVERS = sorted(CORPUS.glob("*/*/tibemsd.conf")) if CORPUS.is_dir() else []
needs_corpus = needs_shared("corpus", "ems")


@needs_corpus
@pytest.mark.parametrize("tibemsd", SERVERS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_every_corpus_server_reads_through_its_tibemsd(tibemsd: Path) -> None:
    config = read_server(tibemsd)
    assert config.name == tibemsd.parent.name
    assert config.state.node.dialect is Dialect.EMS
    assert config.state.topics and config.state.routes
    assert config.peers >= set(config.state.routes)


@needs_corpus
def test_orders_central_details() -> None:
    ord_ = read_server(CORPUS / "orders-central" / "ORD" / "tibemsd.conf")
    assert ord_.state.topics["orders"].properties == {"global": None, "maxbytes": "64MB", "maxmsgs": "100000"}
    sels = [(s.peer, s.direction, s.topic, s.selector) for s in ord_.state.route_selectors]
    assert sels[0] == ("CANADA", Direction.OUTGOING, "orders", "country='Canada'")
    assert sels[-1] == ("USA", Direction.OUTGOING, "orders.audit", "amount >= 10000")
    usa = read_server(CORPUS / "orders-central" / "USA" / "tibemsd.conf")
    route_durable = usa.state.subscriptions["ORD"]
    assert route_durable.properties == {"route": None} and route_durable.topicstr == "orders.audit"
    assert usa.state.route_selectors[0].direction is Direction.INCOMING
    pa1 = read_server(CORPUS / "regions" / "PA1" / "tibemsd.conf")
    route = pa1.state.routes["NY1"]
    assert (route.zone_name, route.zone_type) == ("WO", ZoneType.MHOP)
    assert list(route.properties) == ["ssl_identity", "ssl_private_key"]
    chain_b = read_server(CORPUS / "chain" / "B" / "tibemsd.conf")
    assert chain_b.state.subscriptions["reports"].properties == {"clientid": "reporting"}


@needs_corpus
@pytest.mark.parametrize("tibemsd", SERVERS, ids=lambda p: f"{p.parent.parent.name}/{p.parent.name}")
def test_round_trip_read_write_read(tibemsd: Path, tmp_path: Path) -> None:
    first = read_server(tibemsd)
    (tmp_path / "topics.conf").write_text(write_topics_conf(first.state))
    (tmp_path / "routes.conf").write_text(write_routes_conf(first.state))
    (tmp_path / "durables.conf").write_text(write_durables_conf(first.state))
    again = read_server(
        None,
        server=first.name,
        topics=tmp_path / "topics.conf",
        routes=tmp_path / "routes.conf",
        durables=tmp_path / "durables.conf",
    )
    assert without_sources(again.state) == without_sources(first.state)


def server_dir(tmp_path: Path, *, topics: str = "", routes: str = "", durables: str = "") -> Path:
    (tmp_path / "tibemsd.conf").write_text(
        "# test\nserver = S1\npassword =\ntopics = topics.conf\nroutes = routes.conf\ndurables = durables.conf\n"
        "queues = queues.conf\n"
    )
    (tmp_path / "topics.conf").write_text(topics)
    (tmp_path / "routes.conf").write_text(routes)
    (tmp_path / "durables.conf").write_text(durables)
    return tmp_path / "tibemsd.conf"


def test_explicit_paths_and_server_override(tmp_path: Path) -> None:
    conf = server_dir(tmp_path, topics="a.b  global\n")
    other = tmp_path / "other.conf"
    other.write_text("x.*  secure,prefetch=5,overflowPolicy=discardOld\n")
    config = read_server(conf, server="S2", topics=other)
    assert config.name == "S2" and list(config.state.topics) == ["x.*"]
    assert list(config.state.topics["x.*"].properties) == ["secure", "prefetch", "overflowPolicy"]
    assert config.not_modelled == ["queues = queues.conf (not modelled)"]


BROKEN = [
    ("topics", "a..b  global\n", 1, 3),
    ("topics", "ok  global\nfoo.>.bar  global\n", 2, 5),
    ("topics", "a  maxbytes=lots\n", 1, 13),
    ("topics", "a  global,global\n", 1, 11),
    ("topics", "a  global\na  secure\n", 2, 1),
    ("routes", "url = tcp://x:7222\n", 1, 1),
    ("routes", "[P]\n  url = tcp://p:1\n  zone_type = 2hop\n", 3, 15),
    ("routes", '[P]\n  url = tcp://p:1\n  outgoing_topic=orders selector="a >"\n', 3, 38),
    ("routes", '[P]\n  url = tcp://p:1\n  outgoing_topic=or..ders selector="a = 1"\n', 3, 21),
    ("routes", "[P]\n  url = tcp://p:1\n  incoming_topic=orders\n", 3, 24),
    ("routes", "[P]\n  zone_name = Z\n", 1, 1),
    ("routes", "[P]\n  url = tcp://p:1\n[P]\n  url = tcp://p:2\n", 3, 1),
    ("routes", "[P.Q]\n  url = tcp://p:1\n", 1, 2),
    ("routes", "[P\n  url = tcp://p:1\n", 1, 3),
    ("routes", "[P]\n  url = tcp://p:1\n  just words\n", 3, 3),
    ("durables", "orders\n", 1, 7),
    ("durables", 'orders  D1  selector="x LIKE 7"\n', 1, 30),
    ("durables", "orders.*.>.x  D1\n", 1, 10),
    ("durables", "orders  D1\norders  D1\n", 2, 9),
]


@pytest.mark.parametrize(("which", "text", "line", "column"), BROKEN)
def test_broken_files_give_line_and_column(
    tmp_path: Path, which: str, text: str, line: int, column: int
) -> None:
    conf = server_dir(tmp_path, **{which: text})
    with pytest.raises(InputError) as info:
        read_server(conf)
    err = info.value
    assert err.file == str(tmp_path / f"{which}.conf")
    assert (err.line, err.column) == (line, column), err.one_line()


def test_tibemsd_json(tmp_path: Path) -> None:
    doc = {
        "tibemsd": {"server": "J1", "listens": [{"url": "tcp://7222"}]},
        "topics": [
            {"name": "orders", "global": True, "maxbytes": "64MB", "secure": False},
            {"name": "orders.>", "maxmsgs": 10},
        ],
        "routes": [
            {
                "name": "J2",
                "url": "tcp://j2:7222",
                "zone_name": "Z",
                "zone_type": "1hop",
                "ssl_identity": "id.pem",
                "selectors": [{"incoming": False, "topic": "orders", "selector": "a = 1"}],
                "incoming_topic": [{"topic": "orders.>", "selector": "b = 2"}],
            }
        ],
        "durables": [
            {"topic_name": "orders", "durable_name": "D1", "clientid": "c1", "nolocal": True},
            {"topic_name": "orders", "durable_name": "J2", "route": True},
        ],
        "queues": [{"name": "q"}],
    }
    path = tmp_path / "tibemsd.json"
    path.write_text(json.dumps(doc, indent=2))
    config = read_server(path)
    st = config.state
    assert config.name == "J1" and config.peers == {"J2"}
    assert st.topics["orders"].properties == {"global": None, "maxbytes": "64MB"}
    assert st.topics["orders.>"].properties == {"maxmsgs": "10"}
    route = st.routes["J2"]
    assert (route.zone_name, route.zone_type, route.properties) == (
        "Z",
        ZoneType.ONE_HOP,
        {"ssl_identity": "id.pem"},
    )
    assert [(s.direction, s.topic) for s in st.route_selectors] == [
        (Direction.OUTGOING, "orders"),
        (Direction.INCOMING, "orders.>"),
    ]
    assert st.subscriptions["D1"].properties == {"clientid": "c1", "nolocal": None}
    assert config.not_modelled and "queues" in config.not_modelled[0]


def test_tibemsd_json_errors(tmp_path: Path) -> None:
    path = tmp_path / "tibemsd.json"
    path.write_text('{\n  "tibemsd": {"server": "J1"},\n  "topics": [,]\n}\n')
    with pytest.raises(InputError) as info:
        read_server(path)
    assert (info.value.line, info.value.column) == (3, 14)
    path.write_text(json.dumps({"tibemsd": {"server": "J1"}, "topics": [{"name": "a..b"}]}))
    with pytest.raises(InputError) as info2:
        read_server(path)
    assert info2.value.obj == "topics[0]"


def test_route_to_itself_is_an_error(tmp_path: Path) -> None:
    conf = server_dir(tmp_path, routes="[S1]\n  url = tcp://me:7222\n")
    with pytest.raises(InputError) as info:
        read_server(conf)
    assert (info.value.line, info.value.column) == (1, 2)


def test_selector_lines_allow_blanks_around_equals(tmp_path: Path) -> None:
    conf = server_dir(
        tmp_path, routes='[P]\n  url = tcp://p:1\n  incoming_topic = orders selector = "a = 1"\n'
    )
    sel = read_server(conf).state.route_selectors[0]
    assert (sel.topic, sel.selector, sel.direction) == ("orders", "a = 1", Direction.INCOMING)


# -- encodings and path settings -----------------------------------------------------------------------
def test_files_in_another_encoding_need_its_name(tmp_path: Path) -> None:
    conf = server_dir(tmp_path, routes="[P]\n  url = tcp://p:1\n  zone_name = Zürich\n")
    (tmp_path / "routes.conf").write_bytes("[P]\n  url = tcp://p:1\n  zone_name = Zürich\n".encode("cp1252"))
    with pytest.raises(InputError) as info:
        read_server(conf)
    err = info.value
    assert (err.file, err.line, err.column) == (str(tmp_path / "routes.conf"), 3, 16)
    assert "0xFC cannot be decoded as utf-8" in err.message and "--encoding" in err.message
    assert read_server(conf, encoding="cp1252").state.routes["P"].zone_name == "Zürich"


def test_utf16_and_utf8_byte_order_marks_are_honoured(tmp_path: Path) -> None:
    conf = server_dir(tmp_path)
    (tmp_path / "topics.conf").write_bytes("orders.é  global\n".encode("utf-16"))  # Python writes the mark
    (tmp_path / "tibemsd.conf").write_bytes(b"\xef\xbb\xbf" + (tmp_path / "tibemsd.conf").read_bytes())
    config = read_server(conf)
    assert config.name == "S1" and list(config.state.topics) == ["orders.é"]


def test_tibemsd_json_takes_the_encoding_too(tmp_path: Path) -> None:
    path = tmp_path / "tibemsd.json"
    path.write_bytes('{"tibemsd": {"server": "J1"}, "topics": [{"name": "café"}]}'.encode("latin-1"))
    with pytest.raises(InputError) as info:
        read_server(path)
    assert (info.value.line, info.value.column) == (1, 55)
    assert list(read_server(path, encoding="latin-1").state.topics) == ["café"]


@pytest.mark.parametrize(
    ("setting", "line", "column", "words"),
    [
        ('topics = "to\0pics.conf"', 2, 13, "cannot hold a NUL byte"),
        ("topics = sub", 2, 10, "is a folder"),
        ("topics = missing.conf", 2, 10, "no such file"),
    ],
)
def test_a_path_setting_that_cannot_be_read_is_reported_at_the_setting(
    tmp_path: Path, setting: str, line: int, column: int, words: str
) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "tibemsd.conf").write_text(f"server = S1\n{setting}\n")
    with pytest.raises(InputError) as info:
        read_server(tmp_path / "tibemsd.conf")
    err = info.value
    assert (err.file, err.line, err.column) == (str(tmp_path / "tibemsd.conf"), line, column), err.one_line()
    assert words in err.message


def test_thousands_of_digits_or_deep_nesting_in_tibemsd_json_are_input_errors(tmp_path: Path) -> None:
    path = tmp_path / "tibemsd.json"
    path.write_text(
        '{"tibemsd": {"server": "J1"},\n "topics": [{"name": "a", "maxmsgs": ' + "1" * 5000 + "}]}"
    )
    with pytest.raises(InputError) as info:
        read_server(path)
    assert (info.value.line, info.value.column) == (2, 38)
    path.write_text("[" * 100_000)
    with pytest.raises(InputError, match="nested too deeply"):
        read_server(path)


# -- exports cannot be injected: any representable value reads back as written, nothing else -----------
def _representable(check: object) -> object:
    def ok(value: str) -> bool:
        try:
            check(value, "x")  # type: ignore[operator]
        except InputError:
            return False
        return True

    return ok


_ALPHABET = st.sampled_from(list("ab.*>#[]=, \t\"'\n\r$é") + ["\u2028", "\xa0", "x"])
_TEXT = st.lists(_ALPHABET, max_size=12).map("".join)
_VALUES = _TEXT.filter(_representable(check_ems_value))
_NAMES = _TEXT.filter(_representable(check_ems_name))


def _is_pattern(name: str) -> bool:
    try:
        validate_pattern(name, Dialect.EMS)
    except InputError:
        return False
    return True


_TOPICS = _NAMES.filter(_is_pattern)
_KEYS = _NAMES.filter(lambda k: k not in ("maxbytes", "maxmsgs", "selector", "route"))
_PEERS = _NAMES.filter(lambda n: n != "S1" and _representable(lambda v, _: check_ems_server_name(v))(n))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(
    topics=st.dictionaries(_TOPICS, st.dictionaries(_KEYS, st.none() | _VALUES, max_size=3), max_size=3),
    routes=st.dictionaries(
        _PEERS,
        st.tuples(
            _VALUES.filter(bool),
            _VALUES.filter(bool),  # a zone has a name
            st.dictionaries(_KEYS.filter(lambda k: not k.startswith(ROUTE_KEYS)), _VALUES, max_size=2),
            st.lists(st.tuples(_TOPICS, _VALUES), max_size=2, unique_by=lambda t: t[0]),
        ),
        max_size=3,
    ),
    durables=st.dictionaries(
        _NAMES, st.tuples(_TOPICS, st.dictionaries(_KEYS, st.none() | _VALUES, max_size=2)), max_size=3
    ),
)
def test_written_files_read_back_the_same_objects_and_no_others(
    topics: dict[str, dict[str, str | None]],
    routes: dict[str, tuple[str, str, dict[str, str], list[tuple[str, str]]]],
    durables: dict[str, tuple[str, dict[str, str | None]]],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    st_ = NodeState(node=Node(name="S1", dialect=Dialect.EMS))
    for name, props in topics.items():
        st_.topics[name] = TopicObject(node="S1", name=name, topicstr=name, properties=props)
    for peer, (url, zone, props, sels) in routes.items():
        st_.routes[peer] = Route(node="S1", peer=peer, url=url, zone_name=zone, properties=dict(props))
        for topic, text in sels:
            selector = "a = '" + text.replace("'", "''") + "'"
            st_.route_selectors.append(
                RouteSelector(
                    node="S1", peer=peer, direction=Direction.OUTGOING, topic=topic, selector=selector
                )
            )
    for name, (topic, props) in durables.items():
        st_.subscriptions[name] = Subscription(node="S1", name=name, topicstr=topic, properties=dict(props))
    folder = tmp_path_factory.mktemp("ems")
    for file, text in [
        ("topics.conf", write_topics_conf(st_)),
        ("routes.conf", write_routes_conf(st_)),
        ("durables.conf", write_durables_conf(st_)),
    ]:
        (folder / file).write_text(text, encoding="utf-8")
    again = read_server(
        None,
        server="S1",
        topics=folder / "topics.conf",
        routes=folder / "routes.conf",
        durables=folder / "durables.conf",
    ).state
    assert {n: t.properties for n, t in again.topics.items()} == topics
    assert {p: (r.url, r.zone_name, r.properties) for p, r in again.routes.items()} == {
        p: (url, zone, props) for p, (url, zone, props, _) in routes.items()
    }
    assert [(s.peer, s.topic, s.selector) for s in again.route_selectors] == [
        (s.peer, s.topic, s.selector) for s in st_.route_selectors
    ]
    assert {n: (s.topicstr, s.properties) for n, s in again.subscriptions.items()} == durables


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (
            lambda s: setattr(s.routes["P"], "url", "tcp://x:1\n[EVIL]\n  url = tcp://evil:1"),
            "control character",
        ),
        (lambda s: setattr(s.routes["P"], "zone_name", 'Z" x'), "double quote"),
        (lambda s: s.routes["P"].properties.update({"incoming_topic": "a"}), "cannot be named"),
        (lambda s: s.routes["P"].properties.update({"ssl": " padded"}), "blanks"),
        (lambda s: s.topics.update({"#x": TopicObject(node="S1", name="#x", topicstr="#x")}), "comment"),
        (lambda s: s.topics.update({"a b": TopicObject(node="S1", name="a b", topicstr="a b")}), "' '"),
        (lambda s: s.topics["t"].properties.update({"k": "v\r\nother"}), "control character"),
        (lambda s: setattr(s.subscriptions["D"], "selector", "a = 1\nOR b = 2"), "control character"),
    ],
)
def test_a_value_the_files_cannot_hold_is_refused_when_written(edit: object, words: str) -> None:
    st_ = NodeState(node=Node(name="S1", dialect=Dialect.EMS))
    st_.topics["t"] = TopicObject(node="S1", name="t", topicstr="t")
    st_.routes["P"] = Route(node="S1", peer="P", url="tcp://p:1")
    st_.subscriptions["D"] = Subscription(node="S1", name="D", topicstr="t")
    edit(st_)  # type: ignore[operator]
    with pytest.raises(InputError, match=words):
        write_topics_conf(st_)
        write_routes_conf(st_)
        write_durables_conf(st_)
