"""language changes per row: on PostgreSQL, `muster_languages` names what changed (`u:<user_id>`,
`g:<guild_id>`) and is sent only for rows actually written, so a process forgets that user's locale
or that server's choice alone, and an upsert that changes nothing (a locale seen again) says nothing

0007's triggers fired FOR EACH STATEMENT with an empty payload: every locale upsert, even one whose
WHERE left the row alone, made every process forget every language it held.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27 22:30:00
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# Identical payloads within one transaction are delivered once, so a row updated twice (or a user id
# both deleted and inserted) still announces each user or server once.
USER_LOCALE_CHANGED = (
    "CREATE FUNCTION muster_user_locale_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('muster_languages', 'u:' || OLD.user_id); END IF; "
    "IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('muster_languages', 'u:' || NEW.user_id); END IF; "
    "RETURN NULL; END $$"
)
GUILD_LANGUAGE_CHANGED = (
    "CREATE FUNCTION muster_guild_language_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
    "IF TG_OP <> 'INSERT' THEN PERFORM pg_notify('muster_languages', 'g:' || OLD.guild_id); END IF; "
    "IF TG_OP <> 'DELETE' THEN PERFORM pg_notify('muster_languages', 'g:' || NEW.guild_id); END IF; "
    "RETURN NULL; END $$"
)


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # one process per SQLite file reads its languages in the loop: nothing to announce
    op.execute("DROP TRIGGER guild_languages_changed ON guild_settings")
    op.execute("DROP TRIGGER user_locales_changed ON user_locales")
    op.execute("DROP FUNCTION muster_languages_changed()")
    op.execute(USER_LOCALE_CHANGED)
    op.execute(GUILD_LANGUAGE_CHANGED)
    op.execute(
        "CREATE TRIGGER user_locale_changed AFTER INSERT OR UPDATE OR DELETE ON user_locales "
        "FOR EACH ROW EXECUTE FUNCTION muster_user_locale_changed()"
    )
    # A WHEN clause needs OLD and NEW, so an update is its own trigger; one that leaves the language
    # as it was (or sets other columns only) is not even queued.
    op.execute(
        "CREATE TRIGGER guild_language_changed AFTER UPDATE OF language ON guild_settings "
        "FOR EACH ROW WHEN (OLD.language IS DISTINCT FROM NEW.language) "
        "EXECUTE FUNCTION muster_guild_language_changed()"
    )
    op.execute(
        "CREATE TRIGGER guild_settings_added_or_removed AFTER INSERT OR DELETE ON guild_settings "
        "FOR EACH ROW EXECUTE FUNCTION muster_guild_language_changed()"
    )


def downgrade() -> None:
    """Back to 0007's triggers: one empty notification per statement."""
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER guild_settings_added_or_removed ON guild_settings")
    op.execute("DROP TRIGGER guild_language_changed ON guild_settings")
    op.execute("DROP TRIGGER user_locale_changed ON user_locales")
    op.execute("DROP FUNCTION muster_guild_language_changed()")
    op.execute("DROP FUNCTION muster_user_locale_changed()")
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
