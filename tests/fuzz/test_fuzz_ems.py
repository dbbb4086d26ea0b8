"""Fuzzing the EMS readers (topics.conf, routes.conf, durables.conf, tibemsd.conf, tibemsd.json) and the
tibemsadmin interpreter: the only error is an InputError naming the file and, for line files, the line
and column (tibemsd.json values are named by their JSON path)."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Node, NodeState
from mqctl.formats.ems import (
    apply_tibemsadmin,
    read_durables_conf,
    read_routes_conf,
    read_server,
    read_topics_conf,
)
from tests.fuzz.mutations import (
    any_text,
    assert_positioned,
    corpus_texts,
    fuzz_settings,
    mutated,
    mutated_bytes,
)

TOPICS = corpus_texts("ems/*/*/topics.conf", ["orders  global,maxbytes=64MB\norders.>  secure\n"])
ROUTES = corpus_texts(
    "ems/*/*/routes.conf",
    ['[B]\n  url = tcp://b:7222\n  zone_name = Z\n  zone_type = 1hop\n  outgoing_topic=a selector="x = 1"\n'],
)
DURABLES = corpus_texts("ems/*/*/durables.conf", ['orders  D1  clientid=c nolocal selector="a > 1"\n'])
TIBEMSD = corpus_texts("ems/*/*/tibemsd.conf", ["server = A\ntopics = topics.conf\nroutes = routes.conf\n"])
ADMIN = [
    "create topic orders global,maxbytes=64MB\naddprop topic orders secure\nsetprop topic orders.> prefetch=5\n"
    "removeprop topic orders secure\ncreate route B url=tcp://b:7222 zone_name=Z zone_type=1hop\n"
    "setprop route B outgoing_topic=orders selector=\"country = 'US'\"\nshow topics\nshow routes\n"
    "delete topic orders\ndelete route B\n# comment\nshow server\n"
]
JSON = [
    json.dumps(
        {
            "tibemsd": {"server": "J1"},
            "topics": [{"name": "orders", "global": True, "maxbytes": "64MB"}, {"name": "orders.>"}],
            "routes": [
                {
                    "name": "J2",
                    "url": "tcp://j2:7222",
                    "zone_type": "1hop",
                    "selectors": [{"incoming": False, "topic": "orders", "selector": "a = 1"}],
                    "incoming_topic": [{"topic": "orders.>", "selector": "b = 2"}],
                }
            ],
            "durables": [{"topic_name": "orders", "durable_name": "D1", "clientid": "c1", "route": False}],
        },
        indent=2,
    )
]
FILE = "fuzz.conf"
Reader = Callable[..., object]


def _state() -> NodeState:
    return NodeState(node=Node(name="S1", dialect=Dialect.EMS))


def _read_line_file(reader: Reader, text: str) -> None:
    counter = itertools.count(1)
    try:
        reader(_state(), text, file=FILE, next_seq=lambda: next(counter))
    except InputError as err:
        assert_positioned(err, file=FILE)


@fuzz_settings
@given(mutated(TOPICS) | any_text())
def test_mutated_topics_conf_reads_or_gives_positioned_errors(text: str) -> None:
    _read_line_file(read_topics_conf, text)


@fuzz_settings
@given(mutated(ROUTES) | any_text())
def test_mutated_routes_conf_reads_or_gives_positioned_errors(text: str) -> None:
    _read_line_file(read_routes_conf, text)


@fuzz_settings
@given(mutated(DURABLES) | any_text())
def test_mutated_durables_conf_reads_or_gives_positioned_errors(text: str) -> None:
    _read_line_file(read_durables_conf, text)


@fuzz_settings
@given(mutated(ADMIN) | any_text())
def test_mutated_tibemsadmin_scripts_run_or_give_positioned_errors(text: str) -> None:
    counter = itertools.count(1)
    for keep_going in (False, True):
        run = apply_tibemsadmin(
            _state(), text, file=FILE, next_seq=lambda: next(counter), continue_on_error=keep_going
        )
        for err in run.errors:
            assert_positioned(err, file=FILE)


def _read_folder(folder: Path, tibemsd: Path) -> None:
    try:
        read_server(tibemsd)
    except InputError as err:
        assert err.file is not None and err.file.startswith(str(folder)), err.one_line()
        located = err.line is not None and err.column is not None and err.line >= 1 and err.column >= 1
        json_path = tibemsd.suffix == ".json" and err.obj is not None
        assert located or json_path or err.message.startswith("no server name"), err.one_line()
        assert "\n" not in err.one_line()


@fuzz_settings
@given(
    tibemsd=mutated_bytes(TIBEMSD),
    topics=mutated_bytes(TOPICS),
    routes=mutated_bytes(ROUTES),
    durables=mutated_bytes(DURABLES),
)
def test_mutated_server_folders_read_or_give_positioned_errors(
    tibemsd: bytes, topics: bytes, routes: bytes, durables: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("server")
    for name, data in [("topics.conf", topics), ("routes.conf", routes), ("durables.conf", durables)]:
        (folder / name).write_bytes(data)
    (folder / "tibemsd.conf").write_bytes(tibemsd)
    _read_folder(folder, folder / "tibemsd.conf")


@fuzz_settings
@given(data=mutated_bytes(JSON))
def test_mutated_tibemsd_json_reads_or_gives_positioned_errors(
    data: bytes, tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("json")
    (folder / "tibemsd.json").write_bytes(data)
    _read_folder(folder, folder / "tibemsd.json")


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)
_SHAPES = st.fixed_dictionaries(
    {},
    optional={
        key: _JSON_VALUES
        | st.lists(
            st.fixed_dictionaries(
                {},
                optional={
                    k: _JSON_VALUES | st.sampled_from(["a", "a.>", "J2", "x = 1", "1hop", "incoming", True])
                    for k in (
                        "name",
                        "url",
                        "zone_type",
                        "zone_name",
                        "topic",
                        "selector",
                        "selectors",
                        "incoming_topic",
                        "outgoing_topic",
                        "topic_name",
                        "durable_name",
                        "route",
                        "direction",
                        "incoming",
                        "clientid",
                    )
                },
            ),
            max_size=3,
        )
        for key in ("tibemsd", "server", "name", "topics", "routes", "durables", "queues")
    },
)


@fuzz_settings
@given(doc=_SHAPES)
def test_tibemsd_json_of_any_shape_reads_or_names_the_bad_member(
    doc: dict[str, object], tmp_path_factory: pytest.TempPathFactory
) -> None:
    folder = tmp_path_factory.mktemp("json")
    (folder / "tibemsd.json").write_text(json.dumps({"tibemsd": {"server": "J1"}, **doc}))
    _read_folder(folder, folder / "tibemsd.json")
