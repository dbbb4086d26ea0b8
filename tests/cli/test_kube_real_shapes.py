"""Shapes met in public GitOps repositories (issue 32's held-out set), each rebuilt here in a few lines of
YAML: a Secret that also holds a keystore, a chart release whose name has a hyphen, Helm values that leave
the queue manager's name to the release."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from tests.cli.test_kube_cli import Cli, config_map, documents, queue_manager
from tests.conftest import Result, run_cli


@pytest.fixture
def lite(sqlite_url: str) -> Cli:
    def invoke(*args: str, stdin: str | None = None) -> Result:
        return run_cli(list(args), db=sqlite_url, stdin=stdin)

    return invoke


TOPIC = "DEFINE TOPIC(A) TOPICSTR('/A') REPLACE\n"
BINARY = base64.b64encode(bytes(range(256))).decode()
"""A keystore's bytes (.p12, .kdb): base64, but not of UTF-8 text."""


def _secret(name: str, data: dict[str, str]) -> str:
    body = "".join(f"  {k}: {v}\n" for k, v in data.items())
    return f"apiVersion: v1\nkind: Secret\nmetadata:\n  name: {name}\ntype: Opaque\ndata:\n{body}"


def test_a_keystore_beside_the_mqsc_in_a_secret_is_not_read(lite: Cli, tmp_path: Path) -> None:
    secret = _secret("qm-tls", {"key.p12": BINARY, "s.mqsc": base64.b64encode(TOPIC.encode()).decode()})
    qm = queue_manager("qm", "QM1", [("secret", "qm-tls", ["s.mqsc"])])
    path = tmp_path / "qm.yaml"
    path.write_text(documents(secret, qm))
    for args in (
        ("validate", "--file", str(path)),
        ("diff", str(path), str(path)),
        ("import", "mqsc", str(path)),
    ):
        result = lite(*args)
        assert result.exit_code == 0, (args, result.stderr)


def test_an_unmounted_secret_with_an_empty_or_binary_value_is_not_refused(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "qm.yaml"
    path.write_text(
        documents(
            _secret("tls", {"tls.key": "", "ca.p12": BINARY}),
            config_map("cm", {"a.mqsc": TOPIC}),
            queue_manager("qm", "QM1", [("configMap", "cm", ["a.mqsc"])]),
        )
    )
    result = lite("validate", "--file", str(path))
    assert result.exit_code == 0, result.stderr
    assert "Secret tls" in result.stderr  # named as mounted by nothing, not dropped silently


def test_a_mounted_key_that_is_not_text_is_still_refused(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "qm.yaml"
    path.write_text(
        documents(_secret("s", {"a.mqsc": BINARY}), queue_manager("qm", "QM1", [("secret", "s", ["a.mqsc"])]))
    )
    result = lite("validate", "--file", str(path))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert "Secret s key a.mqsc: data is not base64 of UTF-8 text" in result.stderr


def test_a_release_name_with_a_hyphen_names_the_queue_manager_without_it(lite: Cli) -> None:
    cm = config_map("rel-mqsc", {"a.mqsc": TOPIC}).replace(
        "  name: rel-mqsc\n", "  name: rel-mqsc\n  labels:\n    app.kubernetes.io/instance: qm-east\n"
    )
    values = "queueManager:\n  mqscConfigMaps:\n  - name: rel-mqsc\n    items: [a.mqsc]\n"
    result = lite("import", "mqsc", "-o", "json", "-", stdin=documents(cm, values))
    assert result.exit_code == 0, result.stderr
    assert '"qmeast"' in result.stdout


def test_helm_values_without_a_name_are_named_on_the_command_line(lite: Cli, tmp_path: Path) -> None:
    (tmp_path / "cm.yaml").write_text(config_map("helmsecure", {"mq.mqsc": TOPIC}))
    values = tmp_path / "values.yaml"
    values.write_text(
        "license: accept\nqueueManager:\n  mqscConfigMaps:\n  - name: helmsecure\n    items: [mq.mqsc]\n"
    )
    refused = lite("validate", "--file", str(values), "--file", str(tmp_path / "cm.yaml"))
    assert refused.exit_code == 2 and f"give it as QM1={values}" in refused.stderr
    named = lite("import", "mqsc", "-o", "json", f"secureapp={values}", str(tmp_path / "cm.yaml"))
    assert named.exit_code == 0, named.stderr
    assert '"secureapp"' in named.stdout
    checked = lite("validate", "--file", f"secureapp={values}", "--file", str(tmp_path / "cm.yaml"))
    assert checked.exit_code == 0, checked.stderr


def test_the_blank_entry_of_a_template_cmds_file_is_named_as_such(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "cmds.yml"
    path.write_text("# fill in\nmq_commands:\n  - command:\n    name:\n    parameters:\n    qualifier:\n")
    result = lite("import", "mqsc", f"QM1={path}")
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert f"{path}:3" in result.stderr and "an mq_commands entry without command:" in result.stderr


def test_a_chart_template_that_is_no_yaml_yet_is_named_unrendered(lite: Cli, tmp_path: Path) -> None:
    path = tmp_path / "configmap.yaml"
    path.write_text(
        "kind: ConfigMap\nmetadata:\n  name: x\ndata:\n  {{- toYaml .Values.mqsc | nindent 2 }}\n"
    )
    result = lite("validate", "--file", str(path))
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert f"unrendered placeholder {{{{- toYaml .Values.mqsc | nindent 2 }}}} at {path}:5:3" in result.stderr
