"""Kubernetes YAML as the MQ Operator and the ``ibm-mq`` Helm chart give it: ConfigMaps, Secrets,
QueueManagers and Helm values read into what each queue manager's container applies at start.

Pure: text in, ``Estate`` out (no store). ``services.kube`` applies an estate through the one MQSC path.

Public API::

    read_estate(sources) -> Estate          # sources: (name, text) pairs, in the order given
    find_placeholders(text) -> iterator     # unrendered kustomize/sed/Helm placeholders
    parse_ini(item) -> Ini                  # qm.ini fragments (AutoCluster, Variables)
"""

from mqctl.formats.kube.estate import Estate, Item, QueueManagerSpec, read_estate
from mqctl.formats.kube.placeholders import check_rendered, find_placeholders
from mqctl.formats.kube.qmini import AutoCluster, Ini, parse_ini

__all__ = [
    "AutoCluster",
    "Estate",
    "Ini",
    "Item",
    "QueueManagerSpec",
    "check_rendered",
    "find_placeholders",
    "parse_ini",
    "read_estate",
]
