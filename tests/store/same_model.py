"""Two topologies hold the same model: the same nodes and the same objects of each kind, in any order."""

from __future__ import annotations

from typing import Any

KINDS = ("memberships", "topics", "subscriptions", "namelists", "channels", "routes", "route_selectors")


def assert_same_model(read: Any, whole: Any) -> None:
    assert read.nodes == whole.nodes
    for attr in KINDS:
        # the two lists hold the same objects, maybe in another order: sorted by their full text
        assert sorted(getattr(read, attr), key=repr) == sorted(getattr(whole, attr), key=repr), attr
