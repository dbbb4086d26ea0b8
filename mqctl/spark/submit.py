"""``spark-submit`` entry point: ``spark-submit [spark options] mqctl/spark/submit.py [analyze options]``.

It runs ``mqctl spark analyze`` with the same options; the session is the one spark-submit started (its
``--master`` and ``--py-files`` apply, see ``session.launched_by_spark_submit``). docs/spark.md.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> None:
    from mqctl.cli.main import run

    sys.argv = ["mqctl", "spark", "analyze", *(sys.argv[1:] if argv is None else argv)]
    run()


if __name__ == "__main__":
    main()
