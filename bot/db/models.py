"""Tables. Portable SQL only (SQLite by default, PostgreSQL via DATABASE_URL)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """Timezone-aware UTC datetimes on every backend (SQLite forgets the zone otherwise)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: object) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    pass


class GuildSettings(Base):
    __tablename__ = "guild_settings"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    results_channel_id: Mapped[int | None] = mapped_column(BigInteger)
    reminder_minutes: Mapped[float | None] = mapped_column(Float)
    game_threads: Mapped[bool | None] = mapped_column(Boolean)  # None: on (the default)
    language: Mapped[str | None] = mapped_column(String(8))  # en|de|fr|es; None: the server's Discord locale
    organiser_role_id: Mapped[int | None] = mapped_column(BigInteger)  # may run game nights
    time_zone: Mapped[str | None] = mapped_column(String(64))  # IANA name; None: UTC
    # The league web site (bot/web): nothing of a server is shown until `/settings web on`; the
    # server's name and Discord locale as they were then (the site has no Discord connection).
    web_public: Mapped[bool | None] = mapped_column(Boolean)  # None or False: not shown
    web_name: Mapped[str | None] = mapped_column(String(100))
    web_locale: Mapped[str | None] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class UserLocale(Base):
    """The Discord locale a user's last interaction carried: the language of what the bot says to
    them later, outside an interaction (DM prompts, reminders). Written only when it changes."""

    __tablename__ = "user_locales"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    locale: Mapped[str] = mapped_column(String(16))
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class DmChannel(Base):
    """A user's DM channel with the bot, as Discord opened it once. It never changes, so a restarted
    process, or another one, sends there without asking Discord to open it again (a call on the
    bot's limits that Discord asks bots not to make in numbers)."""

    __tablename__ = "dm_channels"

    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    channel_id: Mapped[int] = mapped_column(BigInteger)


