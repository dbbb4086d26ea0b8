"""One model, one set of rules: each door (object commands, runmqsc, EMS files, tibemsadmin) accepts and
refuses the same definitions, and an export re-imports to the same model. On SQLite and PostgreSQL.

The eight cases of issue 8, each through every door that can express it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Result
from tests.helpers import dump_store, ok, refused

Cli = Callable[..., Result]
KINDS = ("qmgr", "cluster", "membership", "namelist", "channel", "topic", "sub", "route", "route-selector")


def model(cli: Cli) -> dict[str, Any]:
    """``display KIND -o json`` of every kind, without definition sequences."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "seq"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    out = {}
    for kind in KINDS:
        result = cli("display", kind, "-o", "json")
        assert result.exit_code in (0, 1), result.stderr
        out[kind] = strip(result.json())
    return out


# -- 1. a plain member exports its CLUSRCVR channel, so the import keeps the membership ---------------


def test_plain_member_survives_export_and_import(cli: Cli, tmp_path: Path, store_url: str) -> None:
    ok(cli("define", "qmgr", "QM1", "--cluster", "CL1", "--full-repository", "CL1"))
    ok(cli("define", "qmgr", "QM2", "--cluster", "CL1"))
    ok(cli("define", "topic", "T", "--qmgr", "QM1", "--topicstr", "/a", "--cluster", "CL1"))
    ok(cli("define", "sub", "S", "--qmgr", "QM2", "--topicstr", "/a/#"))
    question = ("explain", "--from", "QM1", "--topic", "/a/b", "-o", "json")
    before = ok(cli(*question)).json()
    assert [d["status"] for d in before["deliveries"]] == ["delivered"]
    channels = ok(cli("display", "channel", "-o", "json")).json()
    assert {(c["qmgr"], c["chltype"], c["cluster"]) for c in channels} == {
        ("QM1", "CLUSRCVR", "CL1"),
        ("QM2", "CLUSRCVR", "CL1"),
    }
    ok(cli("export", "mqsc", "--all", "--out", str(tmp_path / "dumps")))
    fresh = f"sqlite:///{tmp_path / 'fresh.db'}"
    from tests.conftest import run_cli

    ok(run_cli(["import", "mqsc", str(tmp_path / "dumps")], db=fresh))
    assert model(lambda *a: run_cli(list(a), db=fresh)) == model(cli)
    assert run_cli(list(question), db=fresh).json() == before


# -- 2. a route needs a url, at every door -------------------------------------------------------------


def test_route_without_url_is_refused_everywhere(cli: Cli, tmp_path: Path, store_url: str) -> None:
    ok(cli("define", "qmgr", "A", "--dialect", "ems"))
    before = dump_store(store_url)
    refused(cli("define", "route", "B", "--qmgr", "A"), "route B url")
    refused(cli("tibemsadmin", "A", "-", stdin="create route B zone_name=Z\n"), "url")
    conf = tmp_path / "A"
    conf.mkdir()
    (conf / "tibemsd.conf").write_text("server = A\nroutes = routes.conf\n")
    (conf / "routes.conf").write_text("[B]\n  zone_name = Z\n")
    refused(cli("import", "ems", "--tibemsd", str(conf / "tibemsd.conf")), "url")
    assert dump_store(store_url) == before


# -- 3. EMS storage limits are sizes, at every door -----------------------------------------------------


def test_maxbytes_must_be_a_size_everywhere(cli: Cli, tmp_path: Path, store_url: str) -> None:
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    before = dump_store(store_url)
    refused(cli("define", "topic", "orders", "--qmgr", "E1", "--prop", "maxbytes=lots"), "maxbytes")
    refused(cli("tibemsadmin", "E1", "-", stdin="create topic orders maxbytes=lots\n"), "maxbytes")
    conf = tmp_path / "E1"
    conf.mkdir()
    (conf / "tibemsd.conf").write_text("server = E1\ntopics = topics.conf\n")
    (conf / "topics.conf").write_text("orders  global,maxbytes=lots\n")
    refused(cli("import", "ems", "--tibemsd", str(conf / "tibemsd.conf")), "maxbytes")
    assert dump_store(store_url) == before
    ok(cli("define", "topic", "orders", "--qmgr", "E1", "--prop", "maxbytes=64MB"))


# -- 4. one TOPICSTR per queue manager -------------------------------------------------------------------


def test_second_object_with_the_same_topicstr_is_refused_everywhere(cli: Cli, store_url: str) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/A"))
    before = dump_store(store_url)
    by_cli = refused(cli("define", "topic", "T2", "--qmgr", "QM1", "--topicstr", "/A"), "T1")
    by_mqsc = refused(cli("runmqsc", "QM1", "-", stdin="DEFINE TOPIC(T2) TOPICSTR('/A')\n"), "T1")
    assert by_cli.split("TOPICSTR: ")[-1] == by_mqsc.split("TOPICSTR: ")[-1].removesuffix(
        " (script rejected, nothing changed)"
    )
    assert dump_store(store_url) == before


