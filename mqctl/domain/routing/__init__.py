"""The routing engine: a topology (or the slice of it one question needs) plus a publication gives an
explanation (semantics §3-§6, §8, §9). Pure: ``explain``, ``validate`` and the Spark job all call it.

Interface (for the CLI, ``validate`` and the Spark job)::

    from mqctl.domain.routing import RoutingModel, explain

    explanation = explain(topology, publication, failures)   # one question: builds a model, uses it once

    model = RoutingModel(topology)                           # many questions over one topology
    for publication in publications:
        explanation = explain(model, publication, failures)  # the same answer as explain(topology, ...)

- ``explain(topology_or_model, publication, failures=None, *, detail=True) -> Explanation``:
  ``publication`` is a ``mqctl.domain.explanation.Publication`` (its node decides the dialect),
  ``failures`` a ``Failures`` (nodes down, links down, subscribers offline). Raises ``InputError`` for an
  unknown node or a bad topic. ``Explanation.to_json()`` is the JSON of ``mqctl explain -o json``
  (docs/cli.md).
- ``detail=False`` is for a caller that keeps only who gets the publication and why the others do not,
  by reason code (the Spark job): the same deliveries (subscription, node, status, stored_at, path,
  hops) and the same misses (subscription, node, reason), in the same order, with the same
  ``resolved``, but no warnings, no topic hosts, no alternative paths (``alternatives`` empty,
  ``more_alternatives`` 0), and misses without ``detail`` sentence (``""``) or ``conflict``. The work
  only those need (warnings, the flows through the other topic hosts, sentences) is not done; the
  counterfactual flows that tell one reason from another still are.
- ``route(topology_or_model, publication, failures=None) -> Rows``: ``explain(..., detail=False)``'s
  deliveries and misses as rows of the shared ladder (``routing.ladder.Rows``: (subscription, arrival,
  stored_at) and (subscription, miss)), in the same order, without building the explanation: for a
  caller that sums them (the Spark job), where making a ``Delivery`` per subscription reached would cost
  as much as routing. The same engine, the same checks and errors as ``explain``.
- ``tally(topology_or_model, publication, failures, into, messages=1, size=0)``: ``route``'s rows for
  ``messages`` publications of ``size`` bytes in all, summed into a ``Tally`` (``routing.totals``:
  messages and bytes per delivered row, missed row, link crossed and publisher), for a caller that writes
  totals only (the Spark job). The rows no selector decides are laid out once per publisher and topic as
  the tally's own keys, so a publication costs a few dictionary updates and its selectors.
- ``RoutingModel(topology, cache_size=1024)``: the topology indexed once: cluster index and topic trees,
  the subscription index (``mqctl.domain.subindex``) by proxy pattern, ``PROXYSUB(FORCE)`` objects,
  cluster-receiver channels, the EMS network and its definitions, subscriptions and route selectors by
  pattern. Per topic it keeps, in a least-recently-used cache of ``cache_size`` topics per dialect, what
  does not depend on the publisher (matching subscriptions, proxy subscriptions and where they are held,
  matching EMS definitions and route selectors), so the cost of a publication grows with what matches
  its topic, not with the number of subscriptions or topic objects in the model. What depends on less
  than the topic is kept under what it depends on: a topic resolves at every queue manager as the deepest
  topic-object string above it (topics under one object share each tree's resolution), where a
  subscription's proxy goes is kept per subscription, a topic-host choice per (chooser, hosts, cluster,
  failures). Answers are identical
  to ``explain(topology, ...)`` whatever was asked before. The topology must not change while a model
  is in use; the model is not thread-safe; pickling it carries the topology only and the indexes are
  rebuilt on first use (see docs/benchmarks.md for the times on a 500,000-subscription estate).
- ``model.prepare()`` builds at once what ``explain`` would build on first use (the MQ and EMS halves
  the estate's nodes need).
- The domain never touches the garbage collector: the process does (``mqctl.memory``). A build is a
  million small objects that outlive it, so the caller builds with the collector paused (the CLI pauses
  it for the whole command), and a long-running caller over a big model should call ``gc.freeze()`` once
  the model is built (and now and then as topic trees are built): every full collection otherwise walks
  the millions of objects of the topology and the model, which doubles the cost of a publication.
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.explanation import Explanation, Failures, Publication
from mqctl.domain.model import Dialect, Topology
from mqctl.domain.routing.ladder import Rows
from mqctl.domain.routing.model import RoutingModel
from mqctl.domain.routing.totals import Tally
from mqctl.domain.suggest import did_you_mean

__all__ = ["RoutingModel", "Rows", "Tally", "explain", "route", "tally"]


def explain(
    topology: Topology | RoutingModel,
    publication: Publication,
    failures: Failures | None = None,
    *,
    detail: bool = True,
) -> Explanation:
    """Route one publication through the model: who receives it, how, and why the others do not
    (``detail=False``: without what only a reader of the explanation needs; see the module docstring)."""
    model, dialect, failures = _question(topology, publication, failures)
    if dialect is Dialect.EMS:
        from mqctl.domain.routing.ems import explain_ems

        return explain_ems(model.ems, publication, failures, detail).sort()
    from mqctl.domain.routing.mq import explain_mq

    return explain_mq(model.mq, publication, failures, detail).sort()


def route(
    topology: Topology | RoutingModel, publication: Publication, failures: Failures | None = None
) -> Rows:
    """``explain(..., detail=False)``'s deliveries and misses as rows, in the same order, without the
    explanation (see the module docstring)."""
    model, dialect, failures = _question(topology, publication, failures)
    if dialect is Dialect.EMS:
        from mqctl.domain.routing.ems import route_ems

        return route_ems(model.ems, publication, failures)
    from mqctl.domain.routing.mq import route_mq

    return route_mq(model.mq, publication, failures)


def tally(
    topology: Topology | RoutingModel,
    publication: Publication,
    failures: Failures | None,
    into: Tally,
    messages: int = 1,
    size: int = 0,
) -> None:
    """``route``'s rows for ``messages`` publications of ``size`` bytes in all, added to ``into`` (see
    the module docstring)."""
    model, dialect, failures = _question(topology, publication, failures)
    if dialect is Dialect.EMS:
        from mqctl.domain.routing.ems import route_ems

        into.add(publication.from_node, route_ems(model.ems, publication, failures), messages, size)
        return
    from mqctl.domain.routing.mq import tally_mq

    tally_mq(model.mq, publication, failures, into, messages, size)


def _question(
    topology: Topology | RoutingModel, publication: Publication, failures: Failures | None
) -> tuple[RoutingModel, Dialect, Failures]:
    """The model, the publisher's dialect and the failures of a question, its nodes checked."""
    model = topology if isinstance(topology, RoutingModel) else RoutingModel(topology, cache_size=0)
    nodes = model.topology.nodes
    node = nodes.get(publication.from_node)
    if node is None:
        raise InputError(
            f"no such node{did_you_mean(publication.from_node, nodes)}", obj=publication.from_node
        )
    failures = failures or Failures()
    if failures.down or failures.links_down or failures.offline:
        named = [(n, "--down") for n in failures.down]
        named += [(n, "--link-down") for pair in failures.links_down for n in pair]
        named += [(n, "--offline") for n, _ in failures.offline]
        for name, option in sorted(named):
            if name not in nodes:
                raise InputError(f"no such node{did_you_mean(name, nodes)}", obj=name, attribute=option)
    return model, node.dialect, failures
