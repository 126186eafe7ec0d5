"""a kept message remembers what it shows (a digest), so an edit that would show the same is not
sent

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28 10:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("session_messages", schema=None) as batch_op:
        batch_op.add_column(sa.Column("shown", sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("session_messages", schema=None) as batch_op:
        batch_op.drop_column("shown")
