"""The schema revision this mqctl expects: checked on every command with one query, no alembic import."""

HEAD = "0001_initial"
