"""``mqctl spark analyze``: replay a publication log through a snapshot on Apache Spark (docs/spark.md)."""

from __future__ import annotations

import sys
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import OUTPUT_OPTION, Output, console, err_console

if TYPE_CHECKING:
    from mqctl.services.analyze import AnalyzeRequest
    from mqctl.spark.job import Analysis

app = sub_app(help="Routing analytics on Apache Spark (local mode, or any --master).", no_args_is_help=True)


@app.callback()
def spark_group() -> None:
    """Routing analytics on Apache Spark (local mode, or any --master)."""


class PublicationFormat(StrEnum):
    parquet = "parquet"
    csv = "csv"
    json = "json"


# The two inputs ``analyze`` requires, by their type alone (no default: first in its signature).
Snapshot = Annotated[
    Path,
    typer.Option("--snapshot", metavar="DIR", help="A snapshot folder (`mqctl export snapshot --out DIR`)."),
]
Publications = Annotated[
    Path,
    typer.Option(
        "--publications",
        metavar="PATH",
        help="Publication log: a file or folder of Parquet, CSV or JSON lines (from, topic, properties, "
        "count, bytes).",
    ),
]


@app.command("analyze")
def analyze_command(
    snapshot: Snapshot,
    publications: Publications,
    out: Path = typer.Option(..., "--out", metavar="DIR", help="Folder for the outputs and summary.json."),
    master: str = typer.Option(
        "local[*]", "--master", metavar="URL", help="Spark master: local[N], spark://HOST:PORT, yarn, ..."
    ),
    what_if: list[str] = typer.Option(
        [],
        "--what-if",
        metavar="VARIANT",
        help="topichost:TOPICOBJ@QMGR[,QMGR...], direct:TOPICOBJ or down:NODE (repeatable; one variant each).",
    ),
    fmt: PublicationFormat | None = typer.Option(
        None,
        "--format",
        case_sensitive=False,
        help="Format of the publication log (default: from its names).",
    ),
    force: bool = typer.Option(False, "--force", help="Write into a non-empty --out folder."),
    partitions: int | None = typer.Option(
        None, "--partitions", min=1, metavar="N", help="Spark shuffle partitions (default: sized to the log)."
    ),
    driver_memory: str = typer.Option("2g", "--driver-memory", metavar="SIZE", help="Spark driver memory."),
    per_key: bool = typer.Option(
        False,
        "--per-key",
        help="Also write deliveries and misses per routing key (which key reached whom): far more rows, "
        "the expensive mode.",
    ),
    print_submit: bool = typer.Option(
        False,
        "--print-submit",
        help="Run nothing: print the spark-submit command that runs this analysis on --master "
        "(docs/spark.md, On a Spark cluster).",
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Replay publications through the snapshot (and each --what-if variant): deliveries, misses, load."""
    from mqctl.services.analyze import AnalyzeRequest

    request = AnalyzeRequest(
        snapshot=snapshot,
        publications=publications,
        out=out,
        what_if=what_if,
        master=master,
        fmt=fmt.value if fmt else None,
        force=force,
        partitions=partitions,
        driver_memory=driver_memory,
        per_key=per_key,
    )
    if print_submit:
        _print_submit(request, output)
    else:
        _replay(request, output)


def _print_submit(request: AnalyzeRequest, output: Output) -> None:
    """The spark-submit command line that runs the request on its master (``--print-submit``)."""
    import shlex

    from mqctl.cli.spark_submit import submit_argv

    sys.stdout.write(shlex.join(submit_argv(request, output.value)) + "\n")


def _replay(request: AnalyzeRequest, output: Output) -> None:
    """The analysis run here (progress on stderr for people), then its summary as a table or as JSON."""
    from mqctl.services.analyze import analyze
    from mqctl.spark.progress import spark_progress

    result = analyze(request, lambda context: spark_progress(context, err_console(), output is Output.table))
    if output is Output.json:
        sys.stdout.write(result.summary_json)
    else:
        _show(result)


def _show(result: Analysis) -> None:
    from rich.table import Table

    from mqctl.render.analysis import COLUMNS, summary_rows

    table = Table(title=f"Replay written to {result.out}", title_justify="left")
    for column in COLUMNS:
        table.add_column(column, justify="left" if column == COLUMNS[0] else "right")
    summary: dict[str, Any] = result.summary
    for row in summary_rows(summary):
        table.add_row(*row)
    out = console()
    out.print(table)
    if summary["rejected"]:
        out.print(
            f"{summary['rejected']:,} publication rows rejected, each with its reason: {result.out / 'rejected'}"
        )
