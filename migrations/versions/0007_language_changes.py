"""language changes: on PostgreSQL, a change of a server's language or a user's locale is announced
(NOTIFY muster_languages) when it commits, so each process may remember languages between steps
and forget them the moment another process changes one

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-24 00:05:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # one process per SQLite file reads its languages in the loop: nothing to announce
    op.execute(
        "CREATE FUNCTION muster_languages_changed() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN PERFORM pg_notify('muster_languages', ''); RETURN NULL; END $$"
    )
    op.execute(
        "CREATE TRIGGER user_locales_changed AFTER INSERT OR UPDATE OR DELETE ON user_locales "
        "FOR EACH STATEMENT EXECUTE FUNCTION muster_languages_changed()"
    )
    op.execute(
        "CREATE TRIGGER guild_languages_changed AFTER INSERT OR UPDATE OF language OR DELETE "
        "ON guild_settings FOR EACH STATEMENT EXECUTE FUNCTION muster_languages_changed()"
    )


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER guild_languages_changed ON guild_settings")
    op.execute("DROP TRIGGER user_locales_changed ON user_locales")
    op.execute("DROP FUNCTION muster_languages_changed()")
