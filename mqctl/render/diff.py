"""`mqctl diff` for people and programs: the Rich report, the pull-request Markdown with its Mermaid
picture of the changed paths (lost in red, gained in green), and SARIF for code scanning.

The routing diff is shown per subscription: its first probe (publisher, topic, properties), how many
publishers alike it stands for, and how many more probes show the same kind of change.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from mqctl.domain.diff.routing import Outcome, RoutingChange, by_subscription
from mqctl.domain.validation import Finding, Rule, Severity, Source
from mqctl.render.diagram import Arrow, Box, Diagram, Line, Mark, Shape
from mqctl.render.safe_text import json_text, safe

if TYPE_CHECKING:
    from mqctl.services.diff import DiffReport

WORDS = {
    "lost": "loses the publication",
    "gained": "gains the publication",
    "status": "delivered <-> stored",
    "host": "another topic host",
    "path": "another path",
    "reason": "missed for another reason",
}
RED, GREEN = "stroke:#c62828,stroke-width:2px", "stroke:#2e7d32,stroke-width:2px"
MAX_DRAWN = 60
"""Subscriptions drawn in the Mermaid picture at most (the tables list them all)."""


def write_json(report: DiffReport) -> None:
    """``-o json``: indented, but each routing entry on one line of its own. An estate's change gives
    tens of thousands of entries, and ``json`` indents only in Python (a second per 50 MB) while it
    writes a line in C."""
    import json

    data = report.to_json()
    routing = data.pop("routing")
    head = json_text(json.dumps(data, indent=2, ensure_ascii=False)).removesuffix("\n}")  # the other keys
    write = sys.stdout.write
    write(head + ',\n  "routing": [')
    chunk: list[str] = []
    for i, entry in enumerate(routing):
        chunk.append(("\n    " if i == 0 else ",\n    ") + json_text(json.dumps(entry, ensure_ascii=False)))
        if len(chunk) >= 4096:
            write("".join(chunk))
            chunk.clear()
    chunk.append("\n  ]\n}\n" if routing else "]\n}\n")
    write("".join(chunk))


def grouped(changes: Iterable[RoutingChange]) -> list[tuple[RoutingChange, int]]:
    """One row per subscription and kind of change: its first probe, and how many probes show it."""
    rows: list[tuple[RoutingChange, int]] = []
    for items in by_subscription(changes).values():
        kinds: dict[str, list[RoutingChange]] = {}
        for c in items:
            kinds.setdefault(c.change, []).append(c)
        rows += [(found[0], sum(c.total for c in found)) for found in kinds.values()]
    return rows


def _alike(change: RoutingChange) -> str:
    """`` and 97 publishers alike``: the others the entry stands for (their paths start at their name)."""
    n = len(change.alike)
    return f" and {n} publisher{'s' if n > 1 else ''} alike" if n else ""


def _props(change: RoutingChange) -> str:
    return ", ".join(f"{k}={v.value!r}" for k, v in change.probe.properties)


def headline(report: DiffReport) -> str:
    counts = report.subscriptions()
    if not report.routing:
        return "Routing unchanged"
    said = [f"{n} subscription(s) {WORDS[k]}" for k, n in counts.items() if n]
    return "Routing changed: " + "; ".join(said)


# --- Rich text -------------------------------------------------------------------------------------------


def render_text(report: DiffReport) -> None:
    from rich.console import Console

    from mqctl.render.safe_text import markup as escape

    console = Console(highlight=False)
    console.print(
        f"[bold]mqctl diff[/bold] {escape(report.before.spec)} ({report.before.kind}) -> "
        f"{escape(report.after.spec)} ({report.after.kind})"
    )
    console.print(f"\n[bold]Objects[/bold] ({len(report.objects)} changed)")
    for c in report.objects:
        where = f"  [dim]{escape(_where(c.source))}[/dim]" if c.source else ""
        console.print(f"  {c.change} {c.kind} {escape(c.label())}{where}", soft_wrap=True)
        if c.change == "changed":
            for a in c.attributes:
                console.print(f"      {escape(a.text())}", soft_wrap=True)
    console.print(
        f"\n[bold]Findings[/bold] ({len(report.introduced)} introduced, {len(report.resolved)} resolved)"
    )
    for label, items in (("+", report.introduced), ("-", report.resolved)):
        for f in items:
            console.print(f"  {label} {f.rule.id} {f.rule.code}  {escape(f.message)}", soft_wrap=True)
    console.print(f"\n[bold]Routing[/bold] ({escape(report.probes.how)})")
    for r, n in grouped(report.routing):
        probe = f"{r.probe.topic} ({_props(r)})" if r.probe.properties else r.probe.topic
        more = f" [dim](+{n - 1} probes)[/dim]" if n > 1 else ""
        console.print(
            f"  [bold]{r.change:<7}[/bold] sub {escape(r.subscription)} on {escape(r.node)}: "
            f"published on {escape(r.probe.publisher)}{_alike(r)}, {escape(probe)}{more}",
            soft_wrap=True,
        )
        console.print(f"      before: {escape(r.before.text() if r.before else '-')}", soft_wrap=True)
        console.print(f"      after:  {escape(r.after.text() if r.after else '-')}", soft_wrap=True)
        for side, outcome in (("before", r.before), ("after", r.after)):
            if outcome is not None and outcome.unsupported is not None:
                console.print(
                    f"      [red]{side}: {escape(outcome.unsupported.message)}[/red]", soft_wrap=True
                )
    style = "red" if report.routing else "green"
    console.print(f"\n[bold {style}]{escape(headline(report))}[/bold {style}]")


def _outcome_cell(outcome: Outcome | None) -> str:
    """A Markdown cell: the outcome, and the sentence of an unsupported path under it."""
    if outcome is None:
        return "-"
    if outcome.unsupported is None:
        return _cell(outcome.text())
    return f"{_cell(outcome.text())}<br>⚠️ {_cell(outcome.unsupported.message)}"


def _where(source: tuple[str, int | None] | None) -> str:
    if source is None:
        return ""
    return source[0] + (f":{source[1]}" if source[1] is not None else "")


# --- Markdown --------------------------------------------------------------------------------------------


def _cell(text: str) -> str:
    """Text safe in a Markdown table cell: no pipe, no line break, no HTML, no control character."""
    return (
        safe(text)
        .replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("`", "'")
        .replace("\n", " ")
    )


def render_markdown(report: DiffReport) -> str:
    out = [
        f"## mqctl diff: `{_cell(report.before.spec)}` → `{_cell(report.after.spec)}`",
        "",
        f"**{headline(report)}** ({_cell(report.probes.how)}).",
        "",
        f"### Objects ({len(report.objects)} changed)",
        "",
    ]
    if report.objects:
        out += ["| Node | Kind | Name | Change | Attributes | Defined at |", "|---|---|---|---|---|---|"]
        for c in report.objects:
            attrs = "<br>".join(_cell(a.text()) for a in c.attributes) if c.change == "changed" else ""
            out.append(
                f"| {_cell(c.node)} | {c.kind} | {_cell(c.name)} | {c.change} | {attrs} | "
                f"{_cell(_where(c.source))} |"
            )
    else:
        out.append("No object changed.")
    out += ["", f"### Findings ({len(report.introduced)} introduced, {len(report.resolved)} resolved)", ""]
    for label, items in (("Introduced", report.introduced), ("Resolved", report.resolved)):
        for f in items:
            out.append(f"- {label}: **{f.rule.id} {f.rule.code}** ({f.severity}) {_cell(f.message)}")
    if not report.introduced and not report.resolved:
        out.append("No finding introduced or resolved.")
    out += ["", f"### Routing ({len(by_subscription(report.routing))} subscription(s) changed)", ""]
    if report.routing:
        out += [
            "| Subscription | Node | Change | Publisher | Topic | Before | After |",
            "|---|---|---|---|---|---|---|",
        ]
        for r, n in grouped(report.routing):
            topic = r.probe.topic + (f" ({_props(r)})" if r.probe.properties else "")
            more = f" (+{n - 1} probes)" if n > 1 else ""
            out.append(
                f"| {_cell(r.subscription)} | {_cell(r.node)} | {r.change} | {_cell(r.probe.publisher + _alike(r))} | "
                f"{_cell(topic)}{more} | {_outcome_cell(r.before)} | {_outcome_cell(r.after)} |"
            )
        out += [
            "",
            "#### Changed paths (lost in red, gained in green)",
            "",
            "```mermaid",
            mermaid(report),
            "```",
        ]
    else:
        out.append("No subscription's answer changed.")
    return "\n".join(out).rstrip() + "\n"


def mermaid(report: DiffReport) -> str:
    """The changed paths as a Mermaid flowchart: a lost path's links red, a gained one's green."""
    from mqctl.render.mermaid import write_mermaid

    diagram = Diagram(f"mqctl diff {report.before.spec} -> {report.after.spec}")
    diagram.line_meanings = {Line.SOLID: "a hop of a changed path: red before the change, green after"}
    colours: list[str] = []
    drawn: set[tuple[str, str, str]] = set()
    rows = grouped(c for c in report.routing if c.change in ("lost", "gained", "path", "host"))
    if len(rows) > MAX_DRAWN:
        diagram.notes.append(f"{len(rows) - MAX_DRAWN} more changed subscription(s) are in the table only")
    for c, _n in rows[:MAX_DRAWN]:
        publisher = c.probe.publisher
        diagram.boxes.setdefault(publisher, Box(publisher, [publisher], marks={Mark.PUBLISHER}))
        sub_key = f"sub:{c.node}:{c.subscription}"
        lost = c.change == "lost"
        diagram.boxes.setdefault(
            sub_key,
            Box(
                sub_key,
                [c.subscription, f"on {c.node}"],
                Shape.SUBSCRIPTION,
                {Mark.MISSED if lost else Mark.DELIVERED},
            ),
        )
        for outcome, colour in ((c.before, RED), (c.after, GREEN)):
            if outcome is None or not outcome.receives or (colour is GREEN and lost):
                continue
            if colour is RED and c.change == "gained":
                continue
            path = [*outcome.path, sub_key]
            for tail, head in zip(path, path[1:], strict=False):
                if (tail, head, colour) in drawn:
                    continue
                drawn.add((tail, head, colour))
                for end in (tail, head):
                    diagram.boxes.setdefault(end, Box(end, [end]))
                diagram.arrows.append(Arrow(tail, head, ["before" if colour is RED else "after"]))
                colours.append(colour)
    text = write_mermaid(diagram)
    for colour in (RED, GREEN):
        indexes = [str(i) for i, c in enumerate(colours) if c == colour]
        if indexes:
            text += f"  linkStyle {','.join(indexes)} {colour}\n"
    return text.rstrip("\n")


# --- SARIF -----------------------------------------------------------------------------------------------

DIFF_RULES = {
    "lost": Rule(
        "MQD001",
        "LOST_DELIVERY",
        Severity.ERROR,
        "A subscription that received a publication no longer does after the change.",
        "The change stops a flow of publications: subscribers go quiet without any error (semantics §3-§9).",
        "Check that the subscriber is meant to lose these publications; otherwise revert or adjust the change.",
    ),
    "gained": Rule(
        "MQD002",
        "GAINED_DELIVERY",
        Severity.INFO,
        "A subscription receives publications it did not receive before the change.",
        "New traffic reaches the subscriber: its queue and its consumers must expect it.",
        "Check that the subscriber is meant to receive these publications.",
    ),
    "changed": Rule(
        "MQD003",
        "ROUTE_CHANGED",
        Severity.WARNING,
        "A publication takes another path, another topic host, or is stored instead of delivered.",
        "Other channels carry the traffic, or messages wait for a durable subscriber: capacity and order "
        "may change (semantics §9).",
        "Check the channels and hosts on the new path.",
    ),
    "reason": Rule(
        "MQD004",
        "MISS_REASON_CHANGED",
        Severity.INFO,
        "A subscription that missed the publication misses it for another reason.",
        "Nothing is delivered either way, but the cause to fix is another one.",
        "Read the new reason with mqctl explain.",
    ),
}


def to_sarif(report: DiffReport, version: str) -> dict[str, Any]:
    """The introduced findings and the routing changes, one result per subscription and kind, located
    at the changed line of the changed file when the side came from files."""
    from mqctl.formats import findings as writers

    results: list[Finding] = list(report.introduced)
    for c, n in grouped(report.routing):
        rule = DIFF_RULES.get(c.change, DIFF_RULES["changed"])
        cause = report.cause_of(c)
        because = f" because of {cause.change} {cause.kind} {cause.label()}" if cause is not None else ""
        message = (
            f"sub {c.subscription} on {c.node} {WORDS[c.change]} published on {c.probe.topic} by "
            f"{c.probe.publisher}{because} ({c.before.text() if c.before else '-'} -> "
            f"{c.after.text() if c.after else '-'}; {n} probe(s))."
        )
        sources = () if cause is None or cause.source is None else (Source(*cause.source),)
        results.append(Finding(rule, message, (f"sub {c.subscription} on {c.node}",), (c.node,), sources))
    rules: dict[str, Rule] = {}
    for f in results:
        rules.setdefault(f.rule.id, f.rule)
    return writers.to_sarif(results, sorted(rules.values(), key=lambda r: r.id), version)
