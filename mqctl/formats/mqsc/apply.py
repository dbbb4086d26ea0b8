"""Run an MQSC script against one queue manager's ``NodeState`` in memory, as runmqsc would.

Pure: no I/O. The output lines imitate runmqsc (each command echoed with its number, one result
line, DISPLAY details, a closing summary). All-or-nothing by default: the script runs on a deep copy
and the copy replaces ``state`` only when no command failed; with ``continue_on_error`` the valid
commands apply and the failed ones are reported (the caller exits 1).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from mqctl.domain.errors import InputError
from mqctl.domain.model import Dialect, NodeState, Topology
from mqctl.domain.observed import PredictedProxy
from mqctl.formats.mqsc import clusters, topics
from mqctl.formats.mqsc.display import display
from mqctl.formats.mqsc.parser import BadCommand, Command, SkippedInsert, echo, iter_mqsc
from mqctl.formats.mqsc.topics import Unmodelled
from mqctl.formats.mqsc.values import Context, MqscSyntaxError
from mqctl.formats.mqsc.vocabulary import DISPLAYED_NOUNS
from mqctl.formats.script_run import ScriptRun, counted

Handler = Callable[[Context, Command], str]
NOT_APPLIED = "mqctl: valid, but not applied: the script is rejected."
"""Replaces a change's reply ("AMQ8690I: IBM MQ topic created.") in a script that is then rejected."""
PROGRESS_EVERY = 500
"""Commands between two progress reports."""

HANDLERS: dict[tuple[str, str], Handler] = {
    ("DEFINE", "TOPIC"): topics.define_topic,
    ("ALTER", "TOPIC"): topics.alter_topic,
    ("DELETE", "TOPIC"): topics.delete_topic,
    ("DEFINE", "SUB"): topics.define_sub,
    ("ALTER", "SUB"): topics.alter_sub,
    ("DELETE", "SUB"): topics.delete_sub,
    ("DEFINE", "NAMELIST"): clusters.define_namelist,
    ("ALTER", "NAMELIST"): clusters.alter_namelist,
    ("DELETE", "NAMELIST"): clusters.delete_namelist,
    ("DEFINE", "CHANNEL"): clusters.define_channel,
    ("ALTER", "CHANNEL"): clusters.alter_channel,
    ("DELETE", "CHANNEL"): clusters.delete_channel,
    ("ALTER", "QMGR"): clusters.alter_qmgr,
}


@dataclass
class MqscRun(ScriptRun):
    """A runmqsc run: the shared counts, plus syntax errors and the clusters the script names."""

    syntax_errors: int = 0
    clusters_referenced: set[str] = field(default_factory=set)
    changed_lines: list[int] = field(default_factory=list)
    """Indexes in ``lines`` of the replies that report a change ("created", "changed", ...)."""

    @property
    def error_count(self) -> int:
        return self.syntax_errors + self.failed


