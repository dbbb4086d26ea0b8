"""Alembic environment: mqctl passes its engine; plain `alembic` uses -x db=URL, MQCTL_DB or the default."""

from __future__ import annotations

from logging.config import fileConfig

from alembic import context

from mqctl.store.engine import make_engine, resolve_url
from mqctl.store.tables import metadata

config = context.config
if config.config_file_name is not None:
    fileConfig(config.config_file_name, disable_existing_loggers=False)


def run_migrations() -> None:
    engine = config.attributes.get("engine")
    if engine is None:
        engine = make_engine(resolve_url(context.get_x_argument(as_dictionary=True).get("db")))
    with engine.begin() as connection:
        context.configure(
            connection=connection,
            target_metadata=metadata,
            render_as_batch=connection.dialect.name == "sqlite",
            compare_type=True,
        )
        context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("mqctl migrations run online only: give a database with -x db=URL or MQCTL_DB")
run_migrations()
