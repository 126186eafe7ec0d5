"""game nights: the nights, a club's tables, reminder opt-outs, the organiser role and time zone; a
keyed message may belong to a night's outbox lane as well as to a session's

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.models import UTCDateTime

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# SQLite keeps the foreign key unnamed: batch mode names it by this convention to drop it.
SQLITE_FK = {"fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s"}


def upgrade() -> None:
    op.create_table(
        "nights",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("organiser_id", sa.BigInteger(), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("place", sa.String(length=100), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("starts_at", UTCDateTime(), nullable=False),
        sa.Column("cutoff_at", UTCDateTime(), nullable=False),
        sa.Column("remind_at", UTCDateTime(), nullable=False),
        sa.Column("reminded_at", UTCDateTime(), nullable=True),
        sa.Column("event_id", sa.BigInteger(), nullable=True),
        sa.Column("event_version", sa.Integer(), nullable=False),
        sa.Column("next_night_id", sa.String(length=32), nullable=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.create_index("ix_nights_guild_status", ["guild_id", "status", "starts_at"], unique=False)
        batch_op.create_index("ix_nights_status_cutoff", ["status", "cutoff_at"], unique=False)
    op.create_table(
        "club_tables",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("table_id", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("systems", sa.String(length=400), nullable=False),
        sa.Column("terrain", sa.String(length=100), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "table_id"),
    )
    op.create_table(
        "night_reminder_optouts",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("organiser_role_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
    if op.get_bind().dialect.name == "sqlite":
        with op.batch_alter_table("session_messages", naming_convention=SQLITE_FK) as batch_op:
            batch_op.drop_constraint("fk_session_messages_session_id_game_sessions", type_="foreignkey")
    else:
        op.drop_constraint("session_messages_session_id_fkey", "session_messages", type_="foreignkey")


def downgrade() -> None:
    with op.batch_alter_table("session_messages", schema=None) as batch_op:
        batch_op.create_foreign_key(
            "session_messages_session_id_fkey",
            "game_sessions",
            ["session_id"],
            ["id"],
            ondelete="CASCADE",
        )
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("time_zone")
        batch_op.drop_column("organiser_role_id")
    op.drop_table("night_reminder_optouts")
    op.drop_table("club_tables")
    with op.batch_alter_table("nights", schema=None) as batch_op:
        batch_op.drop_index("ix_nights_status_cutoff")
        batch_op.drop_index("ix_nights_guild_status")
    op.drop_table("nights")