# -- 5. DESCR is 64 characters, whichever door wrote it ---------------------------------------------------


def test_long_descr_is_refused_everywhere(cli: Cli, store_url: str) -> None:
    ok(cli("define", "qmgr", "QM1"))
    long = "x" * 100
    refused(cli("runmqsc", "QM1", "-", stdin=f"DEFINE TOPIC(T4) TOPICSTR('/t4') DESCR('{long}')\n"), "DESCR")
    refused(cli("define", "topic", "T4", "--qmgr", "QM1", "--topicstr", "/t4", "--descr", long), "DESCR")
    ok(cli("runmqsc", "QM1", "-", stdin=f"DEFINE TOPIC(T4) TOPICSTR('/t4') DESCR('{'x' * 64}')\n"))
    ok(cli("alter", "topic", "T4", "--qmgr", "QM1", "--pub", "enabled"))


# -- 6. what MQ will not ALTER, no door alters --------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "attribute"),
    [
        (("alter", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/B"), "TOPICSTR"),
        (("alter", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/B/#"), "TOPICSTR"),
        (("alter", "sub", "S1", "--qmgr", "QM1", "--subscope", "qmgr"), "SUBSCOPE"),
        (("alter", "sub", "S1", "--qmgr", "QM1", "--selector", "a = 1"), "SELECTOR"),
    ],
)
def test_immutable_attributes_are_refused_by_the_cli_as_by_runmqsc(
    cli: Cli, store_url: str, args: tuple[str, ...], attribute: str
) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/A"))
    ok(cli("define", "sub", "S1", "--qmgr", "QM1", "--topicstr", "/A/#"))
    before = dump_store(store_url)
    refused(cli(*args), attribute, "delete")
    noun = "TOPIC(T1)" if args[1] == "topic" else "SUB(S1)"
    value = {"TOPICSTR": "'/B'", "SUBSCOPE": "QMGR", "SELECTOR": "'a = 1'"}[attribute]
    refused(cli("runmqsc", "QM1", "-", stdin=f"ALTER {noun} {attribute}({value})\n"), attribute)
    assert dump_store(store_url) == before


# -- 7. a hierarchy parent is a queue manager ------------------------------------------------------------


def test_ems_server_is_no_hierarchy_parent(cli: Cli, store_url: str) -> None:
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    before = dump_store(store_url)
    refused(cli("alter", "qmgr", "QM1", "--parent", "E1"), "PARENT", "EMS server")
    line = refused(cli("runmqsc", "QM1", "-", stdin="ALTER QMGR PARENT(E1)\n"), "PARENT", "EMS server")
    assert "<stdin>:1:" in line or ":1:" in line
    assert dump_store(store_url) == before
    ok(cli("alter", "qmgr", "QM1", "--parent", "QM0"))  # an unknown parent is created as a queue manager
    assert ok(cli("display", "qmgr", "QM0", "-o", "json")).json()[0]["dialect"] == "mq"


# -- 8. names as long as MQ allows them, on both databases --------------------------------------------------


def test_long_subscription_names_work_on_every_backend(cli: Cli) -> None:
    ok(cli("define", "qmgr", "QM1"))
    for length in (6000, 10240):
        name = "S" * length
        ok(cli("define", "sub", name, "--qmgr", "QM1", "--topicstr", "/a/#"))
        shown = ok(cli("display", "sub", name, "--qmgr", "QM1", "-o", "json")).json()
        assert [s["name"] for s in shown] == [name]
    refused(cli("define", "sub", "S" * 10241, "--qmgr", "QM1", "--topicstr", "/a/#"), "10240")
    long_topic = "/" + "/".join(["level"] * 1700)  # 10,201 characters
    ok(cli("define", "topic", "LONG", "--qmgr", "QM1", "--topicstr", long_topic))
    refused(
        cli("define", "topic", "LONG2", "--qmgr", "QM1", "--topicstr", long_topic + "x" * 100), "TOPICSTR"
    )


# -- exports that cannot be re-imported are named ----------------------------------------------------------


def test_export_mqsc_all_writes_inside_out_only_and_owner_only(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "QM1"))
    out = tmp_path / "dumps"
    ok(cli("export", "mqsc", "--all", "--out", str(out)))
    written = out / "QM1.mqsc"
    assert written.stat().st_mode & 0o777 == 0o600
    assert "Script generated on 1970" not in written.read_text()
    ok(cli("export", "mqsc", "--all", "--out", str(tmp_path / "wide"), "--mode", "644"))
    assert (tmp_path / "wide" / "QM1.mqsc").stat().st_mode & 0o777 == 0o644
    (tmp_path / "afile").write_text("x")
    refused(cli("export", "mqsc", "--all", "--out", str(tmp_path / "afile")), "--out")


def test_export_ems_all_writes_one_folder_per_server_and_reimports(cli: Cli, tmp_path: Path) -> None:
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "topic", "orders.>", "--qmgr", "E1", "--prop", "global", "--prop", "maxbytes=1MB"))
    ok(cli("define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222", "--zone-type", "1hop"))
    ok(cli("define", "topic", "orders.>", "--qmgr", "E2", "--prop", "global"))
    ok(
        cli(
            "define",
            "sub",
            "D1",
            "--qmgr",
            "E2",
            "--topicstr",
            "orders.>",
            "--durable",
            "--selector",
            "a > 1",
        )
    )
    out = tmp_path / "ems"
    ok(cli("export", "ems", "--all", "--out", str(out)))
    assert sorted(p.name for p in out.iterdir()) == ["E1", "E2"]
    from tests.conftest import run_cli

    fresh = f"sqlite:///{tmp_path / 'fresh.db'}"
    confs = [str(out / s / "tibemsd.conf") for s in ("E1", "E2")]
    ok(run_cli(["import", "ems", *(x for c in confs for x in ("--tibemsd", c))], db=fresh))
    assert model(lambda *a: run_cli(list(a), db=fresh)) == model(cli)


