"""A topology prepared once for routing many publications (``explain``, ``validate``, the Spark job).

See ``mqctl.domain.routing`` for the interface. The MQ and EMS halves are built on first use, so a
model of an MQ-only estate never builds an EMS network and the other way round.
"""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any

from mqctl.domain.model import Dialect, Topology

if TYPE_CHECKING:
    from mqctl.domain.routing.ems import EmsPrepared
    from mqctl.domain.routing.mq import MqPrepared

__all__ = ["DEFAULT_CACHE_SIZE", "RoutingModel"]

DEFAULT_CACHE_SIZE = 1024
"""Topics whose publisher-independent work a model keeps (per dialect)."""


class RoutingModel:
    """A ``Topology`` indexed for routing: build once, then call ``routing.explain(model, ...)`` per question.

    The topology must not change while the model is in use (build a new model after a change). The model
    is safe to share between calls but not between threads. Pickling it pickles the topology only; the
    indexes are rebuilt on first use after unpickling (as on a Spark executor after a broadcast).
    """

    def __init__(self, topology: Topology, *, cache_size: int = DEFAULT_CACHE_SIZE) -> None:
        self.topology = topology
        self.cache_size = cache_size

    @cached_property
    def mq(self) -> MqPrepared:
        from mqctl.domain.routing.mq import MqPrepared  # imported on use: a one-dialect question loads one

        return MqPrepared(self.topology, self.cache_size)

    @cached_property
    def ems(self) -> EmsPrepared:
        from mqctl.domain.routing.ems import EmsPrepared

        return EmsPrepared(self.topology, self.cache_size)

    def prepare(self) -> RoutingModel:
        """Build now the halves the estate's nodes need (both are otherwise built on first use): a
        long-lived caller can then ``gc.freeze()`` the whole model at once."""
        dialects = {node.dialect for node in self.topology.nodes.values()}
        if Dialect.MQ in dialects:
            self.mq.fill_into()
        if Dialect.EMS in dialects:
            _ = self.ems
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (self.topology, self.cache_size))


def _rebuild(topology: Topology, cache_size: int) -> RoutingModel:
    return RoutingModel(topology, cache_size=cache_size)
