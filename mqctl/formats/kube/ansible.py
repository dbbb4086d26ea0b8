"""Ansible's YAML form of MQ commands (IBM's ``mq-ansible`` runMQCmds role): a cmds file's
``mq_commands:`` list, each entry the keys of the MQ administrative REST API's JSON-formatted MQSC
command (``command``, ``qualifier``, ``name``, ``parameters``), written back as the MQSC command it
stands for so that it goes through the one MQSC path. The queue manager is the playbook's ``qmgr_name``,
which the file does not hold: ``QM1=cmds.yml``, else the file name's stem.

Each command is put on the line of its entry in the file (the MQSC text has empty lines between), so
findings and errors name the YAML line of the entry.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from mqctl.domain.errors import InputError, clip
from mqctl.domain.names import check_mq_name
from mqctl.formats.kube.estate import Item, QueueManagerSpec

_BARE = re.compile(r"^[A-Za-z0-9._%]+$")
KEYWORD_ONLY = {"replace", "noreplace", "purge", "nopurge", "force", "all", "share", "noshare"}
"""Parameters the REST API takes as ``"replace": "yes"``: MQSC writes the keyword alone (``no``: left out)."""


def _value(node: yaml.Node) -> str:
    if isinstance(node, yaml.SequenceNode):
        return ",".join(_value(v) for v in node.value)
    text = str(node.value)
    if isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:int":
        return text
    return text if _BARE.match(text) and text.upper() != text.lower() or text.isdigit() else _quoted(text)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def _command(entry: yaml.Node, file: str) -> str:
    if not isinstance(entry, yaml.MappingNode):
        raise InputError("an mq_commands entry is not a mapping", file=file, line=entry.start_mark.line + 1)
    body = {k.value: v for k, v in entry.value if isinstance(k, yaml.ScalarNode)}
    line = entry.start_mark.line + 1
    verb = body.get("command")
    if not isinstance(verb, yaml.ScalarNode) or not str(verb.value).strip():
        # an empty ``command:`` is the blank entry of IBM's template cmds file, not a command
        raise InputError(
            "an mq_commands entry without command: (an empty template entry?)", file=file, line=line
        )
    words = [str(verb.value).upper()]
    qualifier = body.get("qualifier")
    if isinstance(qualifier, yaml.ScalarNode):
        noun = str(qualifier.value).upper()
        name = body.get("name")
        words.append(f"{noun}({_quoted(str(name.value))})" if isinstance(name, yaml.ScalarNode) else noun)
    params = body.get("parameters")
    if isinstance(params, yaml.MappingNode):
        for key_node, value in params.value:
            key = str(key_node.value)
            if key.casefold() in KEYWORD_ONLY and isinstance(value, yaml.ScalarNode):
                if str(value.value).casefold() in ("yes", "true"):
                    words.append(key.upper())
                continue
            words.append(f"{key.upper()}({_value(value)})")
    return " ".join(words)


def commands_item(node: yaml.Node, file: str, qmgr: str | None) -> QueueManagerSpec:
    """The queue manager and its one MQSC item, from a cmds file's ``mq_commands:`` list."""
    line = node.start_mark.line + 1
    name = qmgr or Path(file).stem
    try:
        check_mq_name(name, "qmgr")
    except InputError:
        raise InputError(
            f"{clip(name)} is no queue manager name: name the queue manager of this mq_commands file "
            f"with QM1={file}",
            file=file,
            line=line,
        ) from None
    text_lines: list[str] = []
    for entry in node.value if isinstance(node, yaml.SequenceNode) else []:
        at = entry.start_mark.line + 1
        text_lines += [""] * (at - 1 - len(text_lines))
        text_lines.append(_command(entry, file))
    text = "\n".join(text_lines) + "\n"
    item = Item("mq_commands", text, file, line, 1, f"Ansible commands {Path(file).name}", first_line=1)
    return QueueManagerSpec(name, f"Ansible commands {file}", file, line, mqsc=[item], autoconfig=False)
