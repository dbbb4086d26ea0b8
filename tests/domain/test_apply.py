"""Edits as values through one ``apply``: every kind, the facts from outside, what changed, and the rules
the doors used to restate (a route's zone, a route to itself, its URL; API and SUBID are MQ only)."""

from __future__ import annotations

import pytest

from mqctl.domain.errors import ConflictError, InputError
from mqctl.domain.model import (
    Channel,
    ChannelType,
    Cluster,
    Dialect,
    Direction,
    Membership,
    Namelist,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    SubType,
    TopicObject,
    ZoneType,
)
from mqctl.domain.objects import attributes
from mqctl.domain.objects.apply import apply
from mqctl.domain.objects.edit import AlreadyDefined, NotDefined
from mqctl.domain.objects.edits import (
    CLUSTER_PARTS,
    KIND_OF,
    Alter,
    Define,
    Delete,
    Facts,
    Kind,
    alterable,
    reads,
)


def mq() -> NodeState:
    return NodeState(Node("QM1"))


def ems() -> NodeState:
    return NodeState(Node("S1", Dialect.EMS))


def test_define_alter_delete_of_an_mq_topic_object() -> None:
    state = mq()
    made = apply(state, Define(TopicObject("QM1", "SPORT", "sport")), seq=1)
    assert made.before is None and not made.replaced and state.topics["SPORT"].seq == 1
    again = apply(state, Define(TopicObject("QM1", "SPORT", "sport", descr="x"), replace=True), seq=2)
    assert again.replaced and again.before is made.after and state.topics["SPORT"].descr == "x"
    altered = apply(state, Alter(Kind.TOPIC, "SPORT", {"descr": "y"}), seq=3)
    assert (altered.before, altered.after) == (again.after, state.topics["SPORT"])
    gone = apply(state, Delete(Kind.TOPIC, "SPORT"), seq=4)
    assert gone.after is None and gone.before == altered.after and state.topics == {}


def test_already_defined_and_not_defined_are_the_one_rule() -> None:
    state = mq()
    apply(state, Define(TopicObject("QM1", "SPORT", "sport")), seq=1)
    with pytest.raises(AlreadyDefined):
        apply(state, Define(TopicObject("QM1", "SPORT", "sport")), seq=2)
    with pytest.raises(NotDefined):
        apply(state, Alter(Kind.TOPIC, "NOPE", {"descr": "x"}), seq=3)
    with pytest.raises(NotDefined):
        apply(state, Delete(Kind.SUB, "NOPE"), seq=4)


def test_the_holder_of_a_topicstr_is_a_fact() -> None:
    with pytest.raises(InputError, match="already used by topic object OTHER"):
        apply(mq(), Define(TopicObject("QM1", "SPORT", "sport")), seq=1, facts=Facts(topicstr_holder="OTHER"))


def test_an_observed_subscription_keeps_the_topic_string_display_shows() -> None:
    """DISPLAY SUB shows the resolved TOPICSTR: TOPICOBJ is a record, not composed again (semantics §9)."""
    state = mq()
    apply(state, Define(TopicObject("QM1", "SPORT", "sport")), seq=1)
    sub = Subscription("QM1", "S", "sport/golf", topicobj="SPORT")
    apply(state, Define(sub, replace=True, observed=True), seq=2)
    assert state.subscriptions["S"].topicstr == "sport/golf"
    apply(state, Define(sub, replace=True), seq=3)  # DEFINE SUB composes: the object's string first
    assert state.subscriptions["S"].topicstr == "sport/sport/golf"
    gone = Subscription("QM1", "T", "old/x", topicobj="DELETED")  # an object the model lacks: recorded
    apply(state, Define(gone, observed=True), seq=4)
    assert state.subscriptions["T"].topicobj == "DELETED"
    with pytest.raises(InputError, match="names a topic object that is not defined"):
        apply(state, Define(gone, replace=True), seq=5)
    with pytest.raises(InputError, match="expected an identifier"):  # the rules still hold
        apply(state, Define(Subscription("QM1", "U", "a", selector="x = = 1"), observed=True), seq=6)


