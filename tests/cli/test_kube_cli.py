"""Kubernetes YAML (ConfigMaps, Secrets, QueueManagers, Helm values) and qm.ini as a side of every door
that reads files: validate --file, diff, import mqsc. Fixtures are written here, in tmp_path."""

from __future__ import annotations

import base64
import json
from collections.abc import Callable
from pathlib import Path
from textwrap import dedent

import pytest

from tests.conftest import Result, needs_shared, run_cli

Cli = Callable[..., Result]

UNIFORM_MQSC = """\
* every member applies this file (auto-configuration)
DEFINE CHANNEL('+AUTOCL+_+QMNAME+') CHLTYPE(CLUSRCVR) TRPTYPE(TCP) CONNAME('+CONNAME+') CLUSTER('+AUTOCL+') REPLACE
DEFINE TOPIC(SPORTS) TOPICSTR('/Sport') CLUSTER(UNICL) REPLACE
"""

AUTOCLUSTER_INI = """\
; the uniform cluster, as IBM documents the stanza
autocluster:
  Type=Uniform
  ClusterName=UNICL   # comment after a value
  Repository1Name=QM1
  Repository1Conname=qm1(1414)
  Repository2Name=QM2
  Repository2Conname=qm2(1414)
"""


def block(text: str, indent: int = 4) -> str:
    """TEXT as the lines of a literal block scalar at INDENT."""
    return "".join(" " * indent + line + "\n" if line else "\n" for line in text.splitlines())


def config_map(name: str, data: dict[str, str]) -> str:
    body = "".join(f"  {key}: |\n{block(text)}" for key, text in data.items())
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n{body}"


def queue_manager(
    resource: str,
    name: str,
    mqsc: list[tuple[str, str, list[str]]],
    ini: list[tuple[str, str, list[str]]] = (),
) -> str:
    """``mqsc``/``ini``: (configMap|secret, name, items)."""

    def refs(entries: list[tuple[str, str, list[str]]]) -> str:
        return "".join(
            f"    - {kind}:\n        name: {ref}\n        items:\n"
            + "".join(f"        - {i}\n" for i in items)
            for kind, ref, items in entries
        )

    out = (
        f"apiVersion: mq.ibm.com/v1beta1\nkind: QueueManager\nmetadata:\n  name: {resource}\nspec:\n"
        f"  queueManager:\n    name: {name}\n"
    )
    if mqsc:
        out += "    mqsc:\n" + refs(mqsc)
    if ini:
        out += "    ini:\n" + refs(list(ini))
    return out


def documents(*docs: str) -> str:
    return "---\n".join(docs)


def uniform_estate() -> str:
    """Three queue managers of a uniform cluster defined only by qm.ini AutoCluster and +AUTOCL+/+QMNAME+."""
    docs = [
        config_map("uc-mqsc", {"uniform.mqsc": UNIFORM_MQSC, "uc.ini": AUTOCLUSTER_INI}),
        config_map("qm3-subs", {"subs.mqsc": "DEFINE SUB(FANS) TOPICSTR('/Sport/#') DEST(FANS.Q) REPLACE\n"}),
    ]
    for n in (1, 2, 3):
        docs.append(config_map(f"qm{n}-vars", {"vars.ini": f"Variables:\n  CONNAME=qm{n}(1414)\n"}))
        mqsc = [("configMap", "uc-mqsc", ["uniform.mqsc"])]
        if n == 3:
            mqsc.append(("configMap", "qm3-subs", ["subs.mqsc"]))
        ini = [("configMap", "uc-mqsc", ["uc.ini"]), ("configMap", f"qm{n}-vars", ["vars.ini"])]
        docs.append(queue_manager(f"qm{n}", f"QM{n}", mqsc, ini))
    return documents(*docs)


@pytest.fixture
def lite(sqlite_url: str) -> Cli:
    def invoke(*args: str, stdin: str | None = None) -> Result:
        return run_cli(list(args), db=sqlite_url, stdin=stdin)

    return invoke


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), start=1) if needle in line)


# -- the uniform cluster ----------------------------------------------------------------------------------


