"""The DISPLAY commands a capture is made of: every one `import display` reads, and no other.

One list for every form a capture takes: the runmqsc line of ``display.mqsc`` and the same command as a
REST ``runCommandJSON`` request (``capture-kit`` writes both), and the tibemsadmin commands of an EMS
server's capture. ``kind`` is the kind of block the reader makes of the answer (``formats.display``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class CaptureCommand:
    kind: str
    """What the reader makes of the answer (SUB, TOPIC, TCLUSTER, …)."""
    mqsc: str
    """The runmqsc command."""
    qualifier: str
    """The REST API's object type (runCommandJSON ``qualifier``)."""
    name: str | None
    """The REST request's ``name`` (None for commands about the queue manager itself)."""
    parameters: tuple[tuple[str, str], ...] = ()
    """The REST request's ``parameters`` (lower-case, as the API takes them)."""

    def request(self) -> dict[str, object]:
        """The REST API's ``runCommandJSON`` request body, every attribute asked for (``ALL``)."""
        body: dict[str, object] = {
            "type": "runCommandJSON",
            "command": "display",
            "qualifier": self.qualifier,
        }
        if self.name is not None:
            body["name"] = self.name
        if self.parameters:
            body["parameters"] = dict(self.parameters)
        body["responseParameters"] = ["all"]
        return body

    def request_text(self) -> str:
        return json.dumps(self.request())


CAPTURE_COMMANDS: tuple[CaptureCommand, ...] = (
    CaptureCommand("SUB", "DISPLAY SUB(*) SUBTYPE(ALL) ALL", "sub", "*", (("subtype", "all"),)),
    CaptureCommand("TOPIC", "DISPLAY TOPIC(*) TYPE(LOCAL) ALL", "topic", "*", (("type", "local"),)),
    CaptureCommand("TCLUSTER", "DISPLAY TCLUSTER(*) ALL", "topic", "*", (("type", "cluster"),)),
    CaptureCommand("CLUSQMGR", "DISPLAY CLUSQMGR(*) ALL", "clusqmgr", "*"),
    CaptureCommand("QMGR", "DISPLAY QMGR ALL", "qmgr", None),
    CaptureCommand("PUBSUB", "DISPLAY PUBSUB TYPE(ALL) ALL", "pubsub", None, (("type", "all"),)),
    CaptureCommand("CHSTATUS", "DISPLAY CHSTATUS(*) ALL", "chstatus", "*"),
    CaptureCommand("SBSTATUS", "DISPLAY SBSTATUS(*) ALL", "sbstatus", "*"),
    CaptureCommand(
        "TPSTATUS", "DISPLAY TPSTATUS('#') TYPE(TOPIC) ALL", "tpstatus", "#", (("type", "topic"),)
    ),
)
"""A queue manager's capture, in the order ``display.mqsc`` runs it."""

EMS_COMMANDS: tuple[str, ...] = ("info", "show routes", "show durables")
"""An EMS server's capture: ``info`` names the server (its ``Server:`` line), then the two tables read."""
