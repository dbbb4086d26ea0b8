"""The routing engine: a topology (or the slice of it one question needs) plus a publication gives an
explanation (SEMANTICS §3-§6, §8, §9). Pure: ``explain``, ``validate`` and the Spark job all call it.
"""

from __future__ import annotations

from mqctl.domain.errors import InputError
from mqctl.domain.explanation import Explanation, Failures, Publication
from mqctl.domain.model import Dialect, Topology


def explain(topology: Topology, publication: Publication, failures: Failures | None = None) -> Explanation:
    """Route one publication through the model: who receives it, how, and why the others do not."""
    node = topology.nodes.get(publication.from_node)
    if node is None:
        raise InputError("no such node", obj=publication.from_node)
    failures = failures or Failures()
    named = [(n, "--down") for n in failures.down]
    named += [(n, "--link-down") for pair in failures.links_down for n in pair]
    named += [(n, "--offline") for n, _ in failures.offline]
    for name, option in sorted(named):
        if name not in topology.nodes:
            raise InputError("no such node", obj=name, attribute=option)
    if node.dialect is Dialect.EMS:
        from mqctl.domain.routing.ems import explain_ems

        return explain_ems(topology, publication, failures).sort()
    from mqctl.domain.routing.mq import explain_mq

    return explain_mq(topology, publication, failures).sort()
