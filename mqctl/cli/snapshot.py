"""`export snapshot` and `import snapshot`: the whole model as Parquet or JSON-lines files (docs/snapshot.md).

Registered on the import/export apps of ``cli.formats`` (which imports this module), so the lazy
command table of ``cli.main`` needs no entry of its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from mqctl.cli.common import OUTPUT_OPTION, Output, console, emit_json, hint, reading, transaction
from mqctl.cli.formats import MODE_OPTION, export_app, import_app


def _summary(title: str, rows: dict[str, int]) -> None:
    from rich.table import Table

    out = console()
    out.print(title)
    table = Table()
    table.add_column("TABLE")
    table.add_column("ROWS", justify="right")
    for name, count in rows.items():
        table.add_row(name, str(count))
    out.print(table)


@export_app.command("snapshot")
def export_snapshot_command(
    out: Path = typer.Option(..., "--out", metavar="DIR", help="Folder for the snapshot's files."),
    file_format: str = typer.Option(
        "parquet", "--format", metavar="parquet|json", help="Parquet files (default) or JSON lines."
    ),
    force: bool = typer.Option(False, "--force", help="Write into a folder that is not empty."),
    mode: str | None = MODE_OPTION,
    output: Output = OUTPUT_OPTION,
) -> None:
    """Write the whole model as one file per table plus manifest.json (`import snapshot` loads it back)."""
    from mqctl.services.files import parse_mode
    from mqctl.services.snapshot import export_snapshot

    file_mode = parse_mode(mode)
    with reading() as store:
        manifest = export_snapshot(store, out, file_format=file_format.lower(), force=force, mode=file_mode)
    if output is Output.json:
        emit_json(manifest)
        return
    tables: dict[str, Any] = manifest["tables"]
    _summary(
        f"snapshot {manifest['snapshot_id']} written to {out} ({manifest['file_format']})",
        {name: entry["rows"] for name, entry in tables.items()},
    )


@import_app.command("snapshot")
def import_snapshot_command(
    folder: Path = typer.Argument(..., metavar="DIR", help="A folder written by `mqctl export snapshot`."),
    output: Output = OUTPUT_OPTION,
) -> None:
    """Load a snapshot into an empty store, every row checked by the rules of the other doors, in one transaction."""
    from mqctl.services.snapshot import import_snapshot

    with transaction() as store:
        snap = import_snapshot(store, folder)
    if snap.newer_revision is not None:
        hint(
            f"the snapshot was written by a store at revision {snap.newer_revision}, newer than this mqctl "
            f"knows; format version {snap.manifest['format_version']} is the contract, so it was loaded"
        )
    if output is Output.json:
        emit_json({"snapshot_id": snap.manifest["snapshot_id"], "tables": snap.counts})
        return
    _summary(f"snapshot {snap.manifest['snapshot_id']} loaded", snap.counts)
