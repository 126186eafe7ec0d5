"""work shared by several processes: outbox lanes leased by one process at a time, and each
server's results generation

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.models import UTCDateTime

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox_lanes",
        sa.Column("lane", sa.String(length=48), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("leased_until", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("lane"),
    )
    op.create_table(
        "results_generations",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("generation", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id"),
    )


def downgrade() -> None:
    op.drop_table("results_generations")
    op.drop_table("outbox_lanes")
