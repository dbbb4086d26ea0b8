"""The rule catalogue of ``mqctl validate``: stable ids, symbolic codes, severities and help texts.

Ids (``MQC001`` …) and codes are a contract: CI jobs select, ignore and baseline findings by them, so a
rule keeps its id and code for ever and a retired rule's id is never reused. The long explanation of
every rule, with the references it rests on, is docs/rules.md; ``why`` and ``fix`` here are its short
form, shipped inside SARIF files where no documentation site is at hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from mqctl.domain.errors import InputError


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Higher is more severe: ``--fail-on`` compares ranks."""
        return {Severity.ERROR: 3, Severity.WARNING: 2, Severity.INFO: 1}[self]


@dataclass(frozen=True, slots=True)
class Rule:
    id: str
    code: str
    severity: Severity
    summary: str
    """One line: what the rule finds."""
    why: str
    """Why it matters, with the references (sections of docs/semantics.md, reference documents)."""
    fix: str


ERROR, WARNING, INFO = Severity.ERROR, Severity.WARNING, Severity.INFO

RULES: tuple[Rule, ...] = (
    Rule(
        "MQC001",
        "NAMESPACE_CONFLICT",
        ERROR,
        "A queue manager in overlapping clusters sees clustered topic objects of different clusters with "
        "the same TOPICSTR or the same name.",
        "Each queue manager has one topic tree for all its clusters. MQ reports the clash but keeps only "
        "the most recent definition, so routing becomes nondeterministic (reference 001; docs/semantics.md §3).",
        "Treat the topic namespace as spanning every cluster: give the objects distinct names and "
        "TOPICSTRs, or cluster the topic in one cluster only.",
    ),
    Rule(
        "MQC002",
        "ATTRIBUTE_CONFLICT",
        ERROR,
        "Definitions of one clustered topic (same TOPICSTR or name, same cluster) differ in an attribute.",
        "Every host of a clustered topic must define it alike; MQ refuses a different CLROUTE and uses "
        "only the most recent definition for the rest (docs/semantics.md §3, §9).",
        "Define the topic with the same attributes on every host (or delete the stray definition).",
    ),
    Rule(
        "MQC003",
        "LOCAL_SHADOWS_CLUSTER",
        WARNING,
        "A local topic object hides a clustered object of the same TOPICSTR or name on a cluster member.",
        "On that queue manager the local object wins, so the branch is not clustered there: its "
        "publications and subscriptions stay local (reference 004; docs/semantics.md §3, §9).",
        "Delete the local object, or give it another name and TOPICSTR if both are meant.",
    ),
    Rule(
        "MQC004",
        "NESTED_CLUSTER_TOPICS",
        WARNING,
        "On a queue manager in two clusters, a clustered object lies above or below one of the other cluster.",
        "A subscription resolves to one cluster point only, so a branch clustered in one cluster under a "
        "point of another splits the topic space (reference 001; docs/semantics.md §3).",
        "Cluster sibling branches rather than nested ones, or cluster the whole branch in one cluster.",
    ),
    Rule(
        "MQC005",
        "CONFLICT_AFFECTS_SUBSCRIBERS",
        WARNING,
        "A definition conflict on a queue manager keeps its subscriptions from receiving publications "
        "from elsewhere.",
        "The queue manager routes its proxy subscriptions by the definition it kept, so publications "
        "made under the other definition never reach it; explain reports NO_PATH for them and this "
        "finding names the cause (reference 001; docs/semantics.md §3, §4).",
        "Resolve the conflict named in the message (NAMESPACE_CONFLICT or ATTRIBUTE_CONFLICT).",
    ),
    Rule(
        "MQC006",
        "TOPIC_HOST_ON_FULL_REPOSITORY",
        WARNING,
        "A topic-host routed topic is hosted on a full repository of its cluster.",
        "Topic hosts carry every publication of their branch; IBM recommends not to load full "
        "repositories with that work (reference 000).",
        "Host the topic on other members of the cluster.",
    ),
    Rule(
        "MQC007",
        "SINGLE_TOPIC_HOST",
        INFO,
        "A topic-host routed topic has one host: a single point of failure.",
        "Every publication from a non-host goes through the host; when it is down publications wait "
        "(reference 000, 'Summary and additional considerations'; docs/semantics.md §5.3, §5.6).",
        "Define the topic alike on a second member, accepting that ordering is then not preserved.",
    ),
    Rule(
        "MQC008",
        "ORDER_NOT_PRESERVED",
        INFO,
        "A topic-host routed topic has several hosts sharing the publications: message order is not kept.",
        "Each publication goes through one host chosen by cluster workload balancing, so ordering "
        "across messages is not maintained (reference 000; docs/semantics.md §5.3, §9 'Topic host choice').",
        "Accept it, or keep one host in use (a higher CLWLRANK or CLWLPRTY on one host's CLUSRCVR channel).",
    ),
    Rule(
        "MQC009",
        "CLROUTE_WITHOUT_CLUSTER",
        ERROR,
        "A topic object sets CLROUTE(TOPICHOST) without a CLUSTER.",
        "CLROUTE counts only on the object that names the cluster (the cluster point), so topic host "
        "routing is not in force and the queue manager does not host the topic (docs/semantics.md §9 'Cluster point').",
        "Add CLUSTER(name) to the object, or remove CLROUTE(TOPICHOST).",
    ),
    Rule(
        "MQC010",
        "TOPIC_HOST_NOT_MEMBER",
        ERROR,
        "A clustered topic object is defined on a queue manager that is not a member of its cluster.",
        "The full repositories never learn of it, so the definition reaches nobody (reference 004; "
        "docs/semantics.md §9 'Definitions').",
        "Make the queue manager a member (a CLUSRCVR channel in the cluster) or define the object on a member.",
    ),
    Rule(
        "MQC011",
        "PUBSUB_DISABLED",
        ERROR,
        "PSMODE(DISABLED) or PSCLUS(DISABLED) switches off what a clustered topic or hierarchy needs.",
        "With PSMODE(DISABLED) the publish/subscribe engine does not run; with PSCLUS(DISABLED) the "
        "queue manager takes no part in publish/subscribe in its clusters (docs/semantics.md §9 'Not routed on').",
        "Set PSMODE(ENABLED) and PSCLUS(ENABLED), or remove the clustered topics and hierarchy links.",
    ),
    Rule(
        "MQC012",
        "WILDCARD_ABOVE_CLUSTER",
        WARNING,
        "A wildcard subscription lies above clustered branches it will not receive remote publications from.",
        "Proxy subscriptions are made only for subscriptions that resolve at or below a cluster point; "
        "a wildcard above it receives only what other subscriptions bring (reference 004; reference 001 "
        "'Overlapping clusters, wildcarded subscriptions'; docs/semantics.md §4.2, §5.5).",
        "Subscribe to each clustered branch separately.",
    ),
    Rule(
        "MQC013",
        "NO_FULL_REPOSITORY",
        ERROR,
        "A cluster has no full repository in the model.",
        "Full repositories push clustered topic definitions to every member; without one nothing is "
        "shared (reference 004). explain routes as if one existed (docs/semantics.md §9).",
        "Make two members full repositories (ALTER QMGR REPOS(cluster)).",
    ),
    Rule(
        "MQC014",
        "FULL_REPOSITORY_COUNT",
        WARNING,
        "A cluster has one full repository, or more than two.",
        "MQ recommends two full repositories: one is a single point of failure, more than two add work "
        "without more availability (reference 004).",
        "Keep exactly two full repositories in each cluster.",
    ),
    Rule(
        "MQC015",
        "UNKNOWN_CLUSTER",
        WARNING,
        "A topic object or cluster channel names a cluster no queue manager belongs to.",
        "A cluster exists through its members; a name with none is usually a typing mistake, and the "
        "object is shared with nobody (docs/semantics.md §1, §3).",
        "Correct the cluster name, or make queue managers members of that cluster.",
    ),
    Rule(
        "MQC016",
        "HIERARCHY_CYCLE",
        ERROR,
        "Queue managers name each other as PARENT in a loop.",
        "A publish/subscribe hierarchy is a tree: each queue manager has one parent and no ancestor of "
        "its own (docs/semantics.md §1, §4.3).",
        "Remove one PARENT of the loop (ALTER QMGR PARENT('')).",
    ),
    Rule(
        "MQC017",
        "UNKNOWN_PARENT",
        ERROR,
        "A queue manager's PARENT is not a queue manager of the model.",
        "The hierarchy link leads nowhere: no proxy subscription or publication crosses it (docs/semantics.md §1, §4.3).",
        "Correct the PARENT name or add the parent queue manager's definitions.",
    ),
    Rule(
        "MQC018",
        "HIERARCHY_WITH_TOPICHOST",
        ERROR,
        "A hierarchy joins a cluster whose topics are topic-host routed with queue managers outside it.",
        "IBM supports joining clusters with a hierarchy for direct routed topics only (docs/semantics.md §4.3).",
        "Use CLROUTE(DIRECT) for topics that cross the hierarchy, or join the clusters otherwise.",
    ),
    Rule(
        "MQC019",
        "PUBSUB_LOOP",
        WARNING,
        "A hierarchy link lies beside a cluster that already joins the same queue managers.",
        "Publications then have two paths between them; MQ discards looping copies by fingerprint but "
        "subscribers can see duplicates (reference 001 'Integrating multiple publish/subscribe clusters'; "
        "docs/semantics.md §4.3).",
        "Remove the hierarchy link, or keep the two queue managers in different clusters.",
    ),
    Rule(
        "MQC020",
        "TOPICSTR_WILDCARD_CHARACTER",
        WARNING,
        "A topic object's TOPICSTR contains '#', '+' or '*'.",
        "In a TOPICSTR these characters are literal, not wildcards, so the object does not cover the "
        "branch the author probably meant (reference 001 reading note; docs/semantics.md §2).",
        "Give the branch itself as TOPICSTR ('/Sport', not '/Sport/#').",
    ),
    Rule(
        "MQC021",
        "MHOP_DUPLICATE_PATH",
        ERROR,
        "The routes of a multi-hop zone let a message reach a server along two paths.",
        "EMS requires a multi-hop zone's routes to form a tree; a loop is an error EMS reports "
        "(docs/semantics.md §6 'Uniqueness').",
        "Remove a route of the loop, or put the redundant routes in a one-hop zone.",
    ),
    Rule(
        "MQC022",
        "ZONE_TYPE_MISMATCH",
        ERROR,
        "Routes of one zone disagree on the zone type (mhop and 1hop).",
        "All routes of a zone share its type; mqctl treats a mixed zone as one-hop (docs/semantics.md §6, §9).",
        "Give every route of the zone the same zone_type.",
    ),
    Rule(
        "MQC023",
        "ROUTE_NAME_NOT_PEER",
        ERROR,
        "A route is not named after the server it leads to (routes to one URL under different names, or a "
        "route to an unknown server beside an unanswered one).",
        "A route is named after its peer's `server` name; a route whose name is not the peer's name "
        "does not connect (reference 002; docs/semantics.md §6).",
        "Name every route after the server it leads to.",
    ),
    Rule(
        "MQC024",
        "ONE_HOP_ZONE_TOO_SHORT",
        WARNING,
        "Two servers of a one-hop zone are connected only through a third server of that zone.",
        "In a one-hop zone a message that arrived over a route of the zone is not forwarded over another "
        "route of it, so those servers never exchange messages within the zone (docs/semantics.md §6).",
        "Add a direct route between them, or make the zone multi-hop.",
    ),
    Rule(
        "MQC025",
        "UNKNOWN_ROUTE_PEER",
        WARNING,
        "A route leads to a server of which the model holds no configuration.",
        "Topic messages cross a route only where the topic is global on both servers; a server known "
        "only by name has no global topics (docs/semantics.md §6).",
        "Import the peer's configuration too, or correct the route name.",
    ),
    Rule(
        "MQC026",
        "DUPLICATE_ROUTE",
        ERROR,
        "One server has two routes to the same URL.",
        "Both lead to one server, which has one name: one route never connects, or the server is "
        "reached twice (docs/semantics.md §6).",
        "Keep one route to each server.",
    ),
    Rule(
        "MQC027",
        "SELECTOR_ON_NON_GLOBAL_TOPIC",
        WARNING,
        "A route selector names a topic that is not global on the route's servers.",
        "Route selectors apply to global topics; a topic that is not global never crosses the route, "
        "so the selector selects nothing (reference 002 'Specifying Selectors'; docs/semantics.md §6).",
        "Make the topic global on both servers, or remove the selector.",
    ),
    Rule(
        "MQC028",
        "INVALID_SELECTOR",
        ERROR,
        "A subscription or route selector is not a valid JMS message selector.",
        "A selector that does not parse is refused by the broker (docs/semantics.md §7).",
        "Correct the selector (mqctl selector test shows the column of the error).",
    ),
    Rule(
        "MQC029",
        "INTERSECTING_GLOBAL_TOPICS",
        WARNING,
        "Two global wildcard definitions on one server overlap without one containing the other.",
        "EMS supports routing only where a subscription is a subset of a global definition; "
        "intersections are not supported (reference 002 'Wildcards'; docs/semantics.md §6).",
        "Define the global topics as nested patterns (one containing the other) or disjoint ones.",
    ),
    Rule(
        "MQC030",
        "SUBSCRIPTION_NOT_SUBSET_OF_GLOBAL",
        WARNING,
        "A subscription on a routed server intersects a global topic but is a subset of none.",
        "Routing is only reliably supported when the subscription's topic is a subset of (or equal to) "
        "a global definition (reference 002 'Wildcards'; docs/semantics.md §6, §9 'EMS interest').",
        "Subscribe within a global definition, or widen the global definition.",
    ),
    Rule(
        "MQC031",
        "STORAGE_UNBOUNDED",
        WARNING,
        "Durable subscribers sit behind routes where a forwarding server limits neither maxbytes nor maxmsgs.",
        "Forwarding servers store messages while a subscriber's server is unreachable; without a limit "
        "that storage can grow without bound (reference 003 'maxbytes'; docs/semantics.md §6, §9 'Warnings').",
        "Set maxbytes or maxmsgs on the topic on every forwarding server.",
    ),
    Rule(
        "MQC032",
        "ACTIVE_PASSIVE_ROUTE",
        WARNING,
        "A route carrying global topics is defined on one of its two servers only.",
        "An active-passive route can lose messages (a gap) when the defining side fails and can deliver "
        "duplicates when the other side does (reference 003 'Server Failure'; docs/semantics.md §6, §9 'Failures').",
        "Define the route on both servers (active-active).",
    ),
    Rule(
        "MQC033",
        "IMPORT_ERROR",
        ERROR,
        "A file given with --file could not be imported.",
        "mqctl import refuses the file as a whole, so the model validated lacks its definitions.",
        "Correct the file at the line named.",
    ),
    Rule(
        "MQC034",
        "DEFINE_WITHOUT_REPLACE",
        WARNING,
        "A DEFINE without REPLACE in MQSC that the queue manager's container applies at every start.",
        "Auto-configuration replays the file at each start; from the second on the DEFINE fails because "
        "the object exists (IBM, 'Automatic configuration from an MQSC script at startup'; docs/semantics.md §10).",
        "Add REPLACE to every DEFINE of a file applied at start.",
    ),
    Rule(
        "MQC035",
        "AUTOCONFIG_REJECTED_LINE",
        ERROR,
        "A line runmqsc refuses in MQSC applied at start (a `-- comment`: MQSC comments start with *).",
        "The container applies its MQSC at every start and a script with an error stops the queue manager "
        "from starting (docs/semantics.md §10).",
        "Correct the line; write comments with * in column 1.",
    ),
    Rule(
        "MQC036",
        "MOUNTED_ITEM_SHADOWED",
        WARNING,
        "Two ConfigMap/Secret items mounted into one queue manager have the same file name.",
        "They land in one folder of the container: one replaces the other, and its definitions are never "
        "applied (docs/semantics.md §10).",
        "Give the items distinct file names (the key is the file name).",
    ),
    Rule(
        "MQC037",
        "INSERT_NOT_EXPANDED",
        WARNING,
        "An MQ insert variable (+NAME+) where the queue manager does not expand it.",
        "Automatic configuration expands its variables only in a cluster-receiver channel's name, CONNAME "
        "and CLUSTER; anywhere else the text stays as written (IBM, 'Variables stanza of the qm.ini file'; "
        "docs/semantics.md §10).",
        "Write the value itself, or render it before deployment.",
    ),
    Rule(
        "MQC038",
        "INI_ATTRIBUTE_UNKNOWN",
        ERROR,
        "A qm.ini fragment holds an attribute its stanza does not have (AutoCluster RepositoryName1).",
        "The queue manager ignores an attribute it does not know: a misspelt AutoCluster key leaves the "
        "uniform cluster without that full repository (IBM, 'AutoCluster stanza of the qm.ini file'; "
        "docs/semantics.md §10).",
        "Spell the attribute as IBM documents it: Repository1Name, Repository1Conname, Repository2Name, "
        "Repository2Conname, ClusterName, Type.",
    ),
    Rule(
        "MQC039",
        "SYSTEM_TOPIC_CLUSTERED",
        ERROR,
        "A script sets CLUSTER on SYSTEM.BASE.TOPIC or SYSTEM.DEFAULT.TOPIC.",
        "SYSTEM.BASE.TOPIC is the root of the topic tree: clustered, every topic string of the queue "
        "manager enters the cluster; SYSTEM.DEFAULT.TOPIC gives its attributes to new topic objects "
        "(docs/semantics.md §3; IBM, 'Defining cluster topics').",
        "Cluster a topic object for the branch meant (DEFINE TOPIC(X) TOPICSTR('branch') CLUSTER(CL)).",
    ),
    Rule(
        "MQC040",
        "REFRESH_IN_PUBSUB_CLUSTER",
        WARNING,
        "A script runs REFRESH CLUSTER or REFRESH QMGR TYPE(PROXYSUB) on a member of a publish/subscribe cluster.",
        "While the cluster's knowledge or the proxy subscriptions are rebuilt, publications can be lost "
        "(IBM, 'REFRESH CLUSTER considerations for publish/subscribe clusters'; docs/semantics.md §4).",
        "Run REFRESH only by hand, following IBM's procedure for publish/subscribe clusters; not in a "
        "script applied at every start.",
    ),
    Rule(
        "MQC041",
        "EMS_CONFIG_KEY_UNKNOWN",
        WARNING,
        "A tibemsd.json holds a top-level member the EMS server does not know.",
        "The server ignores it without a word, so what it was meant to configure is not configured "
        "(TIBCO EMS, the tibemsd.json configuration file; docs/semantics.md §6).",
        "Spell the member as the EMS documentation does (topics, routes, durables, queues, ...), or remove it.",
    ),
    Rule(
        "MQC042",
        "ROUTE_DURABLE_NOT_STATIC",
        WARNING,
        "A server stores for a neighbour's durable subscribers over a route without a static route durable.",
        "The route durable a server creates dynamically for its neighbour's interest is not in its "
        "durables.conf, so it is lost when the server restarts (reference 002 on durable subscribers "
        "and routes; docs/semantics.md §6).",
        "Define the route durable statically on the storing server: `TOPIC NEIGHBOUR route` in durables.conf.",
    ),
)

