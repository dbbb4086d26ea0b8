"""The schema revision this mqctl expects: checked on every command with one query, no alembic import."""

HEAD = "0004_topic_keys"
KNOWN_REVISIONS = ("0001_initial", "0002_one_model", "0003_observed", "0004_topic_keys")
"""Every revision this mqctl ships, oldest first (an older one than HEAD means: run `mqctl db upgrade`)."""
