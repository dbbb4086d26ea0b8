"""`mqctl db`: the store's schema revision (Alembic), never run implicitly on an old store."""

from __future__ import annotations

import typer

from mqctl.cli.apps import sub_app
from mqctl.cli.common import OUTPUT_OPTION, Output, done, emit_json, store_url

db_app = sub_app(help="Manage the store's schema revision (Alembic migrations).", no_args_is_help=True)


@db_app.command("upgrade")
def upgrade(
    revision: str = typer.Argument("head", metavar="[REVISION]", help="Target revision (default: head)."),
) -> None:
    """Upgrade the store to the newest (or the given) revision (all or nothing)."""
    from mqctl.store.engine import make_engine, redact
    from mqctl.store.migrate import upgrade as run_upgrade

    url = store_url()
    engine = make_engine(url)
    try:
        run_upgrade(engine, revision)
    finally:
        engine.dispose()
    done(f"store {redact(url)} upgraded to {revision}.")


@db_app.command("downgrade", context_settings={"ignore_unknown_options": True})
def downgrade(
    revision: str = typer.Argument(..., metavar="REVISION", help="Target revision, -1, or 'base' (empty)."),
    yes: bool = typer.Option(False, "--yes", help="Confirm a downgrade that deletes your definitions."),
) -> None:
    """Downgrade the store; a downgrade to base deletes every definition and needs --yes."""
    from mqctl.store.engine import make_engine, redact
    from mqctl.store.migrate import downgrade as run_downgrade

    url = store_url()
    engine = make_engine(url)
    try:
        run_downgrade(engine, revision, confirmed=yes)
    finally:
        engine.dispose()
    done(f"store {redact(url)} downgraded to {revision}.")


@db_app.command("current")
def current(output: Output = OUTPUT_OPTION) -> None:
    """Show the store's revision and whether it is the one this mqctl needs."""
    from mqctl.store.engine import current_revision, make_engine, redact, store_file_missing
    from mqctl.store.revision import HEAD

    url = store_url()
    revision = None
    if not store_file_missing(url):  # a read: a store that does not exist yet is not created
        engine = make_engine(url)
        try:
            revision = current_revision(engine)
        finally:
            engine.dispose()
    data = {"url": redact(url), "revision": revision, "head": HEAD, "up_to_date": revision == HEAD}
    if output is Output.json:
        emit_json(data)
    else:
        state = "up to date" if revision == HEAD else "run `mqctl db upgrade`"
        done(f"{data['url']}: revision {revision or '(empty)'} (head {HEAD}): {state}")
    if revision != HEAD:
        raise typer.Exit(1)


@db_app.command("history")
def history(output: Output = OUTPUT_OPTION) -> None:
    """List the migrations, newest first."""
    from mqctl.cli.common import show_table
    from mqctl.store.migrate import history as revisions

    show_table("Revisions", ["revision", "down_revision", "head", "message"], revisions(), output)
