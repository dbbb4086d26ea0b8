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
    from mqctl.services.store_access import redact
    from mqctl.services.store_access import upgrade as run_upgrade

    url = store_url()
    run_upgrade(url, revision)
    done(f"store {redact(url)} upgraded to {revision}.")


@db_app.command("downgrade", context_settings={"ignore_unknown_options": True})
def downgrade(
    revision: str = typer.Argument(..., metavar="REVISION", help="Target revision, -1, or 'base' (empty)."),
    yes: bool = typer.Option(False, "--yes", help="Confirm a downgrade that deletes your definitions."),
) -> None:
    """Downgrade the store; a downgrade to base deletes every definition and needs --yes."""
    if revision.startswith("--"):  # unknown options are let through for `-1`, not for a misspelt option
        import click

        raise click.NoSuchOption(revision, ctx=click.get_current_context())
    from mqctl.services.store_access import downgrade as run_downgrade
    from mqctl.services.store_access import redact

    url = store_url()
    run_downgrade(url, revision, confirmed=yes)
    done(f"store {redact(url)} downgraded to {revision}.")


@db_app.command("current")
def current(output: Output = OUTPUT_OPTION) -> None:
    """Show the store's revision and whether it is the one this mqctl needs."""
    from mqctl.services.store_access import redact
    from mqctl.services.store_access import revision as store_revision

    url = store_url()
    revision, head = store_revision(url)
    data = {"url": redact(url), "revision": revision, "head": head, "up_to_date": revision == head}
    if output is Output.json:
        emit_json(data)
    else:
        state = "up to date" if revision == head else "run `mqctl db upgrade`"
        done(f"{data['url']}: revision {revision or '(empty)'} (head {head}): {state}")
    if revision != head:
        raise typer.Exit(1)


@db_app.command("history")
def history(output: Output = OUTPUT_OPTION) -> None:
    """List the migrations, newest first."""
    from mqctl.cli.common import show_table
    from mqctl.services.store_access import history as revisions

    show_table("Revisions", ["revision", "down_revision", "head", "message"], revisions(), output)
