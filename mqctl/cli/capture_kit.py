"""`mqctl capture-kit`: what to run on the queue managers and EMS servers to capture them."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import reading

app = sub_app()


@app.command("capture-kit")
def capture_kit_command(
    qmgr: list[str] = typer.Option(
        [], "--qmgr", "-m", help="A queue manager or EMS server to capture (repeat; default every node)."
    ),
    out: Path = typer.Option(..., "--out", help="Folder the kit is written to."),
    force: bool = typer.Option(False, "--force", help="Write into a folder that is not empty."),
) -> None:
    """Write display.mqsc, the runmqsc, REST and tibemsadmin scripts that make the captures `import display`
    reads, for the nodes of the model (docs/observed.md)."""
    from mqctl.services.capture_kit import capture_kit

    with reading() as store:
        written = capture_kit(store, out, nodes=qmgr, force=force)
    sys.stdout.write("".join(f"{path}\n" for path in written))