def test_the_node_s_dialect_chooses_the_topic_rules() -> None:
    state = ems()
    made = apply(state, Define(TopicObject("S1", "orders.>", "", properties={"global": None})), seq=1)
    assert state.topics["orders.>"].topicstr == "orders.>"  # named by its pattern
    assert made.after is state.topics["orders.>"]
    apply(state, Alter(Kind.TOPIC, "orders.>", {"set_properties": {"secure": None}}), seq=2)
    assert state.topics["orders.>"].properties == {"global": None, "secure": None}
    apply(state, Alter(Kind.TOPIC, "orders.>", {"remove_properties": ["global"]}), seq=3)
    assert state.topics["orders.>"].properties == {"secure": None}
    with pytest.raises(InputError, match="MQ topic attribute"):
        apply(state, Define(TopicObject("S1", "x", "x", descr="d")), seq=4)


def test_subscriptions_namelists_channels_memberships() -> None:
    state = mq()
    apply(state, Define(Subscription("QM1", "S", "a/b")), seq=1)
    apply(state, Define(Namelist("QM1", "NL", ("C1", "C2"))), seq=2)
    made = apply(state, Define(Channel("QM1", "TO.QM1", ChannelType.CLUSRCVR, clusnl="NL")), seq=3)
    assert set(state.memberships) == {"C1", "C2"} and made.notes == ()
    note = apply(state, Define(Channel("QM1", "TO.X", ChannelType.CLUSRCVR, clusnl="MISSING")), seq=4)
    assert note.notes == ("channel TO.X: namelist MISSING is not defined (yet)",)
    dropped = apply(state, Delete(Kind.NAMELIST, "NL"), seq=5)
    assert dropped.notes == ("channel TO.QM1: namelist NL is not defined now",) and state.memberships == {}
    apply(state, Define(Membership("QM1", "EU", True)), seq=6)
    assert state.memberships["EU"].full_repository
    apply(state, Alter(Kind.MEMBERSHIP, "EU", {"full_repository": False}), seq=7)
    assert not state.memberships["EU"].full_repository
    apply(state, Delete(Kind.MEMBERSHIP, "EU"), seq=8)
    assert "EU" not in state.memberships
    with pytest.raises(InputError, match="an EMS server has no namelists"):
        apply(ems(), Define(Namelist("S1", "NL")), seq=9)


def test_a_queue_manager_define_alter_and_repos() -> None:
    state = NodeState(Node("QM1"))
    new = apply(state, Define(Node("QM1", descr="d", parent="QM0")), seq=1, facts=Facts(node_exists=False))
    assert new.before is None and state.node.seq == 1 and state.node.parent == "QM0"
    with pytest.raises(InputError, match="is an EMS server"):
        apply(
            state, Alter(Kind.NODE, "QM1", {"parent": "S1"}), seq=2, facts=Facts(parent_dialect=Dialect.EMS)
        )
    apply(state, Alter(Kind.NODE, "QM1", {"repos": {"EU"}}), seq=3)
    assert state.memberships["EU"].full_repository and state.node.seq == 3
    apply(state, Alter(Kind.NODE, "QM1", {"join": ["US"], "full_repositories": [], "leave": []}), seq=4)
    assert set(state.memberships) == {"EU", "US"} and state.node.seq == 3  # the node's own definition stays
    with pytest.raises(ConflictError, match="is used by 2 topics"):
        apply(state, Delete(Kind.NODE, "QM1"), seq=5, facts=Facts(dependents=("2 topics",)))
    assert (
        apply(state, Delete(Kind.NODE, "QM1", cascade=True), seq=5, facts=Facts(dependents=("x",))).after
        is None
    )


def test_clusters_are_edits_with_their_stored_row_as_a_fact() -> None:
    state = mq()
    made = apply(state, Define(Cluster("EU", descr="Europe")), seq=1)
    assert made.after == Cluster("EU", 1, "Europe")
    with pytest.raises(AlreadyDefined):
        apply(state, Define(Cluster("EU")), seq=2, facts=Facts(cluster=("Europe", 1)))
    kept = apply(state, Alter(Kind.CLUSTER, "EU", {}), seq=3, facts=Facts(cluster=("Europe", 1)))
    assert kept.after == Cluster("EU", 3, "Europe")
    with pytest.raises(NotDefined):
        apply(state, Delete(Kind.CLUSTER, "EU"), seq=4)
    with pytest.raises(ConflictError, match="member QM1"):
        apply(
            state, Delete(Kind.CLUSTER, "EU"), seq=4, facts=Facts(cluster=("", 1), dependents=("member QM1",))
        )


