"""The ``spark-submit`` entry point of ``mqctl spark analyze``, and the command line that runs it.

``mqctl spark analyze ... --print-submit`` prints ``spark-submit --master URL --driver-memory SIZE
<this file> '<request>'``: the CLI parses the options (once, in ``mqctl/cli/spark.py``) and writes the
request as one JSON argument (``AnalyzeRequest.as_json`` and ``-o``); the driver that spark-submit starts
runs this file, reads the request back and calls the same service (``mqctl.services.analyze``) in the
session spark-submit created. It loads none of Typer, Rich or the store: a mistake is one line on
stderr and its exit code, as in the CLI. docs/spark.md, "On a Spark cluster".
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mqctl.services.analyze import AnalyzeRequest

__all__ = ["main", "read_submitted", "submit_argv"]

OUTPUTS = ("table", "json")
"""``-o``: ``summary.json``'s text or a plain table, as the CLI's ``-o json`` / ``-o table``."""


def submit_argv(request: AnalyzeRequest, output: str) -> list[str]:
    """The ``spark-submit`` command that runs ``request`` on ``request.master`` (the driver's memory is
    set on the command line: under spark-submit the JVM starts before mqctl runs)."""
    payload = {"request": request.as_json(), "output": output}
    return [
        "spark-submit",
        "--master",
        request.master,
        "--driver-memory",
        request.driver_memory,
        str(Path(__file__).resolve()),
        json.dumps(payload, ensure_ascii=False, separators=(",", ":")),
    ]


def read_submitted(argv: list[str]) -> tuple[AnalyzeRequest, str]:
    """The request and the output kind from the one argument ``submit_argv`` wrote."""
    from mqctl.domain.errors import InputError
    from mqctl.services.analyze import AnalyzeRequest

    where = "spark_submit.py"
    if len(argv) != 1:
        raise InputError(
            f"takes one argument, the request `mqctl spark analyze ... --print-submit` writes "
            f"(got {len(argv)})",
            obj=where,
        )
    try:
        payload = json.loads(argv[0])
    except json.JSONDecodeError as exc:
        raise InputError(f"the request is not JSON: {exc.msg} at column {exc.colno}", obj=where) from exc
    if not isinstance(payload, dict) or set(payload) != {"request", "output"}:
        raise InputError("the request is not a JSON object of 'request' and 'output'", obj=where)
    if payload["output"] not in OUTPUTS:
        raise InputError(f"output {str(payload['output'])[:20]!r} is not one of table, json", obj=where)
    return AnalyzeRequest.from_json(payload["request"]), payload["output"]


def main(argv: list[str] | None = None) -> int:
    from mqctl.domain.errors import MqctlError
    from mqctl.render.analysis import plain_table
    from mqctl.render.safe_text import error_line
    from mqctl.services.analyze import analyze

    try:
        request, output = read_submitted(sys.argv[1:] if argv is None else argv)
        result = analyze(request)
    except MqctlError as exc:
        sys.stderr.write(f"mqctl: error: {error_line(exc.plain_line())}\n")
        return exc.exit_code
    sys.stdout.write(result.summary_json if output == "json" else plain_table(result.summary))
    return 0


if __name__ == "__main__":
    # run as a script: Python put this file's folder first on sys.path, where its neighbours (core.py,
    # common.py, spark.py, ...) would shadow any top-level module of those names
    here = Path(__file__).resolve().parent
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != here]
    raise SystemExit(main())
