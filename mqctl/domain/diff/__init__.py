"""Change impact: what a configuration change does to the model, its findings and its routing (pure).

``diff_objects`` compares two models object by object; ``probes.derive`` turns the changes into the
publications whose answer can differ; ``routing.route_diff`` routes each on both models with the one
engine (``mqctl.domain.routing``) and names, per subscription, what changed. ``services.diff`` reads
the two sides and assembles the report.
"""

from mqctl.domain.diff.objects import AttributeChange, ObjectChange, diff_objects
from mqctl.domain.diff.probes import Probe, ProbeSet, derive
from mqctl.domain.diff.routing import Outcome, RoutingChange, route_diff

__all__ = [
    "AttributeChange",
    "ObjectChange",
    "Outcome",
    "Probe",
    "ProbeSet",
    "RoutingChange",
    "derive",
    "diff_objects",
    "route_diff",
]
