"""`mqctl display proxies`: the predicted side of reconcile, in DISPLAY SUB's layout."""

from __future__ import annotations

import sys
from typing import Any

import typer

from mqctl.cli.apps import display_app
from mqctl.cli.common import OUTPUT_OPTION, Output, emit_json, no_match_exit, reading


@display_app.command("proxies")
def display_proxies_command(
    qmgr: str = typer.Option(
        ..., "--qmgr", "-m", help="The queue manager whose proxy subscriptions are shown."
    ),
    output: Output = OUTPUT_OPTION,
) -> None:
    """The proxy subscriptions the model predicts QMGR holds (those reconcile expects), laid out as
    `DISPLAY SUB(*) SUBTYPE(PROXY) ALL` prints them, to lay beside the real answer."""
    from mqctl.formats.mqsc.display import proxies_text, proxy_pairs
    from mqctl.services.proxies import display_proxies

    with reading() as store:
        proxies = display_proxies(store, qmgr)
    if output is Output.json:
        rows: list[dict[str, Any]] = [
            {
                "qmgr": p.holder,
                "sub": proxy_pairs(p)[0][1],
                "topicstr": p.pattern,
                "destqmgr": p.origin,
                "via": "cluster" if p.cluster else "hierarchy",
                "cluster": p.cluster,
                "subscriptions": [{"qmgr": n, "name": s} for n, s in sorted(p.subscriptions)],
                "forced_by": p.forced_by,
            }
            for p in proxies
        ]
        emit_json(rows)
    elif proxies:
        sys.stdout.write("\n".join(proxies_text(proxies)) + "\n")
    else:
        sys.stderr.write(f"mqctl: {qmgr} should hold no proxy subscription\n")
    no_match_exit(proxies)