class MemberName(Base):
    """A member's display name in one server as the bot last saw it (the web site shows it: it has
    no Discord connection), and their `/scores privacy hide` choice. Written only when it changes."""

    __tablename__ = "member_names"
    __table_args__ = (Index("ix_member_names_guild_updated", "guild_id", "updated_at"),)

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    display_name: Mapped[str | None] = mapped_column(String(100))
    hidden: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class RatingSnapshot(Base):
    """A server's ratings in one scope (a system, or '' for overall) as a replay of its confirmed
    results gave them at `generation`: a cache the web site keeps in the store, so a restarted site
    process shows a league without replaying every result. Used only while the server's results are
    still at `version` (their generation, count and newest id); else they are replayed and stored."""

    __tablename__ = "rating_snapshots"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    scope: Mapped[str] = mapped_column(String(32), primary_key=True)
    version: Mapped[str] = mapped_column(String(64))
    ratings: Mapped[str] = mapped_column(Text)  # JSON: {"<user id>": [mu, sigma]}
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class DiceRoll(Base):
    """Audit row: every die the bot throws, anywhere."""

    __tablename__ = "dice_rolls"
    __table_args__ = (Index("ix_dice_rolls_channel", "channel_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int | None] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    user_id: Mapped[int | None] = mapped_column(BigInteger)
    session_id: Mapped[str | None] = mapped_column(String(32))
    reason: Mapped[str] = mapped_column(String(200))
    notation: Mapped[str] = mapped_column(String(200))
    results: Mapped[str] = mapped_column(Text)  # JSON list of ints
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


INLINE_ROWS = {"toast_tuple_target": 8160}
"""PostgreSQL keeps a row's long values in the row, uncompressed, up to a page (8 KB): a game's state
(4-5 KB for Kill Team) is written on every click, and compressing it into the TOAST table (beyond
the default 2 KB) cost each step about 0.1 ms of its round trip. Longer rows are still TOASTed."""


class GameSession(Base):
    """A game in progress (or finished): its pure state as JSON and a version for optimistic locking."""

    __tablename__ = "game_sessions"
    __table_args__ = (
        Index("ix_game_sessions_guild_status", "guild_id", "status"),
        Index("ix_game_sessions_channel_status", "channel_id", "status"),
        Index("ix_game_sessions_thread_status", "thread_id", "status"),
        {"postgresql_with": INLINE_ROWS},
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)  # where it was started
    # The thread the game runs in, once its start card made one (None: it runs in channel_id).
    thread_id: Mapped[int | None] = mapped_column(BigInteger)
    system: Mapped[str] = mapped_column(String(32))
    organiser_id: Mapped[int] = mapped_column(BigInteger)
    player_a: Mapped[int] = mapped_column(BigInteger)
    player_b: Mapped[int] = mapped_column(BigInteger)
    title: Mapped[str] = mapped_column(String(200), default="")
    state: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1)
    status: Mapped[str] = mapped_column(String(16), default="open")  # open | finished | cancelled
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    night_id: Mapped[str | None] = mapped_column(String(40), index=True)  # the game night it was paired in


class SessionMessage(Base):
    """A message the bot keeps editing for an outbox lane (a session's scoreboard or prompt, a game
    night's card), by key. `session_id` is the lane: a session's id, or `night:<id>`. `shown` is the
    digest of what it shows now (`bot.chat.sending.shown_digest`): an edit that would show the same
    is not sent."""

    __tablename__ = "session_messages"

    session_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    channel_id: Mapped[int] = mapped_column(BigInteger)
    message_id: Mapped[int] = mapped_column(BigInteger)
    shown: Mapped[str | None] = mapped_column(String(64), default=None)


class OutboxMessage(Base):
    """A message owed to Discord, written in the same transaction as the state that caused it.

    Delivery happens right after commit; anything not delivered (crash, outage) is retried by the
    sweeper, so no announcement or reveal is lost and none is sent before its state is stored.
    """

    __tablename__ = "outbox"
    __table_args__ = (Index("ix_outbox_pending", "delivered_at", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str | None] = mapped_column(String(32))
    payload: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    delivered_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # set while backing off
    last_error: Mapped[str | None] = mapped_column(String(500))
    # An edit waiting out a long rate limit: it holds back no later row of its lane (bot/chat/delivery.py).
    gives_way: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())


class RenderJob(Base):
    """A step's messages owed but not yet rendered: stored with the step, rendered after its answer.

    The step's write stores this row instead of its messages, so the player's answer waits on one
    write only; the renderer (`bot/play/rendering.py`) turns it into outbox rows and deletes it, in
    one transaction. `before` is the state the step started from (None: a row with no step, only
    `extra`); the state after it is the next job's `before`, else the session's own state.
    """

    __tablename__ = "render_jobs"
    __table_args__ = (
        Index("ix_render_jobs_session", "session_id", "version", unique=True),
        {"postgresql_with": INLINE_ROWS},  # `before` is a whole state, written with every step
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    session_id: Mapped[str] = mapped_column(String(32))
    version: Mapped[int] = mapped_column(Integer)  # the session's version the step made
    before: Mapped[str | None] = mapped_column(Text)  # the state before the step, as stored
    events: Mapped[str] = mapped_column(Text, default="[]")  # the step's events (Procedure.dump_events)
    auto: Mapped[str] = mapped_column(Text, default="[]")  # questions answered for a player
    extra: Mapped[str] = mapped_column(Text, default="[]")  # outbox payloads sent after the step's own
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # set while backing off
    last_error: Mapped[str | None] = mapped_column(String(500))


class OutboxLane(Base):
    """One process's lease on a lane of the outbox: a session's messages (or one message of none).

    Whoever holds a lane alone sends its rows, in order; a lease that runs out (its process died)
    lets another process take the lane over.
    """

    __tablename__ = "outbox_lanes"

    lane: Mapped[str] = mapped_column(String(48), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))
    leased_until: Mapped[datetime] = mapped_column(UTCDateTime)


class ResultsGeneration(Base):
    """A server's results generation, bumped in every transaction that changes its results: a
    process's cached leaderboard is used only while the stored generation is the one it read."""

    __tablename__ = "results_generations"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    generation: Mapped[int] = mapped_column(Integer)


class Season(Base):
    __tablename__ = "seasons"
    __table_args__ = (UniqueConstraint("guild_id", "name", name="uq_seasons_guild_name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger, index=True)
    name: Mapped[str] = mapped_column(String(100))
    started_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class GameResult(Base):
    """One finished game, from a session or entered by hand; only confirmed results count."""

    __tablename__ = "results"
    __table_args__ = (Index("ix_results_guild_status", "guild_id", "status", "played_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int | None] = mapped_column(BigInteger)
    system: Mapped[str] = mapped_column(String(32))
    mission: Mapped[str | None] = mapped_column(String(200))
    player_a: Mapped[int] = mapped_column(BigInteger)
    player_b: Mapped[int] = mapped_column(BigInteger)
    faction_a: Mapped[str | None] = mapped_column(String(100))
    faction_b: Mapped[str | None] = mapped_column(String(100))
    score_a: Mapped[int] = mapped_column(Integer)
    score_b: Mapped[int] = mapped_column(Integer)
    winner_id: Mapped[int | None] = mapped_column(BigInteger)  # None: a draw
    summary: Mapped[str] = mapped_column(Text, default="")
    played_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    session_id: Mapped[str | None] = mapped_column(String(32), unique=True)
    season_id: Mapped[int | None] = mapped_column(ForeignKey("seasons.id"))
    status: Mapped[str] = mapped_column(String(16), default="pending")  # pending|confirmed|disputed|void
    reported_by: Mapped[int | None] = mapped_column(BigInteger)
    confirmed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    announced: Mapped[bool] = mapped_column(Boolean, default=False)
    note: Mapped[str | None] = mapped_column(String(500))
    night_id: Mapped[str | None] = mapped_column(String(40), index=True)  # its session's game night


class RulesPack(Base):
    """A server's own rules data (cards, decks) for one game system, validated before it is stored."""

    __tablename__ = "rules_packs"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    system: Mapped[str] = mapped_column(String(32), primary_key=True)
    content: Mapped[str] = mapped_column(Text)
    uploaded_by: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, onupdate=utcnow)


class BotMeta(Base):
    """Small key/value facts about the bot itself (e.g. the hash of the last synced command set)."""

    __tablename__ = "bot_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Night(Base):
    """A club's game night: its pure state (rules/night) as JSON, versioned like a session, and what
    the bot keeps beside it (the Discord scheduled event, the reminder's claim, the next night)."""

    __tablename__ = "nights"
    __table_args__ = (
        Index("ix_nights_guild_status", "guild_id", "status", "starts_at"),
        Index("ix_nights_status_cutoff", "status", "cutoff_at"),
    )

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)  # where its card is
    organiser_id: Mapped[int] = mapped_column(BigInteger)
    title: Mapped[str] = mapped_column(String(200), default="")
    place: Mapped[str] = mapped_column(String(100), default="")  # where the club meets
    status: Mapped[str] = mapped_column(String(16), default="open")  # the state's status
    state: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    cutoff_at: Mapped[datetime] = mapped_column(UTCDateTime)
    remind_at: Mapped[datetime] = mapped_column(UTCDateTime)
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # claimed by the one who reminds
    event_id: Mapped[int | None] = mapped_column(BigInteger)  # its Discord scheduled event
    event_version: Mapped[int] = mapped_column(Integer, default=0)  # the version that event shows
    next_night_id: Mapped[str | None] = mapped_column(String(32))  # a recurring night's successor
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ClubTable(Base):
    """One of a club's physical tables (or terrain kits), with the game systems it suits."""

    __tablename__ = "club_tables"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    table_id: Mapped[str] = mapped_column(String(40), primary_key=True)
    name: Mapped[str] = mapped_column(String(60))
    systems: Mapped[str] = mapped_column(String(400))  # JSON list of system slugs
    terrain: Mapped[str] = mapped_column(String(100), default="")
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class NightReminderOptOut(Base):
    """A player who asked for no more game-night reminders from this server."""

    __tablename__ = "night_reminder_optouts"

    guild_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    user_id: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)


class ClubEvent(Base):
    """A club's tournament (an event of several Swiss rounds): its pure state (rules/event) as JSON,
    versioned like a night, and what the bot keeps beside it: the round's end and which of its
    warnings went out (claimed once), the Discord scheduled event, and the results a player reported
    that wait for the opponent's same report."""

    __tablename__ = "events"
    __table_args__ = (Index("ix_events_guild_status", "guild_id", "status", "starts_at"),)

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    guild_id: Mapped[int] = mapped_column(BigInteger)
    channel_id: Mapped[int] = mapped_column(BigInteger)  # where its card and standings are
    organiser_id: Mapped[int] = mapped_column(BigInteger)
    name: Mapped[str] = mapped_column(String(200), default="")
    system: Mapped[str] = mapped_column(String(40))
    status: Mapped[str] = mapped_column(String(16), default="signup")  # the state's phase
    state: Mapped[str] = mapped_column(Text)
    version: Mapped[int] = mapped_column(Integer, default=1)
    starts_at: Mapped[datetime] = mapped_column(UTCDateTime)
    remind_at: Mapped[datetime] = mapped_column(UTCDateTime)  # the players' reminder before the start
    reminded_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # claimed by the one who reminds
    round_ends_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    round_warned: Mapped[int] = mapped_column(Integer, default=0)  # round*100 + minutes left warned
    event_id: Mapped[int | None] = mapped_column(BigInteger)  # its Discord scheduled event
    event_version: Mapped[int] = mapped_column(Integer, default=0)
    reports: Mapped[str] = mapped_column(Text, default="{}")  # players' results awaiting the opponent's
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)
