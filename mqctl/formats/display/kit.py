"""The capture kit: what an administrator runs to make the captures `import display` reads.

``kit_files`` writes ``display.mqsc`` (``CAPTURE_COMMANDS``, no more), ``capture-runmqsc.sh`` (runmqsc on
each queue manager, one file each), ``capture-rest.sh`` (the same commands as REST ``runCommandJSON``
requests, directly or through a gateway queue manager, one JSON file per queue manager) and, for each
EMS server, a tibemsadmin ``-script`` file and ``capture-ems.sh``. Names from the model go into the
scripts single-quoted (``shlex.quote``) and into file names with ``/`` and ``%`` escaped, so that no name
can run a command or leave the folder.
"""

from __future__ import annotations

import shlex
from collections.abc import Sequence

from mqctl.formats.display.commands import CAPTURE_COMMANDS, EMS_COMMANDS

MQSC = "display.mqsc"
RUNMQSC_SCRIPT = "capture-runmqsc.sh"
REST_SCRIPT = "capture-rest.sh"
EMS_SCRIPT = "capture-ems.sh"
SCRIPTS = frozenset({RUNMQSC_SCRIPT, REST_SCRIPT, EMS_SCRIPT})
"""The files written executable."""
DEFAULT_EMS_URL = "tcp://localhost:7222"

_STAMP = "date -u +%Y-%m-%dT%H:%M:%SZ"


def file_stem(name: str) -> str:
    """A node name as a file name: MQ names may hold ``/`` and ``%``."""
    return name.replace("%", "%25").replace("/", "%2F")


def url_name(name: str) -> str:
    """A queue manager name in a REST URL, encoded as IBM asks (``.`` ``/`` ``%``)."""
    return name.replace("%", "%25").replace("/", "%2F").replace(".", "%2E")


def display_mqsc() -> str:
    lines = ["* display.mqsc: the DISPLAY commands mqctl import display reads (mqctl capture-kit)"]
    lines += [c.mqsc for c in CAPTURE_COMMANDS]
    return "\n".join(lines) + "\n"


def runmqsc_script(qmgrs: Sequence[str]) -> str:
    lines = [
        "#!/bin/sh",
        "# Written by `mqctl capture-kit`: runs display.mqsc on each queue manager with runmqsc (as a user",
        "# of the mqm group, where runmqsc reaches it) into QMGR.txt beside this script; then",
        "#   mqctl import display QM1.txt QM2.txt ...",
        "set -u",
        'cd "$(dirname "$0")" || exit 2',
        "status=0",
        "capture() {  # queue manager, output file",
        f'  {{ echo "# captured $({_STAMP})"; runmqsc "$1" < display.mqsc; }} > "$2" || {{',
        '    echo "capture-runmqsc.sh: runmqsc $1 ended with status $? (see $2)" >&2; status=1; }',
        "}",
    ]
    lines += [f"capture {shlex.quote(q)} {shlex.quote(file_stem(q) + '.txt')}" for q in qmgrs]
    lines.append('exit "$status"')
    return "\n".join(lines) + "\n"


