"""What keeps the doors together (property-based, on SQLite and PostgreSQL):

- random models built through the object commands, exported (`export mqsc --all`, `export ems --all`)
  and imported into a fresh store, display the same (every kind, sequences aside);
- a random single definition made through `define` and through `runmqsc` ends in the same store or in
  the same error.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests.conftest import Result, _reset_pg, fresh_store, run_cli
from tests.store.test_one_model import model

Cli = Callable[..., Result]
PROPERTY = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


def _fresh(store_url: str, tmp_path: Path, name: str) -> str:
    """An empty store of the same backend as ``store_url``."""
    if store_url.startswith("sqlite"):
        return fresh_store(store_url, tmp_path / f"{name}.db")
    _reset_pg(store_url)
    return store_url


# -- random models, as a user builds them ------------------------------------------------------------

QMGRS = ("QMA", "QMB", "QMC")
CLUSTERS = ("CL1", "CL2")
TOPICSTRS = ("/a", "/a/b", "/c", "/c/d/e", "sport")
PATTERNS = ("/a/#", "/a/+/x", "/c", "#", "/a/b", "sport/+")
SELECTORS = (None, "amount > 100", "country = 'US' AND n BETWEEN 1 AND 5", "x LIKE 'a%'")
ENUM_CHOICES = {
    "--clroute": ("direct", "TOPICHOST"),
    "--wildcard": ("passthru", "block"),
    "--pubscope": ("all", "qmgr", "asparent"),
    "--subscope": ("all", "qmgr", "asparent"),
    "--proxysub": ("firstuse", "force"),
    "--pub": ("enabled", "disabled", "asparent"),
    "--sub": ("enabled", "disabled", "asparent"),
}
SERVERS = ("E1", "E2", "E3")
EMS_PATTERNS = ("orders", "orders.*", "orders.>", "market.fx.*", "$TMP$.>")


@st.composite
def mq_commands(draw: st.DrawFn) -> list[list[str]]:
    cmds: list[list[str]] = []
    qmgrs = draw(st.lists(st.sampled_from(QMGRS), min_size=1, max_size=3, unique=True))
    for qm in qmgrs:
        cmd = ["define", "qmgr", qm]
        for cluster in draw(st.lists(st.sampled_from(CLUSTERS), max_size=2, unique=True)):
            cmd += ["--cluster", cluster]
        for cluster in draw(st.lists(st.sampled_from(CLUSTERS), max_size=2, unique=True)):
            cmd += ["--full-repository", cluster]
        if draw(st.booleans()):
            cmd += ["--descr", draw(st.sampled_from(["hub", "it's mine", "100% (test)"]))]
        cmds.append(cmd)
    if len(qmgrs) > 1 and draw(st.booleans()):
        cmds.append(["alter", "qmgr", qmgrs[1], "--parent", qmgrs[0], "--psmode", "compat"])
    if draw(st.booleans()):
        qm = draw(st.sampled_from(qmgrs))
        cmds.append(["define", "namelist", "NL1", "--qmgr", qm, "--names", "CL1,CL3"])
        cmds.append(["define", "channel", "TO.NL", "--qmgr", qm, "--chltype", "clusrcvr", "--clusnl", "NL1"])
    for i in range(draw(st.integers(0, 2))):
        qm = draw(st.sampled_from(qmgrs))
        cmds.append(
            [
                "define",
                "channel",
                f"CH{i}",
                "--qmgr",
                qm,
                "--chltype",
                draw(st.sampled_from(["clusrcvr", "clussdr"])),
            ]
            + ["--cluster", draw(st.sampled_from(CLUSTERS)), "--conname", "host(1414)"]
            + ["--clwlrank", str(draw(st.integers(0, 9))), "--clwlwght", str(draw(st.integers(1, 99)))]
        )
    for i in range(draw(st.integers(0, 4))):
        qm = draw(st.sampled_from(qmgrs))
        cmd = ["define", "topic", f"T{i}", "--qmgr", qm, "--topicstr", draw(st.sampled_from(TOPICSTRS))]
        if draw(st.booleans()):
            cmd += ["--cluster", draw(st.sampled_from(CLUSTERS))]
        for option, values in ENUM_CHOICES.items():
            if draw(st.booleans()):
                cmd += [option, draw(st.sampled_from(values))]
        cmds.append(cmd)
    for i in range(draw(st.integers(0, 4))):
        qm = draw(st.sampled_from(qmgrs))
        cmd = ["define", "sub", f"S {i}", "--qmgr", qm, "--topicstr", draw(st.sampled_from(PATTERNS))]
        selector = draw(st.sampled_from(SELECTORS))
        if selector:
            cmd += ["--selector", selector]
        if draw(st.booleans()):
            cmd += ["--subscope", "qmgr", "--dest", "Q1", "--destqmgr", "QMX"]
        if draw(st.booleans()):
            cmd += ["--topicobj", "T0"]  # refused unless T0 is on that queue manager: the store is unchanged
        cmds.append(cmd)
    return cmds


@st.composite
def ems_commands(draw: st.DrawFn) -> list[list[str]]:
    cmds: list[list[str]] = []
    servers = draw(st.lists(st.sampled_from(SERVERS), min_size=1, max_size=3, unique=True))
    for server in servers:
        cmds.append(["define", "qmgr", server, "--dialect", "ems"])
        for pattern in draw(st.lists(st.sampled_from(EMS_PATTERNS), max_size=3, unique=True)):
            cmd = ["define", "topic", pattern, "--qmgr", server]
            for prop in draw(
                st.lists(
                    st.sampled_from(["global", "maxbytes=64MB", "secure", "flowControl=1KB"]), unique=True
                )
            ):
                cmd += ["--prop", prop]
            cmds.append(cmd)
    for a in servers:
        for b in servers:
            if a != b and draw(st.booleans()):
                cmd = [
                    "define",
                    "route",
                    b,
                    "--qmgr",
                    a,
                    "--url",
                    f"tcp://{b.lower()}:7222,tcp://{b.lower()}b:7222",
                ]
                if draw(st.booleans()):
                    cmd += ["--zone-name", "Z1", "--zone-type", "1hop"]
                if draw(st.booleans()):
                    cmd += ["--prop", "ssl_identity=/certs/x.pem"]
                cmds.append(cmd)
                if draw(st.booleans()):
                    cmds.append(
                        ["define", "route-selector", "--qmgr", a, "--route", b, "--direction"]
                        + [draw(st.sampled_from(["incoming", "outgoing"])), "--topic", "orders.>"]
                        + ["--selector", draw(st.sampled_from(["country = 'US'", "amount > 5 OR x IS NULL"]))]
                    )
    for i in range(draw(st.integers(0, 3))):
        cmd = ["define", "sub", f"D{i}", "--qmgr", draw(st.sampled_from(servers)), "--durable"]
        cmd += ["--topicstr", draw(st.sampled_from(EMS_PATTERNS))]
        if draw(st.booleans()):
            cmd += ["--selector", "amount > 100"]
        cmds.append(cmd)
    return cmds


def _build(url: str, cmds: list[list[str]]) -> None:
    for cmd in cmds:
        result = run_cli(cmd, db=url)
        assert result.exit_code in (0, 2), (
            cmd,
            result.stderr,
        )  # a refused definition leaves the store as it was
        assert "internal error" not in result.stderr, (cmd, result.stderr)


@given(mq=mq_commands(), ems=ems_commands())
@PROPERTY
def test_export_then_import_gives_the_same_model(
    store_url: str, tmp_path_factory: pytest.TempPathFactory, mq: list[list[str]], ems: list[list[str]]
) -> None:
    tmp = tmp_path_factory.mktemp("roundtrip")
    first = _fresh(store_url, tmp, "first")
    _build(first, mq + ems)
    original = model(lambda *a: run_cli(list(a), db=first))
    for args in (
        ["export", "mqsc", "--all", "--out", str(tmp / "mqsc")],
        ["export", "ems", "--all", "--out", str(tmp / "ems")],
    ):
        done = run_cli(args, db=first)
        assert done.exit_code == 0, done.stderr
    second = first if not first.startswith("sqlite") else _fresh(first, tmp, "second")
    if second == first:
        _reset_pg(second)
    if any(p.suffix == ".mqsc" for p in (tmp / "mqsc").iterdir()):
        done = run_cli(["import", "mqsc", str(tmp / "mqsc")], db=second)
        assert done.exit_code == 0, done.stderr
    confs = sorted(str(p) for p in (tmp / "ems").glob("*/tibemsd.conf"))
    if confs:
        done = run_cli(["import", "ems", *(x for c in confs for x in ("--tibemsd", c))], db=second)
        assert done.exit_code == 0, done.stderr
    assert model(lambda *a: run_cli(list(a), db=second)) == original


# -- one definition, two doors ----------------------------------------------------------------------------

TEXT = st.sampled_from(["", "plain", "it's", "x" * 64, "x" * 65, "tab\there"])
NAMES = st.sampled_from(["T1", "t.lower", "BAD NAME", "X" * 48, "Y" * 49, "A/B"])


@st.composite
def topic_definition(draw: st.DrawFn) -> tuple[list[str], str]:
    """The same DEFINE TOPIC as CLI options and as MQSC."""
    name = draw(NAMES)
    topicstr = draw(st.sampled_from(["/a", "/a/b", "", "#/+", "/a\nb", "x" * 10241, "/USED"]))
    cli = ["define", "topic", name, "--qmgr", "QM1", "--topicstr", topicstr]
    mqsc = f"DEFINE TOPIC('{name}') TOPICSTR('{topicstr}')"
    cluster = draw(st.sampled_from([None, "CL1", "BAD CLUSTER"]))
    if cluster:
        cli += ["--cluster", cluster]
        mqsc += f" CLUSTER('{cluster}')"
    for option, values in ENUM_CHOICES.items():
        value = draw(st.sampled_from([None, *values, "SIDEWAYS"]))
        if value:
            cli += [option, value]
            mqsc += f" {option[2:].upper()}({value})"
    descr = draw(st.one_of(st.none(), TEXT))
    if descr is not None:
        cli += ["--descr", descr]
        mqsc += " DESCR('" + descr.replace("'", "''") + "')"
    return cli, mqsc


@st.composite
def sub_definition(draw: st.DrawFn) -> tuple[list[str], str]:
    name = draw(st.sampled_from(["S1", "s lower", "S" * 10241, "a\tb"]))
    pattern = draw(st.sampled_from(["/a/#", "/a/+", "", "sport*", "x" * 10241]))
    cli = ["define", "sub", name, "--qmgr", "QM1", "--topicstr", pattern]
    mqsc = f"DEFINE SUB('{name}') TOPICSTR('{pattern}')"
    selector = draw(st.sampled_from([None, "a > 1", "a >", "p > 'foo'", "q LIKE 'x%'"]))
    if selector:
        cli += ["--selector", selector]
        mqsc += " SELECTOR('" + selector.replace("'", "''") + "')"
    for option in ("--subscope", "--wschema"):
        value = draw(st.sampled_from([None, "all", "qmgr", "topic", "char", "nope"]))
        if value:
            cli += [option, value]
            mqsc += f" {option[2:].upper()}({value})"
    for option in ("--dest", "--destqmgr"):
        value = draw(st.sampled_from([None, "Q1", "BAD Q"]))
        if value:
            cli += [option, value]
            mqsc += f" {option[2:].upper()}('{value}')"
    return cli, mqsc


@st.composite
def channel_definition(draw: st.DrawFn) -> tuple[list[str], str]:
    name = draw(st.sampled_from(["TO.QM1", "C" * 20, "C" * 21]))
    chltype = draw(st.sampled_from(["clusrcvr", "clussdr"]))
    cli = ["define", "channel", name, "--qmgr", "QM1", "--chltype", chltype]
    mqsc = f"DEFINE CHANNEL('{name}') CHLTYPE({chltype.upper()})"
    for option, value in (
        ("--cluster", draw(st.sampled_from([None, "CL1"]))),
        ("--conname", draw(st.sampled_from([None, "h(1414)", "h" * 265]))),
        ("--clwlrank", draw(st.sampled_from([None, "0", "9", "10"]))),
        ("--clwlprty", draw(st.sampled_from([None, "5"]))),
        ("--clwlwght", draw(st.sampled_from([None, "1", "99", "0", "100"]))),
        ("--descr", draw(st.sampled_from([None, "d", "d" * 65]))),
    ):
        if value is not None:
            cli += [option, value]
            quoted = value if option.startswith("--clwl") else f"'{value}'"
            mqsc += f" {option[2:].upper()}({quoted})"
    return cli, mqsc


def _outcome(result: Result) -> tuple[int, str]:
    """Exit code and, for an error, what the rule says (the file position and the object label aside)."""
    if result.exit_code == 0:
        return 0, ""
    line = result.stderr.strip().splitlines()[-1].removesuffix(" (script rejected, nothing changed)")
    return result.exit_code, re.split(r": ", line)[-1]


@given(definition=st.one_of(topic_definition(), sub_definition(), channel_definition()))
@PROPERTY
def test_define_and_runmqsc_agree(
    store_url: str, tmp_path_factory: pytest.TempPathFactory, definition: tuple[list[str], str]
) -> None:
    cli_args, mqsc = definition
    tmp = tmp_path_factory.mktemp("doors")
    results: list[tuple[tuple[int, str], dict[str, Any]]] = []
    for door in ("cli", "mqsc"):
        url = _fresh(store_url, tmp, door)
        for setup in (
            ["define", "qmgr", "QM1"],
            ["define", "topic", "USED", "--qmgr", "QM1", "--topicstr", "/USED"],
        ):
            assert run_cli(setup, db=url).exit_code == 0
        if door == "cli":
            result = run_cli(cli_args, db=url)
        else:
            result = run_cli(["runmqsc", "QM1", "-"], db=url, stdin=mqsc + "\n")
        assert "internal error" not in result.stderr, (door, result.stderr)
        results.append((_outcome(result), model(lambda *a, u=url: run_cli(list(a), db=u))))
    (cli_outcome, cli_model), (mqsc_outcome, mqsc_model) = results
    assert cli_outcome[0] == mqsc_outcome[0], (cli_args, mqsc, cli_outcome, mqsc_outcome)
    assert cli_model == mqsc_model, (cli_args, mqsc)


# -- one request, every door: define / alter / delete of every kind, deletes with dependents ------------
# Each generated request is a (shell arguments, product text) pair. It goes through the shell, through
# runmqsc and through `import mqsc` (MQ), or through the shell and tibemsadmin (EMS), one request per
# command: every door must answer it the same way (applied, or refused with exit 2 and the store
# unchanged) and end in the same model. The EMS configuration readers read whole files, not requests:
# the export/import test above holds them to the same model.

Request = tuple[list[str], str]
MQ_TOPICS = ("T1", "T2")
MQ_SUBS = ("S1", "S2")


@st.composite
def mq_request(draw: st.DrawFn) -> list[Request]:
    """One request, or a define+delete pair where the product cannot say "not found" for a delete."""
    kind = draw(st.sampled_from(["topic", "sub", "namelist", "channel", "qmgr"]))
    verb = draw(st.sampled_from(["define", "define", "alter", "delete"]))
    m = ["--qmgr", "QM1"]
    if kind == "topic":
        name = draw(st.sampled_from(MQ_TOPICS))
        if verb == "define":
            topicstr = draw(st.sampled_from(["/a", "/b", "/a/b"]))
            cli, mqsc = (
                ["define", "topic", name, *m, "--topicstr", topicstr],
                f"DEFINE TOPIC({name}) TOPICSTR('{topicstr}')",
            )
            if draw(st.booleans()):
                cli, mqsc = cli + ["--cluster", "CL1"], mqsc + " CLUSTER(CL1)"
            if draw(st.booleans()):
                cli, mqsc = cli + ["--replace"], mqsc + " REPLACE"
            return [(cli, mqsc)]
        if verb == "alter":
            attr, value = draw(st.sampled_from([("pub", "disabled"), ("cluster", "CL2"), ("descr", "d")]))
            quoted = f"'{value}'" if attr != "pub" else value.upper()
            return [
                (
                    ["alter", "topic", name, *m, f"--{attr}", value],
                    f"ALTER TOPIC({name}) {attr.upper()}({quoted})",
                )
            ]
        return [(["delete", "topic", name, *m], f"DELETE TOPIC({name})")]  # its subscriptions stay
    if kind == "sub":
        name = draw(st.sampled_from(MQ_SUBS))
        if verb == "define":
            cli, mqsc = ["define", "sub", name, *m], f"DEFINE SUB({name})"
            obj = draw(st.sampled_from([None, *MQ_TOPICS]))
            tail = draw(st.sampled_from([None, "x/#"] if obj else ["/a/#", "/b"]))
            if obj:
                cli, mqsc = cli + ["--topicobj", obj], mqsc + f" TOPICOBJ({obj})"
            if tail:
                cli, mqsc = cli + ["--topicstr", tail], mqsc + f" TOPICSTR('{tail}')"
            if draw(st.booleans()):
                cli, mqsc = cli + ["--replace"], mqsc + " REPLACE"
            return [(cli, mqsc)]
        if verb == "alter":
            return [(["alter", "sub", name, *m, "--dest", "Q1"], f"ALTER SUB({name}) DEST('Q1')")]
        return [(["delete", "sub", name, *m], f"DELETE SUB({name})")]
    if kind == "namelist":
        if verb == "define":
            names = draw(st.sampled_from(["CL1", "CL1,CL2"]))
            replace = draw(st.booleans())
            return [
                (
                    ["define", "namelist", "NL1", *m, "--names", names] + (["--replace"] if replace else []),
                    f"DEFINE NAMELIST(NL1) NAMES({names})" + (" REPLACE" if replace else ""),
                )
            ]
        if verb == "alter":
            return [(["alter", "namelist", "NL1", *m, "--names", "CL2"], "ALTER NAMELIST(NL1) NAMES(CL2)")]
        return [(["delete", "namelist", "NL1", *m], "DELETE NAMELIST(NL1)")]  # channels naming it stay
    if kind == "channel":
        where = draw(st.sampled_from([("--cluster", "CL1"), ("--clusnl", "NL1")]))
        define = (
            ["define", "channel", "C1", *m, "--chltype", "clusrcvr", *where, "--replace"],
            f"DEFINE CHANNEL(C1) CHLTYPE(CLUSRCVR) {where[0][2:].upper()}({where[1]}) REPLACE",
        )
        if verb == "define":
            return [define]
        if verb == "alter":
            return [
                (
                    ["alter", "channel", "C1", *m, "--clwlrank", "3"],
                    "ALTER CHANNEL(C1) CHLTYPE(CLUSRCVR) CLWLRANK(3)",
                )
            ]
        # runmqsc skips DELETE CHANNEL of a channel it does not know (it may be a kind mqctl does not
        # model): delete one just defined
        return [define, (["delete", "channel", "C1", *m], "DELETE CHANNEL(C1)")]
    value = draw(st.sampled_from(["QM0", "E9", "d"]))
    if value == "d":
        return [(["alter", "qmgr", "QM1", "--descr", "hub"], "ALTER QMGR DESCR('hub')")]
    return [(["alter", "qmgr", "QM1", "--parent", value], f"ALTER QMGR PARENT({value})")]


def _flat(requests: list[list[Request]]) -> list[Request]:
    return [r for group in requests for r in group]


def _same_answers(
    store_url: str,
    tmp: Path,
    doors: dict[str, Callable[[str, Request], Result]],
    setup: list[list[str]],
    requests: list[Request],
) -> None:
    answers: dict[str, list[int]] = {}
    models: dict[str, dict[str, Any]] = {}
    for door, send in doors.items():
        url = _fresh(store_url, tmp, door)
        for cmd in setup:
            assert run_cli(cmd, db=url).exit_code == 0, cmd
        codes = []
        for request in requests:
            result = send(url, request)
            assert "internal error" not in result.stderr and "Traceback" not in result.stderr, (
                door,
                request,
                result.stderr,
            )
            assert result.exit_code in (0, 2), (door, request, result.stdout, result.stderr)
            codes.append(result.exit_code)
        answers[door] = codes
        models[door] = model(lambda *a, u=url: run_cli(list(a), db=u))
    first = next(iter(doors))
    for door in doors:
        assert answers[door] == answers[first], (
            door,
            list(zip(requests, answers[first], answers[door], strict=True)),
        )
        assert models[door] == models[first], (door, requests)


DEPENDENTS_MQ = [
    [(["define", "topic", "T1", "--qmgr", "QM1", "--topicstr", "/a"], "DEFINE TOPIC(T1) TOPICSTR('/a')")],
    [(["define", "sub", "S1", "--qmgr", "QM1", "--topicobj", "T1"], "DEFINE SUB(S1) TOPICOBJ(T1)")],
    [(["delete", "topic", "T1", "--qmgr", "QM1"], "DELETE TOPIC(T1)")],  # S1 stays, with /a
    [
        (["define", "sub", "S2", "--qmgr", "QM1", "--topicobj", "T1"], "DEFINE SUB(S2) TOPICOBJ(T1)")
    ],  # refused
    [
        (
            ["define", "namelist", "NL1", "--qmgr", "QM1", "--names", "CL1,CL2"],
            "DEFINE NAMELIST(NL1) NAMES(CL1,CL2)",
        )
    ],
    [
        (
            ["define", "channel", "C1", "--qmgr", "QM1", "--chltype", "clusrcvr", "--clusnl", "NL1"],
            "DEFINE CHANNEL(C1) CHLTYPE(CLUSRCVR) CLUSNL(NL1)",
        )
    ],
    [(["delete", "namelist", "NL1", "--qmgr", "QM1"], "DELETE NAMELIST(NL1)")],  # C1 stays, no membership
    [
        (
            ["alter", "channel", "C1", "--qmgr", "QM1", "--clwlrank", "3"],
            "ALTER CHANNEL(C1) CHLTYPE(CLUSRCVR) CLWLRANK(3)",
        )
    ],
]


@given(requests=st.lists(mq_request(), min_size=1, max_size=8))
@example(requests=DEPENDENTS_MQ)
@PROPERTY
def test_every_mq_door_makes_the_same_change(
    store_url: str, tmp_path_factory: pytest.TempPathFactory, requests: list[list[Request]]
) -> None:
    tmp = tmp_path_factory.mktemp("mqdoors")
    scripts = tmp / "scripts"
    scripts.mkdir()

    def imported(url: str, request: Request) -> Result:
        path = scripts / "QM1.mqsc"  # the file names its queue manager
        path.write_text(request[1] + "\n")
        return run_cli(["import", "mqsc", str(path)], db=url)

    doors: dict[str, Callable[[str, Request], Result]] = {
        "shell": lambda url, r: run_cli(r[0], db=url),
        "runmqsc": lambda url, r: run_cli(["runmqsc", "QM1", "-"], db=url, stdin=r[1] + "\n"),
        "import": imported,
    }
    setup = [["define", "qmgr", "QM1"], ["define", "qmgr", "E9", "--dialect", "ems"]]
    _same_answers(store_url, tmp, doors, setup, _flat(requests))


@st.composite
def ems_request(draw: st.DrawFn) -> Request:
    kind = draw(st.sampled_from(["topic", "route", "selector"]))
    s = ["--qmgr", "E1"]
    if kind == "topic":
        name = draw(st.sampled_from(["orders", "orders.>"]))
        verb = draw(st.sampled_from(["create", "addprop", "removeprop", "delete"]))
        if verb == "create":
            flag = draw(st.sampled_from([None, "global"]))
            return (
                ["define", "topic", name, *s] + (["--prop", flag] if flag else []),
                f"create topic {name}" + (f" {flag}" if flag else ""),
            )
        if verb == "addprop":
            return (
                ["alter", "topic", name, *s, "--prop", "maxbytes=1MB"],
                f"addprop topic {name} maxbytes=1MB",
            )
        if verb == "removeprop":
            return (
                ["alter", "topic", name, *s, "--remove-prop", "global"],
                f"removeprop topic {name} global",
            )
        return (["delete", "topic", name, *s], f"delete topic {name}")
    if kind == "route":
        verb = draw(st.sampled_from(["create", "create", "alter", "delete"]))
        if verb == "create":
            return (
                ["define", "route", "E2", *s, "--url", "tcp://e2:7222"],
                "create route E2 url=tcp://e2:7222",
            )
        if verb == "alter":
            return (
                ["alter", "route", "E2", *s, "--url", "tcp://e2b:7222"],
                "addprop route E2 url=tcp://e2b:7222",
            )
        return (["delete", "route", "E2", *s], "delete route E2")  # its selectors go with it
    direction = draw(st.sampled_from(["incoming", "outgoing"]))
    topic = draw(st.sampled_from(["orders", "market.>"]))
    key = ["--route", "E2", "--direction", direction, "--topic", topic]
    if draw(st.booleans()):
        return (["delete", "route-selector", *s, *key], f"removeprop route E2 {direction}_topic={topic}")
    selector = draw(st.sampled_from(["a > 1", "country = 'US'"]))
    return (
        ["define", "route-selector", *s, *key, "--selector", selector, "--replace"],
        f'addprop route E2 {direction}_topic={topic} selector="{selector}"',
    )


DEPENDENTS_EMS = [
    (
        ["define", "route", "E2", "--qmgr", "E1", "--url", "tcp://e2:7222"],
        "create route E2 url=tcp://e2:7222",
    ),
    (
        [
            "define",
            "route-selector",
            "--qmgr",
            "E1",
            "--route",
            "E2",
            "--direction",
            "outgoing",
            "--topic",
            "a.>",
        ]
        + ["--selector", "x > 1", "--replace"],
        'addprop route E2 outgoing_topic=a.> selector="x > 1"',
    ),
    (["delete", "route", "E2", "--qmgr", "E1"], "delete route E2"),  # its selector goes with it
    (
        [
            "delete",
            "route-selector",
            "--qmgr",
            "E1",
            "--route",
            "E2",
            "--direction",
            "outgoing",
            "--topic",
            "a.>",
        ],
        "removeprop route E2 outgoing_topic=a.>",
    ),  # refused: no such route now
]


@given(requests=st.lists(ems_request(), min_size=1, max_size=8))
@example(requests=DEPENDENTS_EMS)
@PROPERTY
def test_every_ems_door_makes_the_same_change(
    store_url: str, tmp_path_factory: pytest.TempPathFactory, requests: list[Request]
) -> None:
    tmp = tmp_path_factory.mktemp("emsdoors")
    doors: dict[str, Callable[[str, Request], Result]] = {
        "shell": lambda url, r: run_cli(r[0], db=url),
        "tibemsadmin": lambda url, r: run_cli(["tibemsadmin", "E1", "-"], db=url, stdin=r[1] + "\n"),
    }
    setup = [["define", "qmgr", "E1", "--dialect", "ems"], ["define", "qmgr", "E2", "--dialect", "ems"]]
    _same_answers(store_url, tmp, doors, setup, requests)