def test_uniform_cluster_from_autocluster_and_inserts_validates_imports_and_routes(
    cli: Cli, tmp_path: Path
) -> None:
    estate = tmp_path / "uniform.yaml"
    estate.write_text(uniform_estate())
    checked = cli("validate", "--file", str(estate), "-o", "json", "--fail-on", "info")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    assert checked.json()["findings"] == []  # two full repositories, members, a topic host: all sound
    imported = cli("import", "mqsc", str(estate))
    assert imported.exit_code == 0, imported.stderr
    assert "3 queue managers imported" in imported.stdout
    [cluster] = cli("display", "cluster", "UNICL", "-o", "json").json()  # type: ignore[misc]
    assert cluster["members"] == ["QM1", "QM2", "QM3"] and cluster["repos"] == ["QM1", "QM2"]
    channels = cli("display", "channel", "*", "--qmgr", "QM2", "-o", "json").json()
    assert [(c["name"], c["conname"]) for c in channels] == [("UNICL_QM2", "qm2(1414)")]  # type: ignore[index]
    routed = cli("explain", "--from", "QM1", "--topic", "/Sport/Tennis", "-o", "json")
    assert routed.exit_code == 0, routed.stderr
    assert "FANS" in routed.stdout and "QM3" in routed.stdout


def test_a_misspelt_autocluster_key_is_a_finding_and_leaves_the_repository_out(
    lite: Cli, tmp_path: Path
) -> None:
    ini = AUTOCLUSTER_INI.replace("Repository2Name", "RepositoryName2")
    estate = tmp_path / "uniform.yaml"
    estate.write_text(uniform_estate().replace(block(AUTOCLUSTER_INI), block(ini)))
    result = lite("validate", "--file", str(estate), "-o", "json")
    found = {f["code"]: f for f in result.json()["findings"]}  # type: ignore[index]
    bad = found["INI_ATTRIBUTE_UNKNOWN"]
    assert "RepositoryName2" in bad["message"] and "Repository2Name" in bad["message"]
    assert bad["source"]["line"] == line_of(estate.read_text(), "RepositoryName2")
    assert "FULL_REPOSITORY_COUNT" in found  # QM2 is no full repository without the key
    assert result.exit_code == 1


# -- positions ---------------------------------------------------------------------------------------------


def test_sarif_points_at_the_statement_inside_a_block_scalar(lite: Cli, tmp_path: Path) -> None:
    mqsc = "* header\n\nDEFINE TOPIC(A) TOPICSTR('/A') REPLACE\nDEFINE TOPIC(NEWS) TOPICSTR('/News')\n"
    text = documents(
        config_map("cm", {"a.mqsc": mqsc}), queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])])
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    result = lite("validate", "--file", str(path), "-o", "sarif", "--fail-on", "error")
    [run] = json.loads(result.stdout)["runs"]
    [hit] = [r for r in run["results"] if r["ruleId"] == "MQC034"]
    [where] = hit["locations"]
    assert where["physicalLocation"]["artifactLocation"]["uri"].endswith("/qm.yaml")
    assert where["physicalLocation"]["region"]["startLine"] == line_of(text, "DEFINE TOPIC(NEWS)")


@pytest.mark.parametrize("chomp", ["|", "|-", "|+"])
def test_an_mqsc_error_in_a_block_scalar_names_the_yaml_line_and_column(
    lite: Cli, tmp_path: Path, chomp: str
) -> None:
    text = documents(
        f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a.mqsc: {chomp}\n"
        "      DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\n      DEFINE TOPIC(B) TOPICSTR('/B') WILDCARD(NONSENSE) REPLACE\n",
        queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])]),
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    result = lite("diff", str(path), str(path))
    assert result.exit_code == 2
    line = line_of(text, "WILDCARD(NONSENSE)")
    column = text.splitlines()[line - 1].index("NONSENSE") + 1
    assert result.stderr.startswith(f"mqctl: error: {path}:{line}:"), result.stderr
    assert f":{line}:{column}:" in result.stderr or f":{line}:{column - 9}:" in result.stderr
    assert len(result.stderr.splitlines()) == 1


