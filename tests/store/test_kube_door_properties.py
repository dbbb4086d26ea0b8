"""The same estate as MQSC files and as Kubernetes YAML gives the same model (property-based, SQLite):
random models built through the object commands are exported (`export mqsc --all`), wrapped in
ConfigMaps mounted by QueueManagers, and in ConfigMaps named by Helm values, and imported from each."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.cli.test_kube_cli import block
from tests.conftest import fresh_store, run_cli
from tests.store.test_door_properties import _build, mq_commands
from tests.store.test_one_model import model

PROPERTY = settings(
    max_examples=6,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)


def config_map(name: str, key: str, text: str) -> str:
    return f"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {name}\ndata:\n  {key}: |\n{block(text)}"


def wrap_operator(files: list[Path]) -> str:
    docs = []
    for path in files:
        qm = path.stem
        cm = f"{qm.lower()}-mqsc"
        docs.append(config_map(cm, path.name, path.read_text()))
        docs.append(
            f"apiVersion: mq.ibm.com/v1beta1\nkind: QueueManager\nmetadata:\n  name: {qm.lower()}\nspec:\n"
            f"  queueManager:\n    name: {qm}\n    mqsc:\n    - configMap:\n        name: {cm}\n"
            f"        items:\n        - {path.name}\n"
        )
    return "---\n".join(docs)


def wrap_helm(path: Path, folder: Path) -> None:
    """One release per queue manager: its ConfigMap, and a values file naming it."""
    qm = path.stem
    (folder / f"{qm}-cm.yaml").write_text(config_map(f"{qm.lower()}-mqsc", "config.mqsc", path.read_text()))
    (folder / f"{qm}-values.yaml").write_text(
        f"queueManager:\n  name: {qm}\n  mqscConfigMaps:\n  - name: {qm.lower()}-mqsc\n    items:\n"
        "    - config.mqsc\n"
    )


@given(mq=mq_commands())
@PROPERTY
@pytest.mark.slow
def test_mqsc_folders_and_kubernetes_yaml_give_the_same_model(
    sqlite_url: str, tmp_path_factory: pytest.TempPathFactory, mq: list[list[str]]
) -> None:
    tmp = tmp_path_factory.mktemp("kube")
    first = fresh_store(sqlite_url, tmp / "first.db")
    _build(first, mq)
    done = run_cli(["export", "mqsc", "--all", "--out", str(tmp / "mqsc")], db=first)
    assert done.exit_code == 0, done.stderr
    files = sorted((tmp / "mqsc").glob("*.mqsc"))
    from_mqsc = fresh_store(sqlite_url, tmp / "mqsc.db")
    assert run_cli(["import", "mqsc", str(tmp / "mqsc")], db=from_mqsc).exit_code == 0
    expected = model(lambda *a: run_cli(list(a), db=from_mqsc))

    operator = tmp / "operator.yaml"
    operator.write_text(wrap_operator(files))
    from_operator = fresh_store(sqlite_url, tmp / "operator.db")
    done = run_cli(["import", "mqsc", str(operator)], db=from_operator)
    assert done.exit_code == 0, done.stderr
    assert model(lambda *a: run_cli(list(a), db=from_operator)) == expected

    helm = tmp / "helm"
    helm.mkdir()
    for path in files:
        wrap_helm(path, helm)
    from_helm = fresh_store(sqlite_url, tmp / "helm.db")
    done = run_cli(["import", "mqsc", str(helm)], db=from_helm)
    assert done.exit_code == 0, done.stderr
    assert model(lambda *a: run_cli(list(a), db=from_helm)) == expected

    # validate reads the three alike: the same findings, wherever their definitions stand
    def findings(*args: str) -> list[tuple[str, tuple[str, ...]]]:
        out = run_cli(["validate", *args, "-o", "json"], db=first).json()
        return sorted((f["code"], tuple(f["objects"])) for f in out["findings"])  # type: ignore[index]

    assert (
        findings("--file", str(tmp / "mqsc"))
        == findings("--file", str(operator))
        == findings("--file", str(helm))
    )
