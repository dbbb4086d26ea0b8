"""``spark-submit`` entry point: ``spark-submit [spark options] mqctl/spark/submit.py [analyze options]``.

It takes the options of ``mqctl spark analyze`` and calls the same service
(``mqctl.services.analyze``); the session is the one spark-submit started (its ``--master`` and
``--py-files`` apply, see ``session.launched_by_spark_submit``). It needs none of the CLI (Typer, Rich):
a mistake is one line on stderr and exit 2, as in the CLI. docs/spark.md.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from mqctl.domain.errors import MqctlError
from mqctl.render.safe_text import error_line


def parser() -> argparse.ArgumentParser:
    """The options of ``mqctl spark analyze`` (docs/spark.md, Options)."""
    p = argparse.ArgumentParser(prog="mqctl/spark/submit.py", description=__doc__.splitlines()[0])
    p.add_argument("--snapshot", type=Path, required=True)
    p.add_argument("--publications", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--master", default="local[*]")
    p.add_argument("--what-if", action="append", default=[], dest="what_if")
    p.add_argument("--format", choices=("parquet", "csv", "json"), default=None, dest="fmt")
    p.add_argument("--force", action="store_true")
    p.add_argument("--partitions", type=int, default=None)
    p.add_argument("--driver-memory", default="2g", dest="driver_memory")
    p.add_argument("--per-key", action="store_true", dest="per_key")
    p.add_argument("-o", "--output", choices=("table", "json"), default="table")
    return p


def table(summary: dict[str, Any]) -> str:
    """The CLI's table as plain text (a spark-submit driver's stdout is usually a log)."""
    head = ("VARIANT", "PUBLICATIONS", "DELIVERIES", "STORED", "NOT DELIVERED", "CHANNELS", "GAINED", "LOST")
    rows = [head] + [
        (
            v["variant"],
            *(
                f"{v[k]:,}"
                for k in ("publications", "deliveries", "stored", "not_delivered", "channels_in_use")
            ),
            f"{sum(g['count'] for g in v['gained']):,}",
            f"{sum(g['count'] for g in v['lost']):,}",
        )
        for v in summary["variants"]
    ]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [
        "  ".join(
            c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in rows
    ]
    lines.append(f"rejected publication rows: {summary['rejected']:,}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    from mqctl.services.analyze import AnalyzeRequest, analyze
    from mqctl.spark.summary_json import summary_text

    options = vars(parser().parse_args(sys.argv[1:] if argv is None else argv))
    output = options.pop("output")
    try:
        result = analyze(AnalyzeRequest(**options))
    except MqctlError as exc:
        sys.stderr.write(f"mqctl: error: {error_line(exc.one_line())}\n")
        return exc.exit_code
    sys.stdout.write(summary_text(result.summary) if output == "json" else table(result.summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