def test_a_quoted_scalar_points_at_its_start(lite: Cli, tmp_path: Path) -> None:
    text = documents(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n"
        "  a.mqsc: \"DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\\n\\n\\nDEFINE TOPIC(NEWS) TOPICSTR('/News') CLUSTER(CL)\\n\"\n",
        queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])]),
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    findings = lite("validate", "--file", str(path), "-o", "json").json()["findings"]  # type: ignore[index]
    assert {f["code"] for f in findings} >= {"DEFINE_WITHOUT_REPLACE", "TOPIC_HOST_NOT_MEMBER"}
    assert {f["source"]["line"] for f in findings if f["source"]} == {line_of(text, "a.mqsc:")}
    same = lite("diff", str(path), str(path), "-o", "json")
    assert same.exit_code == 0 and same.json()["objects"] == []  # type: ignore[index]


# -- doors: standard input, import, diff ------------------------------------------------------------------


def test_standard_input_is_a_side(lite: Cli) -> None:
    text = documents(
        config_map("cm", {"a.mqsc": "DEFINE TOPIC(A) TOPICSTR('/A') CLUSTER(CL) REPLACE\n"}),
        queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])]),
    )
    result = lite("validate", "--file", "-", "-o", "json", stdin=text)
    codes = {f["code"] for f in result.json()["findings"]}  # type: ignore[index]
    assert "TOPIC_HOST_NOT_MEMBER" in codes or "NO_FULL_REPOSITORY" in codes, result.stdout


def test_diff_of_two_renderings_names_the_changed_topic(lite: Cli, tmp_path: Path) -> None:
    before, after = tmp_path / "before.yaml", tmp_path / "after.yaml"
    before.write_text(uniform_estate())
    after.write_text(uniform_estate().replace("TOPICSTR('/Sport')", "TOPICSTR('/Sports')"))
    result = lite("diff", str(before), str(after), "-o", "json")
    assert result.exit_code == 1, result.stderr  # routing changed
    report = result.json()
    assert report["routing_changed"] is True  # type: ignore[index]
    assert any("SPORTS" in json.dumps(c) for c in report["objects"])  # type: ignore[index]


def test_other_kinds_are_counted_and_unmounted_config_maps_named(lite: Cli, tmp_path: Path) -> None:
    text = documents(
        uniform_estate(),
        config_map("orphan", {"x.mqsc": "DEFINE TOPIC(X) TOPICSTR('/X') REPLACE\n"}),
        "apiVersion: v1\nkind: Service\nmetadata:\n  name: qm1\n",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app\n",
    )
    path = tmp_path / "all.yaml"
    path.write_text(text)
    result = lite("validate", "--file", str(path))
    assert "2 YAML document(s) of other kinds skipped: 1 Deployment, 1 Service" in result.stderr
    assert f"ConfigMap orphan ({path}:{line_of(text, 'name: orphan') - 3})" in result.stderr
    imported = lite("import", "mqsc", str(path))
    assert "ConfigMap orphan" in imported.stderr and imported.exit_code == 0


def test_two_items_with_one_file_name_shadow(lite: Cli, tmp_path: Path) -> None:
    text = documents(
        config_map("a", {"app.mqsc": "DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\n"}),
        config_map("b", {"app.mqsc": "DEFINE TOPIC(B) TOPICSTR('/B') REPLACE\n"}),
        queue_manager("qm", "QM1", [("configMap", "a", ["app.mqsc"]), ("configMap", "b", ["app.mqsc"])]),
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    findings = lite("validate", "--file", str(path), "-o", "json").json()["findings"]  # type: ignore[index]
    [hit] = [f for f in findings if f["code"] == "MOUNTED_ITEM_SHADOWED"]
    assert "ConfigMap a key app.mqsc" in hit["message"] and "only ConfigMap b key app.mqsc" in hit["message"]


def test_a_comment_runmqsc_refuses_stops_the_queue_manager(lite: Cli, tmp_path: Path) -> None:
    mqsc = "-- not a comment in MQSC\nDEFINE TOPIC(A) TOPICSTR('/A') REPLACE\n"
    text = documents(
        config_map("cm", {"a.mqsc": mqsc}), queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])])
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    result = lite("validate", "--file", str(path), "-o", "json")
    found = {f["code"]: f for f in result.json()["findings"]}  # type: ignore[index]
    assert found["AUTOCONFIG_REJECTED_LINE"]["source"]["line"] == line_of(text, "-- not a comment")
    assert "IMPORT_ERROR" in found and result.exit_code == 1