def apply_mqsc(
    state: NodeState,
    text: str,
    *,
    file: str | None,
    inserts: Mapping[str, str],
    next_seq: Callable[[], int],
    continue_on_error: bool = False,
    progress: Callable[[int], None] | None = None,
    dialect_of: Callable[[str], Dialect | None] | None = None,
    cluster_view: Callable[[frozenset[str]], Topology] | None = None,
    proxies: Callable[[NodeState], list[PredictedProxy]] | None = None,
) -> MqscRun:
    """Apply ``text`` to ``state`` (see the module docstring for the all-or-nothing rule).

    ``progress``, if given, is called now and then with the line number reached (for a progress bar);
    ``dialect_of`` tells the dialect of other nodes of the store (a PARENT must be a queue manager);
    ``cluster_view`` reads what the members of some clusters define (``Context.clusters_known``);
    ``proxies`` predicts the proxy subscriptions of the queue manager as it is (``Context.proxies``).
    """
    work = copy.deepcopy(state)
    ctx = Context(state=work, file=file, next_seq=next_seq, cluster_view=cluster_view, proxies=proxies)
    if dialect_of is not None:
        ctx.dialect_of = dialect_of
    run = MqscRun()
    for item in iter_mqsc(text, file=file, inserts=inserts):
        run.read += 1
        if progress is not None and run.read % PROGRESS_EVERY == 0:
            progress(item.line)
        run.lines.extend(echo(item.number, item.lines))
        if isinstance(item, BadCommand):
            run.syntax_errors += 1
            run.errors.append(item.error)
            run.lines.append(f"AMQ8405I: Syntax error detected: {item.error.one_line()}")
        elif isinstance(item, SkippedInsert):
            run.skipped += 1
            names = ", ".join(f"+{n}+" for n in item.missing)
            word = "insert" if len(item.missing) == 1 else "inserts"
            message = f"{word} {names} without a value (give it with --set NAME=VALUE); command skipped"
            run.warnings.append(f"{file or '<input>'}:{item.line}: {message}")
            run.lines.append(f"mqctl: {message}.")
        else:
            _one(ctx, item, run)
    run.warnings.extend(ctx.warnings)
    run.unmodelled.update(ctx.unmodelled)
    run.clusters_referenced = set(ctx.clusters)
    if continue_on_error or run.error_count == 0:
        for f in dataclasses.fields(state):
            setattr(state, f.name, getattr(work, f.name))
        run.applied = True
    else:
        for index in run.changed_lines:
            run.lines[index] = NOT_APPLIED
    run.lines.extend(summary(run))
    return run


def _one(ctx: Context, cmd: Command, run: MqscRun) -> None:
    handler = HANDLERS.get((cmd.verb, cmd.noun))
    try:
        if cmd.verb == "DISPLAY" and cmd.noun in DISPLAYED_NOUNS:
            result = display(ctx, cmd)
        elif handler is not None:
            result = [handler(ctx, cmd)]
        else:
            raise Unmodelled(f"{cmd.verb} {cmd.noun} is not modelled")
    except Unmodelled as skip:
        run.not_modelled += 1
        run.unmodelled[f"{cmd.verb} {cmd.noun}"] += 1
        run.lines.append(f"mqctl: not modelled ({skip.reason}); skipped.")
        return
    except MqscSyntaxError as err:  # before InputError, of which it is one
        run.syntax_errors += 1
        run.errors.append(err)
        run.lines.append(f"AMQ8405I: Syntax error detected: {err.one_line()}")
        return
    except InputError as err:
        run.failed += 1
        run.errors.append(err)
        run.lines.append(f"mqctl: error: {err.one_line()}")
        return
    run.processed += 1
    if handler is not None:
        run.changed_lines.append(len(run.lines))
    run.lines.extend(result)


def summary(run: MqscRun) -> list[str]:
    """runmqsc's closing lines, plus mqctl's counts of skipped commands."""
    out = [":", "One MQSC command read." if run.read == 1 else f"{run.read} MQSC commands read."]
    if run.syntax_errors == 0:  # runmqsc says so beside a refused command too
        out.append("No commands have a syntax error.")
    elif run.syntax_errors == 1:
        out.append("One command has a syntax error.")
    else:
        out.append(f"{run.syntax_errors} commands have a syntax error.")
    # a rejected script processed none of its valid changes: runmqsc's own words count them
    withheld = 0 if run.applied else len(run.changed_lines)
    unprocessed = run.failed + withheld
    if unprocessed == 0:
        out.append("All valid MQSC commands were processed.")
    elif unprocessed == 1:
        out.append("One valid MQSC command could not be processed.")
    else:
        out.append(f"{unprocessed} valid MQSC commands could not be processed.")
    attributes = run.attributes_not_modelled
    out.append(
        f"{counted(run.not_modelled, 'command')} not modelled by mqctl and skipped; "
        f"{run.skipped} skipped for an insert with no value; "
        f"{attributes} {'attribute' if attributes == 1 else 'attributes'} not modelled and ignored."
    )
    if run.unmodelled:
        out.append(f"Not modelled: {run.unmodelled_text()}.")
    if withheld:
        out.append("The script is rejected: no command was applied (--continue applies the valid ones).")
    return out
