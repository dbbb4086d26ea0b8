"""Topic keys: the unique (name_key, node_id) and (topicstr_key, node_id) keys serve lookups by name or
TOPICSTR with or without the node, so the single-column name_key and topicstr_key indexes go; the
topics' CHECKs are written as equalities.

- uq_topics_node_id_name_key -> uq_topics_name_key_node_id, uq_topics_node_id_topicstr_key ->
  uq_topics_topicstr_key_node_id (the same uniqueness, the digest first);
- ix_topics_name_key and ix_topics_topicstr_key dropped; ix_topics_node_id added (a node's topics, and
  the cascade when a node is deleted, no longer have a key that starts with node_id);
- the CHECKs of the topics' enumerations: ``pub = 'ENABLED' OR pub = 'DISABLED' OR ...`` rather than
  ``pub IN (...)``, the same test (SQLite builds a temporary index per row inserted for an IN list of
  three values or more).

A topic row then updates two digest B-trees fewer and one integer B-tree more, and builds no index for
its CHECKs: a large import of topic objects writes faster (docs/benchmarks.md). The downgrade restores the 0003 keys and indexes. Rows are
kept (SQLite copies the table, PostgreSQL alters it in place).

Revision ID: 0004_topic_keys
Revises: 0003_observed
Create Date: 2026-11-26 07:00:00
"""

from __future__ import annotations

from typing import Any

from alembic import op

revision = "0004_topic_keys"
down_revision = "0003_observed"
branch_labels = None
depends_on = None


CHECKS = {
    "clroute": ("DIRECT", "TOPICHOST"),
    "wildcard": ("PASSTHRU", "BLOCK"),
    "pubscope": ("QMGR", "ALL", "ASPARENT"),
    "subscope": ("QMGR", "ALL", "ASPARENT"),
    "proxysub": ("FIRSTUSE", "FORCE"),
    "pub": ("ENABLED", "DISABLED", "ASPARENT"),
    "sub": ("ENABLED", "DISABLED", "ASPARENT"),
}
"""The topics' enumerations, frozen as at this revision."""


def _checks(batch: Any, *, by_equality: bool) -> None:
    """Each CHECK of ``CHECKS`` replaced by its other form."""
    for column, values in CHECKS.items():
        quoted = [f"'{v}'" for v in values]
        text = (
            " OR ".join(f"{column} = {v}" for v in quoted)
            if by_equality
            else f"{column} IN ({', '.join(quoted)})"
        )
        batch.drop_constraint(op.f(f"ck_topics_{column}"), type_="check")
        batch.create_check_constraint(op.f(f"ck_topics_{column}"), text)


def upgrade() -> None:
    op.drop_index("ix_topics_name_key", table_name="topics")
    op.drop_index("ix_topics_topicstr_key", table_name="topics")
    with op.batch_alter_table("topics") as batch:
        batch.drop_constraint("uq_topics_node_id_name_key", type_="unique")
        batch.drop_constraint("uq_topics_node_id_topicstr_key", type_="unique")
        batch.create_unique_constraint("uq_topics_name_key_node_id", ["name_key", "node_id"])
        batch.create_unique_constraint("uq_topics_topicstr_key_node_id", ["topicstr_key", "node_id"])
        batch.create_index("ix_topics_node_id", ["node_id"], unique=False)
        _checks(batch, by_equality=True)


def downgrade() -> None:
    with op.batch_alter_table("topics") as batch:
        _checks(batch, by_equality=False)
        batch.drop_index("ix_topics_node_id")
        batch.drop_constraint("uq_topics_topicstr_key_node_id", type_="unique")
        batch.drop_constraint("uq_topics_name_key_node_id", type_="unique")
        batch.create_unique_constraint("uq_topics_node_id_name_key", ["node_id", "name_key"])
        batch.create_unique_constraint("uq_topics_node_id_topicstr_key", ["node_id", "topicstr_key"])
    op.create_index("ix_topics_name_key", "topics", ["name_key"], unique=False)
    op.create_index("ix_topics_topicstr_key", "topics", ["topicstr_key"], unique=False)
