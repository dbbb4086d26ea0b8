"""``mqctl validate``: rules over a whole model, each a pure function of a ``Topology``.

Usage::

    findings = validate(topology)                        # every rule
    findings = validate(topology, choose_rules(["MQC001"], ["SINGLE_TOPIC_HOST"]))

Findings come sorted (most severe first, then by rule id and objects). The catalogue (ids, codes,
severities) is ``catalogue.RULES``; docs/rules.md explains each rule. Rules that need routing facts ask
the routing engine through ``probe`` and share the model's indexes through ``facts``; each rule reads the
model in a few passes, never object by object against a store.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from mqctl.domain.model import Topology
from mqctl.domain.validation import (
    ems_interest,
    ems_routes,
    mq_clusters,
    mq_hierarchy,
    mq_namespace,
    selectors,
)
from mqctl.domain.validation.catalogue import RULES, Rule, Severity, choose_rules, find_rule
from mqctl.domain.validation.facts import Facts
from mqctl.domain.validation.findings import FileRef, Finding, Source, failing, finding, summary

__all__ = [
    "RULES",
    "FileRef",
    "Finding",
    "Rule",
    "Severity",
    "Source",
    "choose_rules",
    "failing",
    "find_rule",
    "finding",
    "summary",
    "validate",
]

Check = Callable[[Facts], Iterator[Finding]]

CHECKS: dict[str, Check] = {
    "NAMESPACE_CONFLICT": mq_namespace.namespace_conflict,
    "ATTRIBUTE_CONFLICT": mq_namespace.attribute_conflict,
    "LOCAL_SHADOWS_CLUSTER": mq_namespace.local_shadows_cluster,
    "NESTED_CLUSTER_TOPICS": mq_namespace.nested_cluster_topics,
    "CONFLICT_AFFECTS_SUBSCRIBERS": mq_namespace.conflict_affects_subscribers,
    "TOPIC_HOST_ON_FULL_REPOSITORY": mq_clusters.topic_host_on_full_repository,
    "SINGLE_TOPIC_HOST": mq_clusters.single_topic_host,
    "ORDER_NOT_PRESERVED": mq_clusters.order_not_preserved,
    "CLROUTE_WITHOUT_CLUSTER": mq_clusters.clroute_without_cluster,
    "TOPIC_HOST_NOT_MEMBER": mq_clusters.topic_host_not_member,
    "PUBSUB_DISABLED": mq_clusters.pubsub_disabled,
    "WILDCARD_ABOVE_CLUSTER": mq_namespace.wildcard_above_cluster,
    "NO_FULL_REPOSITORY": mq_clusters.no_full_repository,
    "FULL_REPOSITORY_COUNT": mq_clusters.full_repository_count,
    "UNKNOWN_CLUSTER": mq_clusters.unknown_cluster,
    "HIERARCHY_CYCLE": mq_hierarchy.hierarchy_cycle,
    "UNKNOWN_PARENT": mq_hierarchy.unknown_parent,
    "HIERARCHY_WITH_TOPICHOST": mq_hierarchy.hierarchy_with_topichost,
    "PUBSUB_LOOP": mq_hierarchy.pubsub_loop,
    "TOPICSTR_WILDCARD_CHARACTER": mq_clusters.topicstr_wildcard_character,
    "MHOP_DUPLICATE_PATH": ems_routes.mhop_duplicate_path,
    "ZONE_TYPE_MISMATCH": ems_routes.zone_type_mismatch,
    "ROUTE_NAME_NOT_PEER": ems_routes.route_name_not_peer,
    "ONE_HOP_ZONE_TOO_SHORT": ems_routes.one_hop_zone_too_short,
    "UNKNOWN_ROUTE_PEER": ems_routes.unknown_route_peer,
    "DUPLICATE_ROUTE": ems_routes.duplicate_route,
    "SELECTOR_ON_NON_GLOBAL_TOPIC": ems_interest.selector_on_non_global_topic,
    "INVALID_SELECTOR": selectors.invalid_selector,
    "INTERSECTING_GLOBAL_TOPICS": ems_interest.intersecting_global_topics,
    "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL": ems_interest.subscription_not_subset_of_global,
    "STORAGE_UNBOUNDED": ems_interest.storage_unbounded,
    "ACTIVE_PASSIVE_ROUTE": ems_routes.active_passive_route,
    "ROUTE_DURABLE_NOT_STATIC": ems_interest.route_durable_not_static,
}
"""Rule code -> the check that finds it. IMPORT_ERROR has none: the CLI makes it from a file's error."""


def validate(topology: Topology, rules: Iterable[Rule] = RULES) -> list[Finding]:
    """Run the given rules (all by default) over the whole model; findings sorted, most severe first."""
    facts = Facts(topology)
    out: list[Finding] = []
    for rule in rules:
        check = CHECKS.get(rule.code)
        if check is not None:
            out.extend(check(facts))
    return sorted(out, key=Finding.sort_key)
