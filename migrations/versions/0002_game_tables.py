"""a game's table: the thread it runs in, and the server's game-threads setting

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 09:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_sessions", schema=None) as batch_op:
        batch_op.add_column(sa.Column("thread_id", sa.BigInteger(), nullable=True))
        batch_op.create_index("ix_game_sessions_thread_status", ["thread_id", "status"], unique=False)
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.add_column(sa.Column("game_threads", sa.Boolean(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("guild_settings", schema=None) as batch_op:
        batch_op.drop_column("game_threads")
    with op.batch_alter_table("game_sessions", schema=None) as batch_op:
        batch_op.drop_index("ix_game_sessions_thread_status")
        batch_op.drop_column("thread_id")
