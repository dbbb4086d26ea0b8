"""The schema revision this mqctl expects: checked on every command with one query, no alembic import."""

HEAD = "0003_observed"
KNOWN_REVISIONS = ("0001_initial", "0002_one_model", "0003_observed")
"""Every revision this mqctl ships, oldest first (an older one than HEAD means: run `mqctl db upgrade`)."""
