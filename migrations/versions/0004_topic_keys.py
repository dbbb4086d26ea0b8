"""Topic keys: the unique (name_key, node_id) and (topicstr_key, node_id) keys serve lookups by name or
TOPICSTR with or without the node, so the single-column name_key and topicstr_key indexes go.

- uq_topics_node_id_name_key -> uq_topics_name_key_node_id, uq_topics_node_id_topicstr_key ->
  uq_topics_topicstr_key_node_id (the same uniqueness, the digest first);
- ix_topics_name_key and ix_topics_topicstr_key dropped; ix_topics_node_id added (a node's topics, and
  the cascade when a node is deleted, no longer have a key that starts with node_id).

A topic row then updates two digest B-trees fewer and one integer B-tree more: a large import of topic
objects writes faster (docs/benchmarks.md). The downgrade restores the 0003 keys and indexes. Rows are
kept (SQLite copies the table, PostgreSQL alters it in place).

Revision ID: 0004_topic_keys
Revises: 0003_observed
Create Date: 2026-11-26 07:00:00
"""

from __future__ import annotations

from alembic import op

revision = "0004_topic_keys"
down_revision = "0003_observed"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_topics_name_key", table_name="topics")
    op.drop_index("ix_topics_topicstr_key", table_name="topics")
    with op.batch_alter_table("topics") as batch:
        batch.drop_constraint("uq_topics_node_id_name_key", type_="unique")
        batch.drop_constraint("uq_topics_node_id_topicstr_key", type_="unique")
        batch.create_unique_constraint("uq_topics_name_key_node_id", ["name_key", "node_id"])
        batch.create_unique_constraint("uq_topics_topicstr_key_node_id", ["topicstr_key", "node_id"])
        batch.create_index("ix_topics_node_id", ["node_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("topics") as batch:
        batch.drop_index("ix_topics_node_id")
        batch.drop_constraint("uq_topics_topicstr_key_node_id", type_="unique")
        batch.drop_constraint("uq_topics_name_key_node_id", type_="unique")
        batch.create_unique_constraint("uq_topics_node_id_name_key", ["node_id", "name_key"])
        batch.create_unique_constraint("uq_topics_node_id_topicstr_key", ["node_id", "topicstr_key"])
    op.create_index("ix_topics_name_key", "topics", ["name_key"], unique=False)
    op.create_index("ix_topics_topicstr_key", "topics", ["topicstr_key"], unique=False)
