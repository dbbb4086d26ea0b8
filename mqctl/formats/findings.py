"""Validation findings out: the JSON contract, SARIF 2.1.0 for code scanning, JUnit XML for CI viewers.

JSON (docs/cli.md)::

    {"findings": [{"id", "code", "severity", "message", "objects": [...], "nodes": [...],
                   "source": {"file", "line"} | null}],
     "summary": {"error": n, "warning": n, "info": n}}

SARIF: one run whose driver lists the rules that ran (id, name, descriptions, help, default level);
each result names its rule, level and message, and points at the file and line of its first object
that came from a file (the others are related locations). A finding about objects that came from no
file has a logical location naming them instead (``validate`` anchors a cluster's finding at its queue
managers' definitions when they came from files). JUnit: one test case per finding, named by its rule
and objects (a failure carrying the message when it is at or above ``--fail-on``), and one passing test
case per rule that found nothing.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from pathlib import PurePosixPath, PureWindowsPath
from typing import Any
from xml.etree import ElementTree as ET

from mqctl.domain.validation import Finding, Rule, Severity, Source, summary
from mqctl.render.safe_text import safe

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
SARIF_VERSION = "2.1.0"
SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
TOOL = "mqctl"


def to_json(findings: Sequence[Finding]) -> dict[str, Any]:
    return {"findings": [f.to_json() for f in findings], "summary": summary(findings)}


# --- SARIF -------------------------------------------------------------------------------------------


def to_sarif(findings: Sequence[Finding], rules: Sequence[Rule], version: str) -> dict[str, Any]:
    """A SARIF 2.1.0 log; ``rules`` are those that ran (every result's rule is among them)."""
    index = {rule.id: i for i, rule in enumerate(rules)}
    return {
        "$schema": SARIF_SCHEMA,
        "version": SARIF_VERSION,
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": TOOL,
                        "version": version,
                        "semanticVersion": version,
                        "rules": [_descriptor(rule) for rule in rules],
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": [_result(f, index[f.rule.id]) for f in findings],
            }
        ],
    }


def _descriptor(rule: Rule) -> dict[str, Any]:
    return {
        "id": rule.id,
        "name": rule.code,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": rule.why},
        "help": {
            "text": f"{rule.why} Fix: {rule.fix} (docs/rules.md, {rule.id} {rule.code})",
            "markdown": f"**{rule.code}** ({rule.severity})\n\n{rule.why}\n\n**Fix:** {rule.fix}\n\n"
            f"See docs/rules.md, section {rule.id} {rule.code}.",
        },
        "defaultConfiguration": {"level": SARIF_LEVEL[rule.severity]},
        "properties": {"tags": ["mqctl", rule.code], "precision": "very-high"},
    }


def _result(f: Finding, rule_index: int) -> dict[str, Any]:
    out: dict[str, Any] = {
        "ruleId": f.rule.id,
        "ruleIndex": rule_index,
        "level": SARIF_LEVEL[f.severity],
        "message": {"text": f.message},
        "locations": [_physical(f.sources[0])] if f.sources else [_logical(f)],
        "partialFingerprints": {"mqctlFinding/v1": _fingerprint(f)},
        "properties": {"code": f.rule.code, "objects": list(f.objects), "nodes": list(f.nodes)},
    }
    if len(f.sources) > 1:
        out["relatedLocations"] = [{"id": i, **_physical(s)} for i, s in enumerate(f.sources[1:], start=1)]
    return out


def artifact_uri(path: str) -> str:
    """A file as a SARIF URI: forward slashes, relative paths kept relative (to the checkout root)."""
    if PureWindowsPath(path).drive:
        return PureWindowsPath(path).as_uri()
    posix = PurePosixPath(path.replace("\\", "/"))
    if posix.is_absolute():
        return posix.as_uri()
    text = str(posix)
    return text[2:] if text.startswith("./") else text


def _physical(source: Source) -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": artifact_uri(source.file)}}
    if source.line is not None and source.line >= 1:
        physical["region"] = {"startLine": source.line}
        if source.column is not None and source.column >= 1:
            physical["region"]["startColumn"] = source.column
    return {"physicalLocation": physical}


def _logical(f: Finding) -> dict[str, Any]:
    return {"logicalLocations": [{"fullyQualifiedName": name, "kind": "object"} for name in f.objects]}


def _fingerprint(f: Finding) -> str:
    """Stable across runs and line moves: the rule and the objects, not the wording or the line. A
    finding that names only files (an import error: a file has several) adds its message, which holds
    the error's text but not its line."""
    keys = [f.rule.id, *f.objects]
    if all(name.startswith("file ") for name in f.objects):
        keys.append(f.message)
    return hashlib.sha256("\n".join(keys).encode()).hexdigest()[:32]


# --- JUnit XML ---------------------------------------------------------------------------------------


def to_junit(findings: Sequence[Finding], rules: Sequence[Rule], fail_on: Severity) -> str:
    """JUnit XML: a failing test case per finding at or above ``fail_on``, a passing one for the rest
    (the finding in its system-out) and for each rule that found nothing."""
    cases: list[ET.Element] = []
    failures = 0
    names = Counter(_case_name(f) for f in findings)
    for f in findings:
        name = _case_name(f)
        if names[name] > 1 and f.source is not None and f.source.line is not None:
            name += f" line {f.source.line}"  # the errors of one file
        case = ET.Element("testcase", _case_attributes(f.rule, name, f.source))
        details = _details(f)
        if f.severity.rank >= fail_on.rank:
            failures += 1
            failure = ET.SubElement(case, "failure", {"type": f.rule.code, "message": f.message})
            failure.text = details
        else:
            ET.SubElement(case, "system-out").text = details
        cases.append(case)
    found = {f.rule.id for f in findings}
    cases += [ET.Element("testcase", _case_attributes(r, r.code, None)) for r in rules if r.id not in found]
    counts = {"tests": str(len(cases)), "failures": str(failures), "errors": "0", "skipped": "0"}
    suites = ET.Element("testsuites", {"name": f"{TOOL} validate", **counts})
    suite = ET.SubElement(suites, "testsuite", {"name": f"{TOOL} validate", **counts})
    suite.extend(cases)
    ET.indent(suites)
    # what XML 1.0 cannot carry (most C0 controls) and what a viewer would act on, shown escaped
    return safe(ET.tostring(suites, encoding="unicode", xml_declaration=True), lines=True) + "\n"


def _case_name(f: Finding) -> str:
    """``MQC018 qmgr LEGACY, cluster EU, topic T on GW``: the rule and the objects (the identity of the
    SARIF fingerprint), not the message, so a test's history survives a change of wording."""
    return f"{f.rule.id} {', '.join(f.objects)}" if f.objects else f.rule.id


def _case_attributes(rule: Rule, name: str, source: Source | None) -> dict[str, str]:
    attributes = {"classname": f"{TOOL}.validate.{rule.id}", "name": name, "time": "0"}
    if source is not None:
        attributes["file"] = source.file
        if source.line is not None:
            attributes["line"] = str(source.line)
    return attributes


def _details(f: Finding) -> str:
    lines = [
        f"{f.rule.id} {f.rule.code} ({f.severity})",
        f.message,
        f"objects: {', '.join(f.objects) or '-'}",
        f"nodes: {', '.join(f.nodes) or '-'}",
    ]
    lines += [f"source: {s.file}" + (f":{s.line}" if s.line is not None else "") for s in f.sources]
    return "\n".join(lines)
