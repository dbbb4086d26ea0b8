"""The one edit path (``mqctl.domain.objects``): define / alter / delete over a NodeState, no database.

The doors' agreement is tested through the CLI (tests/store/test_door_properties.py); these pin what a
change does, as the vendors do it (semantics §9)."""

from __future__ import annotations

import pytest

from mqctl.domain.errors import InputError
from mqctl.domain.model import (
    Channel,
    Dialect,
    Direction,
    Namelist,
    Node,
    NodeState,
    Route,
    RouteSelector,
    Subscription,
    TopicObject,
)
from mqctl.domain.objects import (
    channels,
    clusters,
    namelists,
    route_selectors,
    routes,
    subscriptions,
    topic_objects,
)
from mqctl.domain.objects.edit import AlreadyDefined, NotDefined


def qmgr() -> NodeState:
    return NodeState(node=Node("QM1"))


def server() -> NodeState:
    return NodeState(node=Node("E1", Dialect.EMS))


def test_define_needs_replace_and_takes_the_sequence_given() -> None:
    state = qmgr()
    assert (
        topic_objects.define(state, TopicObject("QM1", "T", "/a"), replace=False, seq=4, holder=None) is False
    )
    with pytest.raises(AlreadyDefined):
        topic_objects.define(state, TopicObject("QM1", "T", "/b"), replace=False, seq=5, holder=None)
    assert (
        topic_objects.define(state, TopicObject("QM1", "T", "/b"), replace=True, seq=6, holder=None) is True
    )
    assert (state.topics["T"].topicstr, state.topics["T"].seq) == ("/b", 6)


def test_a_second_object_with_the_same_topicstr_is_refused() -> None:
    state = qmgr()
    with pytest.raises(InputError, match="already used by topic object T1"):
        topic_objects.define(state, TopicObject("QM1", "T2", "/a"), replace=False, seq=1, holder="T1")


def test_alter_changes_only_what_is_given_and_never_topicstr() -> None:
    state = qmgr()
    topic_objects.define(state, TopicObject("QM1", "T", "/a"), replace=False, seq=1, holder=None)
    before = state.topics["T"]
    topic_objects.alter(state, "T", {"descr": "d"}, seq=2)
    assert (state.topics["T"].descr, state.topics["T"].seq, before.descr) == ("d", 2, "")
    with pytest.raises(InputError, match="cannot be altered"):
        topic_objects.alter(state, "T", {"topicstr": "/b"}, seq=3)
    with pytest.raises(NotDefined):
        topic_objects.alter(state, "NOPE", {"descr": "d"}, seq=3)


def test_a_subscription_takes_its_topic_string_from_topicobj_and_keeps_it_when_the_object_goes() -> None:
    state = qmgr()
    topic_objects.define(state, TopicObject("QM1", "SPORT", "/Sport"), replace=False, seq=1, holder=None)
    subscriptions.define(state, Subscription("QM1", "S1", "", topicobj="SPORT"), replace=False, seq=2)
    subscriptions.define(
        state, Subscription("QM1", "S2", "Football/#", topicobj="SPORT"), replace=False, seq=3
    )
    assert [s.topicstr for s in state.subscriptions.values()] == ["/Sport", "/Sport/Football/#"]
    topic_objects.delete(state, "SPORT")
    assert [s.topicstr for s in state.subscriptions.values()] == ["/Sport", "/Sport/Football/#"]
    with pytest.raises(InputError, match="names a topic object that is not defined"):
        subscriptions.define(state, Subscription("QM1", "S3", "", topicobj="SPORT"), replace=False, seq=4)
    subscriptions.define(
        state, Subscription("QM1", "S4", "x", topicobj="SYSTEM.BASE.TOPIC"), replace=False, seq=5
    )
    assert state.subscriptions["S4"].topicstr == "x"  # a predefined object adds nothing


def test_deleting_a_route_deletes_its_selectors() -> None:
    state = server()
    routes.define(state, Route("E1", "E2", "tcp://e2:7222"), replace=False, seq=1, peer_dialect=None)
    sel = RouteSelector("E1", "E2", Direction.OUTGOING, "a.>", "x > 1")
    route_selectors.define(state, sel, replace=False, seq=2)
    assert state.route_selectors[0].seq == 2
    assert routes.delete(state, "E2") == [
        state_sel for state_sel in [RouteSelector("E1", "E2", Direction.OUTGOING, "a.>", "x > 1", seq=2)]
    ]
    assert state.route_selectors == [] and state.routes == {}
    with pytest.raises(InputError, match="route E2 is not defined"):
        route_selectors.define(state, sel, replace=False, seq=3)


def test_a_route_to_a_queue_manager_is_refused() -> None:
    with pytest.raises(InputError, match="MQ queue manager"):
        routes.define(
            server(), Route("E1", "QM1", "tcp://q:1"), replace=False, seq=1, peer_dialect=Dialect.MQ
        )


def test_deleting_a_namelist_keeps_the_channels_naming_it() -> None:
    state = qmgr()
    namelists.define(state, Namelist("QM1", "NL1", ("CLA", "CLB")), replace=False, seq=1)
    channels.define(state, Channel("QM1", "TO.QM1", clusnl="NL1"), replace=False, seq=2)
    assert sorted(state.memberships) == ["CLA", "CLB"]
    namelists.delete(state, "NL1", seq=3)
    assert "TO.QM1" in state.channels and state.memberships == {}
    assert channels.missing_namelist(state, state.channels["TO.QM1"]) is not None


def test_new_cluster_notes_name_the_nearest_clusters() -> None:
    assert clusters.new_cluster_notes(["EUU", "EU"], ["EU", "US"]) == ["cluster EUU is new; did you mean EU?"]
    assert clusters.new_cluster_notes(["ASIA"], ["EU"]) == ["cluster ASIA is new"]
    assert clusters.new_cluster_notes(["EUX"], ["EU", "EUU"]) == [
        "cluster EUX is new; did you mean EU or EUU?"
    ]
