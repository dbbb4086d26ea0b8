"""The rule catalogue is a contract: ids, codes and severities that CI jobs select and baseline by."""

from __future__ import annotations

import pytest

from mqctl.domain.errors import InputError
from mqctl.domain.model import Membership
from mqctl.domain.validation import CHECKS, RULES, Severity, choose_rules, find_rule, summary, validate
from mqctl.domain.validation.catalogue import FILE_RULES
from tests.domain.mq_builders import qm, topic, topo

# The codes and severities the issue (#9) names; ids follow the catalogue order.
ISSUE_SEVERITIES = {
    "NAMESPACE_CONFLICT": "error",
    "ATTRIBUTE_CONFLICT": "error",
    "LOCAL_SHADOWS_CLUSTER": "warning",
    "NESTED_CLUSTER_TOPICS": "warning",
    "CONFLICT_AFFECTS_SUBSCRIBERS": "warning",
    "TOPIC_HOST_ON_FULL_REPOSITORY": "warning",
    "SINGLE_TOPIC_HOST": "info",
    "ORDER_NOT_PRESERVED": "info",
    "CLROUTE_WITHOUT_CLUSTER": "error",
    "TOPIC_HOST_NOT_MEMBER": "error",
    "PUBSUB_DISABLED": "error",
    "WILDCARD_ABOVE_CLUSTER": "warning",
    "NO_FULL_REPOSITORY": "error",
    "FULL_REPOSITORY_COUNT": "warning",
    "UNKNOWN_CLUSTER": "warning",
    "HIERARCHY_CYCLE": "error",
    "UNKNOWN_PARENT": "error",
    "HIERARCHY_WITH_TOPICHOST": "error",
    "PUBSUB_LOOP": "warning",
    "TOPICSTR_WILDCARD_CHARACTER": "warning",
    "MHOP_DUPLICATE_PATH": "error",
    "ZONE_TYPE_MISMATCH": "error",
}
ISSUE_CODES_WITHOUT_SEVERITY = {
    "ROUTE_NAME_NOT_PEER",
    "ONE_HOP_ZONE_TOO_SHORT",
    "UNKNOWN_ROUTE_PEER",
    "DUPLICATE_ROUTE",
    "SELECTOR_ON_NON_GLOBAL_TOPIC",
    "INVALID_SELECTOR",
    "INTERSECTING_GLOBAL_TOPICS",
    "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL",
    "STORAGE_UNBOUNDED",
    "ACTIVE_PASSIVE_ROUTE",
}


def test_ids_and_codes_are_unique_and_numbered_in_order() -> None:
    assert [r.id for r in RULES] == [f"MQC{i:03d}" for i in range(1, len(RULES) + 1)]
    assert len({r.code for r in RULES}) == len(RULES)
    assert all(r.code.isupper() and " " not in r.code for r in RULES)


def test_every_code_of_the_issue_is_there_with_its_severity() -> None:
    by_code = {r.code: r for r in RULES}
    for code, severity in ISSUE_SEVERITIES.items():
        assert by_code[code].severity == severity, code
    assert by_code.keys() >= ISSUE_CODES_WITHOUT_SEVERITY


def test_every_rule_has_a_check_but_import_errors() -> None:
    assert {r.code for r in RULES} - CHECKS.keys() == FILE_RULES
    assert all(r.summary and r.why and r.fix for r in RULES)


def test_rules_are_chosen_by_id_or_code_in_any_case() -> None:
    assert [r.code for r in choose_rules(["mqc001", "single_topic_host"])] == [
        "NAMESPACE_CONFLICT",
        "SINGLE_TOPIC_HOST",
    ]
    assert len(choose_rules()) == len(RULES)
    assert "MQC001" not in {r.id for r in choose_rules(ignore=["NAMESPACE_CONFLICT"])}
    assert choose_rules(["MQC001"], ["MQC001"]) == ()
    assert find_rule(" MQC013 ").code == "NO_FULL_REPOSITORY"
    with pytest.raises(InputError, match="not a rule id or code"):
        choose_rules(["NO_SUCH_RULE"])


def test_findings_come_most_severe_first_with_a_summary_of_every_severity() -> None:
    t = topo(
        qm("QM1"),
        qm("QM2"),
        Membership("QM1", "CL1"),
        Membership("QM2", "CL1", full_repository=True),
        topic("QM1", "T", "/a/#"),
    )
    findings = validate(t)
    assert [f.rule.code for f in findings] == ["FULL_REPOSITORY_COUNT", "TOPICSTR_WILDCARD_CHARACTER"]
    assert summary(findings) == {"error": 0, "warning": 2, "info": 0}
    assert summary([]) == {"error": 0, "warning": 0, "info": 0}
    assert [s.rank for s in Severity] == [3, 2, 1]


def test_an_empty_model_has_no_findings() -> None:
    assert validate(topo()) == []
