"""languages: a server's chosen language, and each user's last-seen Discord locale

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-23 23:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from bot.db.models import UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("language", sa.String(length=8), nullable=True))
    op.create_table(
        "user_locales",
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("updated_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("user_id"),
    )


def downgrade() -> None:
    op.drop_table("user_locales")
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("language")
