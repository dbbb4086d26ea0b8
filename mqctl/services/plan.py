"""`plan`: roll a change out step by step, every intermediate state routed (issue 34).

The sides are read as ``diff`` reads them (``services.diff.read_side``) and the probes are the ones
``diff`` derives for the whole change; the domain (``mqctl.domain.plan``) cuts the change into actions,
routes the states and orders the steps; the formats write each step's commands (MQSC for a queue
manager, tibemsadmin for an EMS server), its rollback and its DISPLAY checks. ``--out`` writes one
script per step, ``NN-NODE.mqsc`` / ``NN-NODE.tibemsadmin``, each with its ``NN-NODE.rollback.…``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mqctl.domain.diff import ProbeSet, derive, diff_objects
from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, Topology
from mqctl.domain.names import check_mq_name
from mqctl.domain.plan import Plan, make_plan
from mqctl.domain.plan.plan import Step
from mqctl.services.diff import DEFAULT_MAX_PROBES, Side, check_same_estate, read_side

SUFFIX = {Dialect.MQ: "mqsc", Dialect.EMS: "tibemsadmin"}


@dataclass
class StepText:
    commands: list[str]
    rollback: list[str]
    checks: list[str]


@dataclass
class PlanReport:
    before: Side
    after: Side
    plan: Plan
    probes: ProbeSet
    texts: list[StepText]

    @property
    def safe(self) -> bool:
        return self.plan.safe

    def file_names(self, step: Step) -> tuple[str, str]:
        stem = f"{step.number:02d}-{step.node}"
        return f"{stem}.{SUFFIX[step.dialect]}", f"{stem}.rollback.{SUFFIX[step.dialect]}"

    def to_json(self) -> dict[str, Any]:
        plan = self.plan
        steps = []
        for step, text in zip(plan.steps, self.texts, strict=True):
            script, rollback = self.file_names(step)
            steps.append(
                {
                    "number": step.number,
                    "node": step.node,
                    "dialect": str(step.dialect),
                    "actions": [a.label for a in step.actions],
                    "commands": text.commands,
                    "rollback": text.rollback,
                    "checks": text.checks,
                    "lost": [e.to_json() for e in step.verdict.lost],
                    "gained": [e.to_json() for e in step.verdict.gained],
                    "refused": step.verdict.refused,
                    "restart": step.restart,
                    "quiesce": step.quiesce,
                    "files": {"script": script, "rollback": rollback},
                }
            )
        return {
            "before": self.before.to_json(),
            "after": self.after.to_json(),
            "steps": steps,
            "safe": plan.safe,
            "search": {
                "how": plan.order.how,
                "exhaustive": plan.order.exhaustive,
                "actions": len(plan.actions),
                "states_routed": plan.states.routed,
                "refused": plan.order.refused,
            },
            "naive": {
                "order": plan.naive_steps,
                "lost": len(plan.naive.lost),
                "gained": len(plan.naive.gained),
                "refused": plan.naive.refused,
            },
            "probes": {
                "routed": len(self.probes.probes),
                "derived": self.probes.derived,
                "exhaustive": self.probes.exhaustive,
                "how": self.probes.how,
            },
            "summary": {
                "steps": len(plan.steps),
                "lost": sum(len(s.verdict.lost) for s in plan.steps),
                "gained": sum(len(s.verdict.gained) for s in plan.steps),
            },
        }


def step_texts(plan: Plan) -> list[StepText]:
    from mqctl.formats.ems.plan_script import admin_checks, admin_commands
    from mqctl.formats.mqsc.plan_script import mqsc_checks, mqsc_commands

    out: list[StepText] = []
    previous = plan.states.node_states(frozenset())
    for step in plan.steps:
        try:
            now = plan.states.node_states(step.applied, step.order)
        except InputError:
            now = previous
        if step.dialect is Dialect.MQ:
            out.append(
                StepText(
                    mqsc_commands(step.edits, now[step.node]),
                    mqsc_commands(step.rollback, previous[step.node]),
                    mqsc_checks(step.edits, previous[step.node], now[step.node]),
                )
            )
        else:
            b, a = previous[step.node], now[step.node]
            out.append(
                StepText(
                    admin_commands(step.edits, b, a),
                    admin_commands(step.rollback, a, b),
                    admin_checks(step.edits),
                )
            )
        previous = now
    return out


def read_sides(before_spec: str, after_spec: str, encoding: str | None) -> tuple[Side, Side]:
    before = read_side(before_spec, encoding=encoding)
    after = read_side(after_spec, encoding=encoding)
    check_same_estate(before, after)
    return before, after


def plan_for(
    before: Topology,
    after: Topology,
    *,
    max_probes: int = DEFAULT_MAX_PROBES,
    restart: frozenset[str] = frozenset(),
) -> tuple[Plan, ProbeSet]:
    """The plan between two models (the probes ``diff`` derives for the whole change); ``restart``: the
    nodes whose definitions come from auto-configuration files."""
    objects = diff_objects(before, after)
    probes = derive(before, after, objects, max_probes=max_probes)
    plan = make_plan(before, after, probes.probes, objects=objects, causes=probes.causes, restart=restart)
    return plan, probes


def run_plan(
    before_spec: str,
    after_spec: str,
    *,
    max_probes: int = DEFAULT_MAX_PROBES,
    encoding: str | None = None,
    out: Path | None = None,
) -> PlanReport:
    if max_probes < 1:
        raise InputError("must be at least 1", attribute="--max-probes")
    before, after = read_sides(before_spec, after_spec, encoding)
    # A queue manager kept in auto-configuration files on either side: its container applies that MQSC at
    # every start, so the step lands when the pod restarts (and a runmqsc change alone would not last).
    restart = before.autoconfig | after.autoconfig
    plan, probes = plan_for(before.topology, after.topology, max_probes=max_probes, restart=restart)
    report = PlanReport(before, after, plan, probes, step_texts(plan))
    if out is not None:
        write_scripts(report, out)
    return report


def _header(report: PlanReport, step: Step, rollback: bool) -> list[str]:
    mark = "*" if step.dialect is Dialect.MQ else "#"
    what = "rollback of step" if rollback else "step"
    total = len(report.plan.steps)
    lines = [f"{mark} mqctl plan: {what} {step.number} of {total} on {step.node}"]
    if step.dialect is Dialect.MQ:
        from mqctl.formats.mqsc.lexer import LITERAL_MARKER

        lines.append(LITERAL_MARKER)  # +NAME+ in a value is literal, as the plan wrote it
    lines += [f"{mark}   {a.label}" for a in step.actions]
    return lines


def write_scripts(report: PlanReport, folder: Path) -> list[Path]:
    """One script per step and its rollback, applicable as they are by runmqsc / tibemsadmin and by
    ``mqctl runmqsc NODE FILE`` / ``mqctl tibemsadmin NODE FILE``."""
    if folder.exists() and not folder.is_dir():
        raise InputError("is not a folder", file=str(folder), attribute="--out")
    folder.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for step, text in zip(report.plan.steps, report.texts, strict=True):
        if step.dialect is Dialect.MQ:
            check_mq_name(step.node, "qmgr")  # a file name made of it
        elif "/" in step.node or step.node in (".", ".."):
            raise InputError("cannot be part of a file name", obj=f"server {step.node}")
        script, rollback = report.file_names(step)
        for name, lines, back in ((script, text.commands, False), (rollback, text.rollback, True)):
            path = folder / name
            path.write_text("\n".join([*_header(report, step, back), *lines]) + "\n", encoding="utf-8")
            written.append(path)
    return written


def model_at_step(plan_file: Path, number: int, *, encoding: str | None = None) -> Topology:
    """The model once step ``number`` of a saved plan (``plan -o json``) is applied: BEFORE read again
    as the plan names it, and the steps' commands applied in order through the runmqsc and tibemsadmin
    doors (0: BEFORE itself)."""
    import itertools
    import json

    from mqctl.domain.model import Node, NodeState, node_states
    from mqctl.domain.plan.states import join
    from mqctl.formats.ems import apply_tibemsadmin
    from mqctl.formats.mqsc import apply_mqsc

    where = str(plan_file)
    try:
        data = json.loads(plan_file.read_text(encoding="utf-8"))
        steps = data["steps"]
        spec = data["before"]["side"]
    except OSError as exc:
        raise InputError(
            f"cannot read the plan: {exc.strerror or exc}", file=where, attribute="--plan"
        ) from None
    except (ValueError, KeyError, TypeError):
        raise InputError("is not a plan (mqctl plan -o json)", file=where, attribute="--plan") from None
    if not isinstance(steps, list) or not 0 <= number <= len(steps):
        raise InputError(f"is not a step of this plan (0 to {len(steps)})", attribute="--step")
    states = node_states(read_side(spec, encoding=encoding).topology)
    seq = itertools.count(1_000_000_000)
    for step in steps[:number]:
        node, dialect = str(step["node"]), Dialect(step["dialect"])
        state = states.setdefault(node, NodeState(node=Node(node, dialect=dialect)))
        text = "\n".join(step["commands"]) + "\n"
        label = f"{where} step {step['number']}"
        if dialect is Dialect.MQ:
            errors = apply_mqsc(state, text, file=label, inserts={}, next_seq=lambda: next(seq)).errors
        else:
            errors = apply_tibemsadmin(state, text, file=label, next_seq=lambda: next(seq)).errors
        if errors:
            raise errors[0]
    return join(states)
