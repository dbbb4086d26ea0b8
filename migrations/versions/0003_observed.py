"""Observed state: captures of DISPLAY output and their observations; subscriptions gain SUBTYPE and SUBID.

- subscriptions.subtype: ADMIN (every subscription so far) or API (an application's, from a capture).
- subscriptions.subid: MQ's subscription identifier (hex) as a capture shows it; empty otherwise.
- captures: the latest capture per queue manager; observations: its proxy subscriptions, cluster topics,
  cluster queue managers, hierarchy relations, channel statuses.

The downgrade drops the tables and the columns (API subscriptions stay, as plain subscriptions).

Revision ID: 0003_observed
Revises: 0002_one_model
Create Date: 2026-11-26 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0003_observed"
down_revision = "0002_one_model"
branch_labels = None
depends_on = None


def _json() -> sa.types.TypeEngine[object]:
    return sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    with op.batch_alter_table("subscriptions") as batch:
        batch.add_column(sa.Column("subtype", sa.String(length=8), server_default="ADMIN", nullable=False))
        batch.create_check_constraint("subtype", "subtype IN ('ADMIN', 'API')")
        batch.add_column(sa.Column("subid", sa.Text(), server_default="", nullable=False))
    op.create_table(
        "captures",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("node", sa.String(length=64), nullable=False),
        sa.Column("captured_at", sa.String(length=40), nullable=False),
        sa.Column("file", sa.Text(), nullable=False),
        sa.Column("commands", _json(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_captures")),
        sa.UniqueConstraint("node", name=op.f("uq_captures_node")),
    )
    op.create_table(
        "observations",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("capture_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("attributes", _json(), nullable=False),
        sa.Column("line", sa.Integer(), nullable=True),
        sa.ForeignKeyConstraint(
            ["capture_id"],
            ["captures.id"],
            name=op.f("fk_observations_capture_id_captures"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_observations")),
    )
    op.create_index(op.f("ix_observations_capture_id"), "observations", ["capture_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_observations_capture_id"), table_name="observations")
    op.drop_table("observations")
    op.drop_table("captures")
    with op.batch_alter_table("subscriptions") as batch:
        batch.drop_column("subid")
        batch.drop_constraint("subtype", type_="check")
        batch.drop_column("subtype")