def test_insert_where_mq_does_not_expand_it_is_a_finding(lite: Cli, tmp_path: Path) -> None:
    mqsc = "DEFINE TOPIC(A) TOPICSTR('/+QMNAME+/orders') REPLACE\n"
    text = documents(
        config_map("cm", {"a.mqsc": mqsc}), queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])])
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    findings = lite("validate", "--file", str(path), "-o", "json").json()["findings"]  # type: ignore[index]
    [hit] = [f for f in findings if f["code"] == "INSERT_NOT_EXPANDED"]
    assert "+QMNAME+" in hit["message"] and "TOPICSTR" in hit["message"]


# -- Helm values ---------------------------------------------------------------------------------------------


def test_helm_values_mount_the_config_maps_given(lite: Cli, tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text(
        config_map("uc-mqsc", {"uniform.mqsc": UNIFORM_MQSC, "uc.ini": AUTOCLUSTER_INI})
        + "  vars.ini: |\n    Variables:\n      CONNAME=qm1(1414)\n"
    )
    (tmp_path / "values.yaml").write_text(
        dedent(
            """\
            queueManager:
              name: QM1
              mqscConfigMaps:
              - name: uc-mqsc
                items:
                - uniform.mqsc
              qminiConfigMaps:
              - name: uc-mqsc
                items: [uc.ini, vars.ini]
            """
        )
    )
    imported = lite("import", "mqsc", str(tmp_path))
    assert imported.exit_code == 0, imported.stderr
    [cluster] = lite("display", "cluster", "UNICL", "-o", "json").json()  # type: ignore[misc]
    assert cluster["members"] == ["QM1"] and cluster["repos"] == ["QM1", "QM2"] or cluster["repos"] == ["QM1"]


def test_helm_values_without_a_name_take_the_release_label(lite: Cli, tmp_path: Path) -> None:
    cm = config_map("rel-mqsc", {"a.mqsc": "DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\n"}).replace(
        "  name: rel-mqsc\n", "  name: rel-mqsc\n  labels:\n    app.kubernetes.io/instance: QMREL\n"
    )
    values = "queueManager:\n  mqscConfigMaps:\n  - name: rel-mqsc\n    items: [a.mqsc]\n"
    result = lite("import", "mqsc", "-", stdin=documents(cm, values))
    assert result.exit_code == 0, result.stderr
    assert "QMREL" in result.stdout


# -- refused in one line ---------------------------------------------------------------------------------------


SECRET_VALUE = "s3cr3t-Pa55w0rd-do-not-print"
SECRET_MQSC = f"DEFINE TOPIC(S) TOPICSTR('/S') DESCR('{SECRET_VALUE}') REPLACE\n"


def _secret(data: dict[str, str], string_data: dict[str, str] | None = None) -> str:
    out = "apiVersion: v1\nkind: Secret\nmetadata:\n  name: qm-secret\ndata:\n"
    out += "".join(f"  {k}: {v}\n" for k, v in data.items())
    if string_data:
        out += "stringData:\n" + "".join(f"  {k}: |\n{block(v)}" for k, v in string_data.items())
    return out


def secret_cases(tmp_path: Path) -> dict[str, str]:
    """YAML estates with the Secret's value in them: each case's outputs are searched for it."""
    encoded = base64.b64encode(SECRET_MQSC.encode()).decode()
    bad = base64.b64encode(f"DEFINE TOPIC(S) TOPICSTR('/S') WILDCARD({SECRET_VALUE})\n".encode()).decode()
    qm = queue_manager("qm", "QM1", [("secret", "qm-secret", ["s.mqsc"])])
    return {
        "good": documents(_secret({"s.mqsc": encoded}), qm),
        "string": documents(_secret({}, {"s.mqsc": SECRET_MQSC}), qm),
        "refused": documents(_secret({"s.mqsc": bad}), qm),
        "not-base64": documents(_secret({"s.mqsc": SECRET_VALUE + "!"}), qm),
        "placeholder": documents(
            _secret({}, {"s.mqsc": f"DEFINE TOPIC(S) TOPICSTR('/{{{{{SECRET_VALUE}}}}}')\n"}), qm
        ),
        "no-replace": documents(
            _secret(
                {},
                {
                    "s.mqsc": f"DEFINE TOPIC({SECRET_VALUE[:10].upper().replace('-', '.')}) TOPICSTR('/{SECRET_VALUE}')\n"
                },
            ),
            qm,
        ),
    }


def test_no_secret_value_appears_in_any_output(lite: Cli, tmp_path: Path) -> None:
    outputs = []
    for name, text in secret_cases(tmp_path).items():
        path = tmp_path / f"{name}.yaml"
        path.write_text(text)
        for fmt in ("text", "json", "sarif", "junit"):
            outputs.append(lite("validate", "--file", str(path), "-o", fmt))
        outputs.append(lite("validate", "--file", "-", stdin=text))
        outputs.append(lite("diff", str(path), str(path), "-o", "json"))
        outputs.append(lite("diff", str(path), str(path)))
        outputs.append(lite("import", "mqsc", str(path), "-o", "json"))
    assert any(r.exit_code == 2 for r in outputs) and any(r.exit_code == 0 for r in outputs)
    for result in outputs:
        assert SECRET_VALUE not in result.stdout + result.stderr
        assert SECRET_VALUE[:12] not in result.stdout + result.stderr


def _secret_estate(value: str, *, kind: str = "secret") -> str:
    """QM1 mounting a Secret's MQSC (``value`` its DESCR) and a Secret's qm.ini whose variable (``value``
    too) a ConfigMap's cluster-receiver channel uses: what a pull request can mount of a Secret that its
    pipeline renders with the real values. ``kind="configMap"``: the same in a ConfigMap."""
    mqsc = f"DEFINE TOPIC(S) TOPICSTR('/S') DESCR('{value}') REPLACE\n"
    ini = f"Variables:\n  PEER={value}\n"
    channel = "DEFINE CHANNEL(TO.QM1) CHLTYPE(CLUSRCVR) CONNAME('+PEER+') CLUSTER(C) REPLACE\n"
    held = (
        _secret(
            {
                key: base64.b64encode(text.encode()).decode()
                for key, text in (("s.mqsc", mqsc), ("s.ini", ini))
            }
        )
        if kind == "secret"
        else config_map("qm-secret", {"s.mqsc": mqsc, "s.ini": ini})
    )
    return documents(
        held,
        config_map("qm-mqsc", {"c.mqsc": channel}),
        queue_manager(
            "qm",
            "QM1",
            [(kind, "qm-secret", ["s.mqsc"]), ("configMap", "qm-mqsc", ["c.mqsc"])],
            [(kind, "qm-secret", ["s.ini"])],
        ),
    )


def test_a_secret_s_values_are_never_read_so_no_diff_or_display_shows_them(lite: Cli, tmp_path: Path) -> None:
    """A Secret's items are named, not read: a diff of a changed value, a display after import and the
    findings show neither its MQSC nor its variable's value (docs/cli.md, "Kubernetes YAML")."""
    before, after = tmp_path / "before.yaml", tmp_path / "after.yaml"
    before.write_text(_secret_estate("old-" + SECRET_VALUE))
    after.write_text(_secret_estate(SECRET_VALUE))
    outputs = [lite("diff", str(before), str(after), *fmt) for fmt in ((), ("-o", "json"))]
    outputs += [lite("validate", "--file", str(after), "-o", fmt) for fmt in ("text", "json")]
    imported = lite("import", "mqsc", str(after))
    assert imported.exit_code == 0, imported.stderr
    for kind in ("topic", "channel"):
        outputs += [lite("display", kind, "*", *fmt) for fmt in ((), ("-o", "json"))]
    for result in [imported, *outputs]:
        assert result.exit_code in (0, 1), result.stderr  # 1: a display that matches nothing
        assert SECRET_VALUE not in result.stdout + result.stderr
        assert SECRET_VALUE[:12] not in result.stdout + result.stderr
    for key, line in (("s.mqsc", 6), ("s.ini", 7)):
        assert f"QM1 mounts Secret qm-secret key {key} ({after}:{line}): not read" in imported.stderr
    # the same estate in a ConfigMap: the same outputs show the values (they would, were a Secret's read)
    plain = tmp_path / "plain.yaml"
    plain.write_text(_secret_estate(SECRET_VALUE, kind="configMap"))
    assert SECRET_VALUE in lite("diff", str(before), str(plain), "-o", "json").stdout
    assert lite("import", "mqsc", str(plain)).exit_code == 0
    (channel,) = lite("display", "channel", "*", "-o", "json").json()  # type: ignore[misc]
    assert channel["conname"] == SECRET_VALUE


def test_a_secret_not_in_base64_is_refused_in_one_line(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(secret_cases(tmp_path)["not-base64"])
    result = lite("validate", "--file", str(path))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "Secret qm-secret key s.mqsc: data is not base64" in result.stderr


@pytest.mark.parametrize(
    ("placeholder", "where"),
    [
        ("__qmgrname__", "mqsc"),
        ("${ENV}", "mqsc"),
        ("$(QMNAME)", "mqsc"),
        ("{{ .Values.qm }}", "mqsc"),
        ("__qmgrname__", "name"),
    ],
)
def test_unrendered_placeholders_are_refused_in_one_line(
    lite: Cli, tmp_path: Path, placeholder: str, where: str
) -> None:
    mqsc = f"DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\nDEFINE TOPIC(B) TOPICSTR('/{placeholder}') REPLACE\n"
    if where == "name":
        mqsc = "DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\n"
    qm_name = f"'{placeholder}'" if where == "name" else "QM1"
    text = documents(
        config_map("cm", {"a.mqsc": mqsc}), queue_manager("qm", qm_name, [("configMap", "cm", ["a.mqsc"])])
    )
    path = tmp_path / "qm.yaml"
    path.write_text(text)
    line = line_of(text, placeholder)
    column = text.splitlines()[line - 1].index(placeholder) + 1
    result = lite("validate", "--file", str(path))
    assert result.exit_code == 2
    assert result.stderr == (
        f"mqctl: error: unrendered placeholder {placeholder} at {path}:{line}:{column}: "
        "render with kustomize or helm first\n"
    )


def test_an_unrendered_mqsc_file_is_refused_too(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "QM1.mqsc"
    path.write_text(
        "* a template\nDEFINE CHANNEL('X') CHLTYPE(CLUSRCVR) CONNAME('__qmgrname__-qm(1414)') CLUSTER(C)\n"
    )
    result = lite("validate", "--file", str(path))
    assert result.exit_code == 2
    assert f"unrendered placeholder __qmgrname__ at {path}:2:" in result.stderr


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("kind: ConfigMap\nmetadata:\n  name: [unclosed\n", "not valid YAML"),
        (
            queue_manager("qm", "QM1", [("configMap", "missing", ["a.mqsc"])]),
            "mounts ConfigMap missing, which is not in the files given",
        ),
        (
            documents(
                config_map("cm", {"a.mqsc": "\n"}),
                queue_manager("qm", "QM1", [("configMap", "cm", ["b.mqsc"])]),
            ),
            "mounts key b.mqsc of ConfigMap cm, which has no such key",
        ),
    ],
)
def test_unreadable_yaml_is_refused_in_one_line(lite: Cli, tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    for args in (
        ("validate", "--file", str(path)),
        ("diff", str(path), str(path)),
        ("import", "mqsc", str(path)),
    ):
        result = lite(*args)
        assert result.exit_code == 2, (args, result.stdout, result.stderr)
        assert len(result.stderr.splitlines()) == 1 and message in result.stderr, result.stderr
        assert result.stderr.startswith(f"mqctl: error: {path}:")


# -- Ansible's YAML commands -------------------------------------------------------------------------------

ANSIBLE = """\
---
# mq-ansible runMQCmds: the REST API's JSON-formatted MQSC keys
mq_commands:
  - command: define
    qualifier: channel
    name: CL1.{qm}
    parameters:
      chltype: clusrcvr
      conname: {host}(1414)
      cluster: CL1
      replace: "yes"
  - command: alter
    qualifier: qmgr
    parameters:
      repos: CL1
  - command: define
    qualifier: topic
    name: SPORTS
    parameters:
      topicstr: /Sport
      cluster: CL1
      wildcard: nonsense
  - command: start
    qualifier: listener
"""


def test_ansible_commands_are_one_more_door(lite: Cli, tmp_path: Path) -> None:
    good = tmp_path / "QM7.yml"
    good.write_text(ANSIBLE.format(qm="QM7", host="qm7").replace("      wildcard: nonsense\n", ""))
    result = lite("import", "mqsc", str(good), "-o", "json")
    assert result.exit_code == 0, result.stderr
    [row] = result.json()  # type: ignore[misc]
    assert row["qmgr"] == "QM7" and row["processed"] == 3 and row["not_modelled"] == 1  # START LISTENER
    [topic] = lite("display", "topic", "SPORTS", "--qmgr", "QM7", "-o", "json").json()  # type: ignore[misc]
    assert topic["topicstr"] == "/Sport" and topic["cluster"] == "CL1"
    named = lite("validate", "--file", f"QMX={good}", "-o", "json")
    [finding] = named.json()["findings"]  # type: ignore[index]
    assert finding["nodes"] == ["QMX"] and "QM7" not in finding["message"]  # the name given, not the file's
    bad = tmp_path / "cmds.yml"
    bad.write_text(ANSIBLE.format(qm="QM8", host="qm8"))
    refused = lite("diff", f"QM8={bad}", f"QM8={bad}")
    assert refused.exit_code == 2 and len(refused.stderr.splitlines()) == 1
    assert refused.stderr.startswith(
        f"mqctl: error: {bad}:{line_of(bad.read_text(), '- command: define') + 12}"
    )
    unnamed = lite("validate", "--file", str(bad), "-o", "json")  # the file's stem, cmds, names it
    [error] = unnamed.json()["findings"]  # type: ignore[index]
    assert unnamed.exit_code == 1 and error["code"] == "IMPORT_ERROR" and "WILDCARD" in error["message"]


# -- the real gitops sample (shared/corpus), unrendered and rendered as its pipeline renders it ----------------

GITOPS = (
    "mq-gitops-samples__queue-manager-deployment__queue-managers__uniform-cluster-01__uniform__static-uc.mqsc"
)


@needs_shared("corpus", "mqsc")
def test_the_gitops_sample_is_refused_unrendered_and_validated_rendered(
    lite: Cli, tmp_path: Path, shared_dir: Path
) -> None:
    source = shared_dir / "corpus" / "mqsc" / GITOPS
    refused = lite("validate", "--file", f"QM1={source}")
    assert refused.exit_code == 2
    assert refused.stderr == (
        f"mqctl: error: unrendered placeholder __qmgrname__ at {source}:3:77: render with kustomize or helm first\n"
    )
    # what the sample's pipeline does: sed the placeholders per queue manager, mount the file in a ConfigMap
    docs = [config_map("uc-ini", {"uc.ini": AUTOCLUSTER_INI})]
    for n in (1, 2, 3):
        text = source.read_text().replace("__qmgrname__", f"qm{n}").replace("__ENV__", "prod")
        text = text.replace("__QMGRNAME__", f"QM{n}")
        docs.append(config_map(f"qm{n}-mqsc", {"static-uc.mqsc": text}))
        docs.append(config_map(f"qm{n}-vars", {"vars.ini": f"Variables:\n  CONNAME=qm{n}(1414)\n"}))
        docs.append(
            queue_manager(
                f"qm{n}",
                f"QM{n}",
                [("configMap", f"qm{n}-mqsc", ["static-uc.mqsc"])],
                [("configMap", "uc-ini", ["uc.ini"]), ("configMap", f"qm{n}-vars", ["vars.ini"])],
            )
        )
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(documents(*docs))
    checked = lite("validate", "--file", str(rendered), "-o", "json", "--fail-on", "error")
    assert checked.exit_code == 0, checked.stdout + checked.stderr
    codes = {f["code"] for f in checked.json()["findings"]}  # type: ignore[index]
    assert "IMPORT_ERROR" not in codes and "NO_FULL_REPOSITORY" not in codes
    imported = lite("import", "mqsc", str(rendered))
    assert imported.exit_code == 0, imported.stderr
    [cluster] = lite("display", "cluster", "UNICL", "-o", "json").json()  # type: ignore[misc]
    assert cluster["members"] == ["QM1", "QM2", "QM3"] and cluster["repos"] == ["QM1", "QM2"]