def route(**changes: object) -> Route:
    values: dict = {"node": "S1", "peer": "S2", "url": "tcp://s2:7222"} | changes
    return Route(**values)


def test_route_rules_are_the_domain_s() -> None:
    """What tibemsadmin's door used to say itself: a URL is needed, no route to itself, no zone change."""
    state = ems()
    with pytest.raises(InputError, match="is required") as no_url:
        apply(state, Define(route(url="")), seq=1)
    assert no_url.value.attribute == "url"
    with pytest.raises(InputError, match="cannot route to itself"):
        apply(state, Define(route(peer="S1")), seq=1)
    with pytest.raises(InputError, match="is an MQ queue manager"):
        apply(state, Define(route()), seq=1, facts=Facts(peer_dialect=Dialect.MQ))
    apply(state, Define(route()), seq=1)
    for attribute, value in (("zone_name", "OTHER"), ("zone_type", ZoneType.ONE_HOP)):
        with pytest.raises(InputError, match="cannot be changed after the route is created") as moved:
            apply(state, Alter(Kind.ROUTE, "S2", {attribute: value}), seq=2)
        assert moved.value.attribute == attribute
    with pytest.raises(InputError, match="an MQ server has no routes|a queue manager has no routes"):
        apply(mq(), Define(route(node="QM1")), seq=1)


def test_a_route_takes_its_selectors_with_it() -> None:
    state = ems()
    apply(state, Define(route()), seq=1)
    sel = RouteSelector("S1", "S2", Direction.OUTGOING, "orders", "a = 1")
    apply(state, Define(sel), seq=2)
    assert apply(state, Define(sel, replace=True), seq=3).replaced
    altered = apply(
        state, Alter(Kind.ROUTE_SELECTOR, ("S2", "outgoing", "orders"), {"selector": "a = 2"}), seq=4
    )
    assert altered.after is not None and state.route_selectors[0].selector == "a = 2"
    gone = apply(state, Delete(Kind.ROUTE, "S2"), seq=5)
    assert len(gone.also_deleted) == 1 and state.route_selectors == []


@pytest.mark.parametrize(
    ("sub", "attribute"),
    [
        (Subscription("S1", "APP", "a.b", subtype=SubType.API), "SUBTYPE"),
        (Subscription("S1", "APP", "a.b", subid="414D51"), "SUBID"),
    ],
)
def test_api_and_subid_are_mq_only(sub: Subscription, attribute: str) -> None:
    """A snapshot's rule once; now the domain's, for every door."""
    with pytest.raises(InputError, match="is MQ only") as refused:
        apply(ems(), Define(sub), seq=1)
    assert refused.value.attribute == attribute
    mq_sub = Subscription("QM1", sub.name, "a/b", subtype=sub.subtype, subid=sub.subid)
    apply(mq(), Define(mq_sub), seq=1)


def test_an_alter_names_fields_of_the_attribute_table() -> None:
    for cls, table in attributes.TABLES.items():
        kind = KIND_OF[cls]
        assert {a.field for a in table} <= alterable(kind)
    with pytest.raises(TypeError, match="not attributes of a topic"):
        Alter(Kind.TOPIC, "T", {"topicstring": "x"})


def test_reads_names_the_slice_an_edit_needs() -> None:
    keys, parts = reads(
        [
            Define(Subscription("QM1", "S", "x", topicobj="T")),
            Alter(Kind.ROUTE_SELECTOR, ("P", "outgoing", "t"), {"selector": "a = 1"}),
            Delete(Kind.CHANNEL, "C"),
        ]
    )
    assert keys == {"subscriptions": ["S"], "topics": ["T"], "routes": ["P"]} and parts == CLUSTER_PARTS