FILE_RULES = frozenset(
    {
        "IMPORT_ERROR",
        "DEFINE_WITHOUT_REPLACE",
        "AUTOCONFIG_REJECTED_LINE",
        "MOUNTED_ITEM_SHADOWED",
        "INSERT_NOT_EXPANDED",
        "INI_ATTRIBUTE_UNKNOWN",
        "SYSTEM_TOPIC_CLUSTERED",
        "REFRESH_IN_PUBSUB_CLUSTER",
        "EMS_CONFIG_KEY_UNKNOWN",
    }
)
"""Rules found while the files are read (no check over the model): ``validate --file`` reports them."""

BY_CODE: dict[str, Rule] = {rule.code: rule for rule in RULES}
_BY_KEY: dict[str, Rule] = {key: rule for rule in RULES for key in (rule.id, rule.code)}


def find_rule(key: str) -> Rule:
    """A rule by id or code, any case; an unknown one is a usage error listing the codes."""
    rule = _BY_KEY.get(key.strip().upper())
    if rule is None:
        raise InputError(f"{key!r} is not a rule id or code (see docs/rules.md)", attribute="rule")
    return rule


def choose_rules(select: Iterable[str] = (), ignore: Iterable[str] = ()) -> tuple[Rule, ...]:
    """The rules ``--select`` keeps (all without it) minus those ``--ignore`` drops, catalogue order."""
    chosen = {find_rule(k).id for k in select} or {r.id for r in RULES}
    chosen -= {find_rule(k).id for k in ignore}
    return tuple(r for r in RULES if r.id in chosen)