def test_export_names_the_non_durable_subscriptions_it_cannot_write(cli: Cli, tmp_path: Path) -> None:
    """MQSC (DEFINE SUB) and durables.conf hold durable subscriptions only: the others are named."""
    ok(cli("define", "qmgr", "QM1"))
    ok(cli("define", "sub", "APP.SUB", "--qmgr", "QM1", "--topicstr", "/a/#", "--non-durable"))
    ok(cli("define", "sub", "ADMIN.SUB", "--qmgr", "QM1", "--topicstr", "/a/#"))
    done = ok(cli("export", "mqsc", "QM1"))
    assert "ADMIN.SUB" in done.stdout and "APP.SUB" not in done.stdout
    assert "QM1: not written: 1 non-durable subscription(s) (APP.SUB)" in done.stderr
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    ok(cli("define", "sub", "JMS.SUB", "--qmgr", "E1", "--topicstr", "orders.>"))
    done = ok(cli("export", "ems", "--server", "E1", "--out", str(tmp_path / "E1")))
    assert "E1: not written: 1 non-durable subscription(s) (JMS.SUB)" in done.stderr


# -- issue 25: the doors rebuilt by the one edit path --------------------------------------------------------


def test_a_new_cluster_is_named_with_the_nearest_existing_ones(cli: Cli, store_url: str) -> None:
    """Legal (exit 0) as in MQ, but said on stderr: a misspelt cluster name does not go unnoticed."""
    first = ok(cli("define", "qmgr", "FR1", "--cluster", "EU"))
    assert "cluster EU is new" in first.stderr
    typo = ok(cli("define", "qmgr", "X1", "--cluster", "EUU"))
    assert "cluster EUU is new; did you mean EU?" in typo.stderr.splitlines()[-1]
    again = ok(cli("define", "qmgr", "X2", "--cluster", "EUU"))
    assert "is new" not in again.stderr
    topic = ok(cli("define", "topic", "T", "--qmgr", "FR1", "--topicstr", "/a", "--cluster", "ASIA"))
    assert topic.stderr.strip().endswith("cluster ASIA is new")  # nothing near it
    altered = ok(cli("alter", "qmgr", "FR1", "--cluster", "EUX"))
    assert "cluster EUX is new; did you mean EU or EUU?" in altered.stderr
    assert "is new" not in ok(cli("alter", "topic", "T", "--qmgr", "FR1", "--cluster", "EU")).stderr
    clusters = {c["name"] for c in ok(cli("display", "cluster", "-o", "json")).json()}
    assert clusters == {"ASIA", "EU", "EUU", "EUX"}


def test_every_route_selector_gets_its_own_definition_sequence(cli: Cli, tmp_path: Path) -> None:
    """tibemsadmin's `create route … selector=` gave its selector sequence 0; every door now gives a real,
    increasing one (semantics §9)."""
    ok(cli("define", "qmgr", "E1", "--dialect", "ems"))
    script = 'create route E2 url=tcp://e2:7222 outgoing_topic=a.> selector="x > 1" incoming_topic=b selector="y = 2"\n'
    ok(cli("tibemsadmin", "E1", "-", stdin=script))
    route = ok(cli("display", "route", "E2", "-o", "json")).json()[0]
    seqs = [s["seq"] for s in route["selectors"]]
    assert len(seqs) == 2 and all(seq > route["seq"] for seq in seqs) and len(set(seqs)) == 2
    conf = tmp_path / "E3"
    conf.mkdir()
    (conf / "tibemsd.conf").write_text("server = E3\nroutes = routes.conf\n")
    (conf / "routes.conf").write_text('[E1]\n  url = tcp://e1:7222\n  outgoing_topic=a.> selector="x > 1"\n')
    ok(cli("import", "ems", "--tibemsd", str(conf / "tibemsd.conf")))
    imported = ok(cli("display", "route", "E1", "--qmgr", "E3", "-o", "json")).json()[0]
    assert imported["selectors"][0]["seq"] > imported["seq"] > 0
