"""``spark-submit`` entry point of ``mqctl spark analyze``: the CLI builds its arguments, this runs them.

``mqctl spark analyze OPTIONS --submit-args`` prints this file's path and the request, encoded as one
word (``encode``); ``spark-submit [spark options] $(mqctl spark analyze ... --submit-args)`` runs the
same service the CLI runs (``services.analyze``) in the session spark-submit started (its ``--master``
and ``--py-files`` apply). The options are parsed once, by the CLI; this needs none of it (Typer, Rich):
a mistake is one line on stderr and its exit code, as in the CLI. docs/spark.md.
"""

from __future__ import annotations

import base64
import json
import sys
from pathlib import Path
from typing import Any

from mqctl.domain.errors import InputError, MqctlError
from mqctl.render.safe_text import error_line
from mqctl.services.analyze import AnalyzeRequest


def encode(request: AnalyzeRequest, output: str) -> str:
    """The request and the output form (``table`` or ``json``) as one shell word (URL-safe base64)."""
    fields = {
        "snapshot": str(request.snapshot),
        "publications": str(request.publications),
        "out": str(request.out),
        "what_if": list(request.what_if),
        "master": request.master,
        "fmt": request.fmt,
        "force": request.force,
        "partitions": request.partitions,
        "driver_memory": request.driver_memory,
        "per_key": request.per_key,
        "output": output,
    }
    return base64.urlsafe_b64encode(json.dumps(fields).encode("utf-8")).decode("ascii")


def decode(word: str) -> tuple[AnalyzeRequest, str]:
    """``encode``'s inverse; anything else is bad input (exit 2)."""
    try:
        fields: dict[str, Any] = json.loads(base64.urlsafe_b64decode(word.encode("ascii")))
        output = fields.pop("output")
        for path in ("snapshot", "publications", "out"):
            fields[path] = Path(fields[path])
        return AnalyzeRequest(**fields), output
    except (ValueError, TypeError, KeyError, UnicodeError):
        raise InputError(
            "expected the one argument `mqctl spark analyze ... --submit-args` prints after this file"
        ) from None


def submit_args(request: AnalyzeRequest, output: str) -> list[str]:
    """What ``spark-submit`` runs after its own options: this file, then the request."""
    return [str(Path(__file__).resolve()), encode(request, output)]


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
    from mqctl.services.analyze import analyze
    from mqctl.spark.summary_json import summary_text

    args = sys.argv[1:] if argv is None else argv
    try:
        if len(args) != 1:
            raise InputError(
                "expected the one argument `mqctl spark analyze ... --submit-args` prints after this file"
            )
        request, output = decode(args[0])
        result = analyze(request)
    except MqctlError as exc:
        sys.stderr.write(f"mqctl: error: {error_line(exc.one_line())}\n")
        return exc.exit_code
    sys.stdout.write(summary_text(result.summary) if output == "json" else table(result.summary))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
