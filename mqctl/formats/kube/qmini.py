"""qm.ini fragments as the queue manager reads them at start (``IniConfig``, the container's ``.ini``
items): the ``AutoCluster:`` and ``Variables:`` stanzas; the other stanzas are counted, not modelled.

Syntax, as IBM documents the configuration files: a stanza is a name followed by ``:`` (any case here:
``autocluster:``), its attributes are ``Key=Value`` lines below it; ``#`` and ``;`` start a comment
(whole line, or after the value). A later fragment's attribute overrides an earlier one's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

AUTOCLUSTER_KEYS = {
    "type": "Type",
    "clustername": "ClusterName",
    "repository1name": "Repository1Name",
    "repository1conname": "Repository1Conname",
    "repository2name": "Repository2Name",
    "repository2conname": "Repository2Conname",
}
"""The AutoCluster attributes (IBM, "AutoCluster stanza of the qm.ini file"; its example spells
``Repository1Name``, its list once ``RepositoryName1``: the queue manager reads the former)."""

MISSPELT = {"repositoryname1": "Repository1Name", "repositoryname2": "Repository2Name"}

_STANZA = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_]*)\s*:\s*$")
_ATTRIBUTE = re.compile(r"^\s*([A-Za-z][A-Za-z0-9_.]*)\s*=\s*(.*?)\s*$")


@dataclass(frozen=True)
class IniProblem:
    """A line the queue manager would not read as meant: ``line`` is 1-based in the fragment."""

    line: int
    message: str


@dataclass
class AutoCluster:
    """A uniform cluster's automatic configuration: its name and up to two full repositories."""

    cluster: str | None = None
    type: str | None = None
    repositories: dict[int, tuple[str | None, str | None]] = field(default_factory=dict)
    """1 and 2 -> (queue manager name, CONNAME)."""
    line: int = 0

    def full_repositories(self) -> list[str]:
        return [name for name, _ in (self.repositories.get(i, (None, None)) for i in (1, 2)) if name]

    def conname(self, qmgr: str) -> str | None:
        for name, conname in self.repositories.values():
            if name == qmgr:
                return conname
        return None


@dataclass
class Ini:
    """What mqctl reads of qm.ini fragments."""

    autocluster: AutoCluster | None = None
    variables: dict[str, str] = field(default_factory=dict)
    other_stanzas: list[str] = field(default_factory=list)
    problems: list[IniProblem] = field(default_factory=list)


def parse_ini(text: str, into: Ini | None = None) -> Ini:
    """Read one fragment (``into``: the fragments read before it, which it overrides)."""
    ini = into if into is not None else Ini()
    stanza: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = _without_comment(raw)
        if not line.strip():
            continue
        head = _STANZA.match(line)
        if head:
            stanza = head.group(1).casefold()
            if stanza == "autocluster":
                ini.autocluster = ini.autocluster or AutoCluster(line=number)
            elif stanza != "variables":
                ini.other_stanzas.append(head.group(1))
            continue
        attr = _ATTRIBUTE.match(line)
        if attr is None:
            ini.problems.append(
                IniProblem(number, "is neither a stanza (Name:) nor an attribute (Key=Value)")
            )
            continue
        key, value = attr.group(1), attr.group(2)
        if stanza is None:
            ini.problems.append(IniProblem(number, f"attribute {key} is outside any stanza"))
        elif stanza == "variables":
            ini.variables[key] = value
        elif stanza == "autocluster":
            _autocluster(ini, number, key, value)
    return ini


def _without_comment(raw: str) -> str:
    for mark in ("#", ";"):
        at = raw.find(mark)
        if at >= 0:
            raw = raw[:at]
    return raw


def _autocluster(ini: Ini, number: int, key: str, value: str) -> None:
    auto = ini.autocluster
    assert auto is not None
    folded = key.casefold()
    if folded in MISSPELT:
        ini.problems.append(
            IniProblem(
                number,
                f"AutoCluster has no attribute {key} (write {MISSPELT[folded]}): the queue manager ignores "
                "it, so this full repository is not configured",
            )
        )
        return
    if folded not in AUTOCLUSTER_KEYS:
        ini.problems.append(
            IniProblem(
                number,
                f"AutoCluster has no attribute {key} (it has {', '.join(AUTOCLUSTER_KEYS.values())})",
            )
        )
        return
    if folded == "type":
        auto.type = value
        if value.casefold() != "uniform":
            ini.problems.append(IniProblem(number, f"AutoCluster Type={value}: the only type is Uniform"))
    elif folded == "clustername":
        auto.cluster = value
    else:
        index = int(folded[len("repository")])
        name, conname = auto.repositories.get(index, (None, None))
        if folded.endswith("conname"):
            conname = value
        else:
            name = value
        auto.repositories[index] = (name, conname)
