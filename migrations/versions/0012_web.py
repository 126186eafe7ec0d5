"""web: a server's choice to show its league on the web site, members' names and opt-out, and the
site's stored rating snapshots

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-27 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.models import UTCDateTime

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("web_public", sa.Boolean(), nullable=True))
        batch_op.add_column(sa.Column("web_name", sa.String(length=100), nullable=True))
        batch_op.add_column(sa.Column("web_locale", sa.String(length=16), nullable=True))
    op.create_table(
        "member_names",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("display_name", sa.String(length=100), nullable=True),
        sa.Column("hidden", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )
    op.create_index("ix_member_names_guild_updated", "member_names", ["guild_id", "updated_at"])
    op.create_table(
        "rating_snapshots",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("scope", sa.String(length=32), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=False),
        sa.Column("ratings", sa.Text(), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "scope"),
    )


def downgrade() -> None:
    op.drop_table("rating_snapshots")
    op.drop_index("ix_member_names_guild_updated", table_name="member_names")
    op.drop_table("member_names")
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("web_locale")
        batch_op.drop_column("web_name")
        batch_op.drop_column("web_public")
