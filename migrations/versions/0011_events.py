"""events: a club's Swiss tournaments (their state with the sealed army lists, the round clock,
the scheduled event and the results waiting for a confirmation)

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.models import UTCDateTime

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "events",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("organiser_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("system", sa.String(length=40), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("starts_at", UTCDateTime(), nullable=False),
        sa.Column("remind_at", UTCDateTime(), nullable=False),
        sa.Column("reminded_at", UTCDateTime(), nullable=True),
        sa.Column("round_ends_at", UTCDateTime(), nullable=True),
        sa.Column("round_warned", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.BigInteger(), nullable=True),
        sa.Column("event_version", sa.Integer(), nullable=False),
        sa.Column("reports", sa.Text(), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_events_guild_status", "events", ["guild_id", "status", "starts_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_events_guild_status", table_name="events")
    op.drop_table("events")