def rest_script(qmgrs: Sequence[str]) -> str:
    bodies = " \\\n      ".join(shlex.quote(c.request_text()) for c in CAPTURE_COMMANDS)
    lines = [
        "#!/bin/sh",
        "# Written by `mqctl capture-kit`: the commands of display.mqsc as MQ REST API runCommandJSON",
        "# requests (POST .../admin/action/qmgr/QMGR/mqsc), one JSON file per queue manager beside this",
        "# script (QMGR.json: a list of {qmgr, captured_at, request, response}); then",
        "#   mqctl import display QM1.json QM2.json ...",
        "# MQ_REST_URL      the REST API (default https://localhost:9443/ibmmq/rest/v2)",
        "# MQ_REST_USER     a user of the MQAdmin role (default mqadmin); MQ_REST_PASSWORD its password",
        "# MQ_REST_GATEWAY  the gateway queue manager, for queue managers the mqweb server does not host",
        "# MQ_REST_CURL_OPTS more curl options (--cacert ca.pem, ...)",
        "set -u",
        'cd "$(dirname "$0")" || exit 2',
        ': "${MQ_REST_URL:=https://localhost:9443/ibmmq/rest/v2}"',
        ': "${MQ_REST_USER:=mqadmin}"',
        ': "${MQ_REST_PASSWORD:?set MQ_REST_PASSWORD}"',
        "status=0",
        "post() {  # queue manager as the URL names it, request body",
        '  if [ -n "${MQ_REST_GATEWAY:-}" ]; then',
        '    set -- "$1" "$2" -H "ibm-mq-rest-gateway-qmgr: $MQ_REST_GATEWAY"',
        "  fi",
        '  url="$MQ_REST_URL/admin/action/qmgr/$1/mqsc"; body="$2"; shift 2',
        "  # shellcheck disable=SC2086 # MQ_REST_CURL_OPTS holds several options",
        '  curl -sS ${MQ_REST_CURL_OPTS:-} -u "$MQ_REST_USER:$MQ_REST_PASSWORD" \\',
        "    -H 'ibm-mq-rest-csrf-token: mqctl' -H 'Content-Type: application/json' \"$@\" \\",
        '    --data "$body" "$url"',
        "}",
        "capture() {  # queue manager, its name in a URL, output file",
        f"  when=$({_STAMP})",
        "  sep=''",
        "  {",
        "    printf '['",
        f"    for body in {bodies}; do",
        "      answer=''",
        '      answer=$(post "$2" "$body") || { echo "capture-rest.sh: $1: $answer" >&2; status=1; }',
        '      printf \'%s\\n{"qmgr": "%s", "captured_at": "%s", "request": %s,\\n "response": %s}\' \\',
        '        "$sep" "$1" "$when" "$body" "${answer:-null}"',
        "      sep=','",
        "    done",
        "    printf '\\n]\\n'",
        '  } > "$3"',
        "}",
    ]
    lines += [
        f"capture {shlex.quote(q)} {shlex.quote(url_name(q))} {shlex.quote(file_stem(q) + '.json')}"
        for q in qmgrs
    ]
    lines.append('exit "$status"')
    return "\n".join(lines) + "\n"


def ems_script_file() -> str:
    """A tibemsadmin ``-script`` file: one command a line."""
    return "\n".join(EMS_COMMANDS) + "\n"


def ems_script(servers: Sequence[tuple[str, str]]) -> str:
    lines = [
        "#!/bin/sh",
        "# Written by `mqctl capture-kit`: runs each EMS server's tibemsadmin -script file into SERVER.txt",
        "# beside this script; then `mqctl import display E1.txt E2.txt ...`. The URLs come from the routes",
        f"# of the model that lead to each server ({DEFAULT_EMS_URL} when none does): edit them if need be.",
        "# EMS_USER (default admin) and EMS_PASSWORD are the administrator's.",
        "set -u",
        'cd "$(dirname "$0")" || exit 2',
        "status=0",
        "capture() {  # server, its URL, script file, output file",
        '  { tibemsadmin -server "$2" -user "${EMS_USER:-admin}" -password "${EMS_PASSWORD:-}" -script "$3"',
        f'    echo "# captured $({_STAMP})"; }} > "$4" || {{',
        '    echo "capture-ems.sh: tibemsadmin $1 ended with status $? (see $4)" >&2; status=1; }',
        "}",
    ]
    for name, url in servers:
        stem = file_stem(name)
        lines.append(
            f"capture {shlex.quote(name)} {shlex.quote(url)} {shlex.quote(stem + '.tibemsadmin')} "
            f"{shlex.quote(stem + '.txt')}"
        )
    lines.append('exit "$status"')
    return "\n".join(lines) + "\n"


def kit_files(qmgrs: Sequence[str], servers: Sequence[tuple[str, str]]) -> dict[str, str]:
    """Every file of the kit by name: the MQ part when there are queue managers, the EMS part when there
    are servers (``(name, url)``)."""
    files: dict[str, str] = {}
    if qmgrs:
        files[MQSC] = display_mqsc()
        files[RUNMQSC_SCRIPT] = runmqsc_script(qmgrs)
        files[REST_SCRIPT] = rest_script(qmgrs)
    if servers:
        files[EMS_SCRIPT] = ems_script(servers)
        for name, _ in servers:
            files[file_stem(name) + ".tibemsadmin"] = ems_script_file()
    return files
