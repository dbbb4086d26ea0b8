"""`mqctl plan` for people and programs: the Rich runbook, the pull-request Markdown, and JSON.

Every loss is named: the subscription, its node, the publisher and topic of the probe, and why it is
not delivered while the step stands — no publisher folded into a count.
"""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING

from mqctl.domain.plan.search import PlanEntry

if TYPE_CHECKING:
    from mqctl.domain.plan.plan import Step
    from mqctl.services.plan import PlanReport, StepText


def write_json(report: PlanReport) -> None:
    sys.stdout.write(json.dumps(report.to_json(), indent=2, ensure_ascii=False) + "\n")


def entry_text(e: PlanEntry) -> str:
    props = ", ".join(f"{k}={v.value!r}" for k, v in e.probe.properties)
    probe = f"{e.probe.topic} ({props})" if props else e.probe.topic
    return f"sub {e.subscription} on {e.node}: from {e.probe.publisher}, {probe}: {e.outcome.text()}"


def headline(report: PlanReport) -> str:
    plan = report.plan
    n = len(plan.steps)
    if plan.order.refused:
        return f"no order avoids a state the products refuse ({plan.order.how})"
    if plan.safe:
        naive = len(plan.naive.lost)
        tail = f"; node by node in name order it would lose {naive} deliveries" if naive else ""
        return f"{n} step(s), no transient loss{tail}"
    windows = ", ".join(f"step {s.number} on {s.node}" for s in plan.steps if s.verdict.lost)
    lost = sum(len(s.verdict.lost) for s in plan.steps)
    return (
        f"every order loses publications: {lost} delivery(ies) lost while {windows} stands ({plan.order.how})"
    )


def render_text(report: PlanReport) -> None:
    from rich.console import Console
    from rich.markup import escape

    console = Console(highlight=False)
    plan = report.plan
    console.print(
        f"[bold]mqctl plan[/bold] {escape(report.before.spec)} ({report.before.kind}) -> "
        f"{escape(report.after.spec)} ({report.after.kind})",
        soft_wrap=True,
    )
    console.print(f"[dim]{escape(plan.order.how)}; {escape(report.probes.how)}[/dim]", soft_wrap=True)
    for step, text in zip(plan.steps, report.texts, strict=True):
        _text_step(console, escape, step, text, report.file_names(step)[0])
    style = "green" if plan.safe else "red"
    console.print(f"\n[bold {style}]{escape(headline(report))}[/bold {style}]", soft_wrap=True)


RESTART = (
    "lands when the pod restarts: {node}'s MQSC comes from auto-configuration files, which its container "
    "applies at every start. Put these commands in them (a DELETE too: removing a DEFINE from the files "
    "deletes nothing), then restart the pod, and only then the next step."
)
"""The runbook's word on a step with ``restart`` (semantics §9, Transitions)."""


def _text_step(console, escape, step: Step, text: StepText, script: str) -> None:  # type: ignore[no-untyped-def]
    flags = [f for f, on in (("quiesce its publishers", step.quiesce), ("restart", step.restart)) if on]
    more = f"  [yellow]({', '.join(flags)})[/yellow]" if flags else ""
    console.print(
        f"\n[bold]Step {step.number}[/bold] on {escape(step.node)} ({step.dialect}){more}  [dim]{escape(script)}[/dim]"
    )
    for action in step.actions:
        console.print(f"  [dim]{escape(action.label)}[/dim]", soft_wrap=True)
    if step.restart:
        console.print(f"  [yellow]{escape(RESTART.format(node=step.node))}[/yellow]", soft_wrap=True)
    for line in text.commands:
        console.print(f"    {escape(line)}", soft_wrap=True)
    if step.verdict.refused:
        console.print(f"  [red]refused: {escape(step.verdict.refused)}[/red]", soft_wrap=True)
    for e in step.verdict.lost:
        console.print(f"  [red]lost while it stands[/red]  {escape(entry_text(e))}", soft_wrap=True)
    for e in step.verdict.gained:
        console.print(f"  [yellow]gained while it stands[/yellow]  {escape(entry_text(e))}", soft_wrap=True)
    if text.checks:
        console.print("  [dim]check:[/dim] " + escape("; ".join(text.checks)), soft_wrap=True)
    console.print(f"  [dim]rollback: {len(text.rollback)} command(s)[/dim]")


def _fence(lines: list[str]) -> str:
    longest = max((len(m) for line in lines for m in re.findall(r"`+", line)), default=0)
    fence = "`" * max(3, longest + 1)
    return "\n".join([fence, *lines, fence])


def _cell(text: str) -> str:
    return (
        text.replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("`", "'")
        .replace("\n", " ")
    )


def render_markdown(report: PlanReport) -> str:
    plan = report.plan
    out = [
        f"## mqctl plan: {_cell(headline(report))}",
        "",
        f"{_cell(plan.order.how)}; {_cell(report.probes.how)}.",
        "",
    ]
    for step, text in zip(plan.steps, report.texts, strict=True):
        script, rollback = report.file_names(step)
        flags = [f for f, on in (("quiesce", step.quiesce), ("restart", step.restart)) if on]
        out += [
            f"### Step {step.number} on {_cell(step.node)} (`{script}`)"
            + (f" — {', '.join(flags)}" if flags else ""),
            "",
        ]
        out += [f"- {_cell(a.label)}" for a in step.actions]
        if step.restart:
            out += ["", f"**Restart:** {_cell(RESTART.format(node=step.node))}"]
        out += ["", _fence(text.commands), ""]
        if step.verdict.refused:
            out += [f"**Refused:** {_cell(step.verdict.refused)}", ""]
        rows = [("lost", e) for e in step.verdict.lost] + [("gained", e) for e in step.verdict.gained]
        if rows:
            out += [
                "| while it stands | subscription | node | publisher | topic | outcome |",
                "|---|---|---|---|---|---|",
            ]
            out += [
                f"| {kind} | {_cell(e.subscription)} | {_cell(e.node)} | {_cell(e.probe.publisher)} | "
                f"{_cell(e.probe.topic)} | {_cell(e.outcome.text())} |"
                for kind, e in rows
            ]
            out.append("")
        if text.checks:
            out += ["Checks:", "", _fence(text.checks), ""]
        out += [
            f"<details><summary>Rollback (`{rollback}`)</summary>",
            "",
            _fence(text.rollback),
            "",
            "</details>",
            "",
        ]
    return "\n".join(out)
