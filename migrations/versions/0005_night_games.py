"""game nights: the night a game session was opened for, and the night of its result

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 12:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("game_sessions") as batch:
        batch.add_column(sa.Column("night_id", sa.String(length=40), nullable=True))
        batch.create_index("ix_game_sessions_night_id", ["night_id"], unique=False)
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("night_id", sa.String(length=40), nullable=True))
        batch.create_index("ix_results_night_id", ["night_id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_index("ix_results_night_id")
        batch.drop_column("night_id")
    with op.batch_alter_table("game_sessions") as batch:
        batch.drop_index("ix_game_sessions_night_id")
        batch.drop_column("night_id")
