"""Settings from the environment (and an optional `.env` file)."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

# Three dot-separated base64url parts: the shape of every bot token Discord issues.
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_\-]{16,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{16,}$")


def default_database_url() -> str:
    return f"sqlite+aiosqlite:///{Path('data').absolute() / 'muster.sqlite3'}"


def parse_shard_ids(text: str) -> list[int]:
    """ "0-3" or "0,2" or "1" into sorted shard ids; ValueError says what is wrong."""
    ids: set[int] = set()
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"MUSTER_SHARD_IDS: {part!r} is not a shard number or a range like 0-3")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"MUSTER_SHARD_IDS: the range {part!r} runs backwards")
        ids.update(range(first, last + 1))
    return sorted(ids)


def check_token(value: str) -> str:
    """The token without surrounding blanks; ValueError when it is not shaped like a bot token."""
    token = value.strip()
    if not _TOKEN_SHAPE.match(token):
        raise ValueError("DISCORD_TOKEN does not look like a Discord bot token")
    return token


def check_shards(ids: list[int] | None, count: int | None) -> None:
    """ValueError when MUSTER_SHARD_IDS and MUSTER_SHARD_COUNT do not fit together."""
    if ids is not None and count is None:
        raise ValueError("MUSTER_SHARD_IDS needs MUSTER_SHARD_COUNT (the total over every process)")
    if ids is not None and count is not None and max(ids) >= count:
        raise ValueError(f"MUSTER_SHARD_IDS names shard {max(ids)} but MUSTER_SHARD_COUNT is {count}")


def check_api_base(value: str | None) -> str | None:
    """DISCORD_API_BASE without a trailing slash (None when blank); ValueError unless http(s)."""
    if value is None or not value.strip():
        return None
    value = value.strip().rstrip("/")
    if not value.startswith(("http://", "https://")):
        raise ValueError("DISCORD_API_BASE must be an http(s) URL such as http://127.0.0.1:8123/api/v10")
    return value


class StoreSettings(BaseSettings):
    """What `muster migrate` needs: just the database."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    database_url: str = Field(default_factory=default_database_url)
    log_level: str = "INFO"
    log_format: str = "json"  # "json" or "text"

    @field_validator("log_level")
    @classmethod
    def _level(cls, value: str) -> str:
        level = value.upper()
        if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
            raise ValueError("LOG_LEVEL must be DEBUG, INFO, WARNING, ERROR or CRITICAL")
        return level


class WebSettings(StoreSettings):
    """What `muster web` reads (no Discord token: the site only reads the database); the bot reads
    MUSTER_WEB_BASE_URL too, to answer `/settings web on` with the server's page address."""

    muster_web_host: str = "127.0.0.1"
    muster_web_port: int = Field(default=8080, ge=1, le=65535)
    # The site's address as people reach it (behind a reverse proxy: the proxy's), without a slash.
    muster_web_base_url: str = "http://127.0.0.1:8080"
    # Requests one address may make: a burst, refilled at this rate per second (0: no limit).
    muster_web_rate: float = Field(default=5.0, ge=0)
    muster_web_burst: int = Field(default=60, ge=1)
    # Behind a reverse proxy every request comes from the proxy: limit by the X-Forwarded-For
    # address it adds instead (only set this when a proxy you run always sets that header).
    muster_web_forwarded: bool = False

    @field_validator("muster_web_base_url")
    @classmethod
    def _base_url(cls, value: str) -> str:
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError(
                "MUSTER_WEB_BASE_URL must be an http(s) address such as https://muster.example.org"
            )
        return value


class Settings(WebSettings):
    """Everything `muster run` reads. Only DISCORD_TOKEN is required."""

    discord_token: SecretStr
    discord_api_base: str | None = None
    muster_dev_guild_id: int | None = None
    reminder_minutes: float = 30.0  # default; a server may change its own
    auto_confirm_hours: float = 24.0
    sweep_seconds: float = 30.0
    # How long a process that stopped answering keeps the outbox lanes it was sending (renewed with
    # every message sent); after that another process takes them over.
    muster_outbox_lease_seconds: float = Field(default=30.0, gt=0)
    # REST requests a second for the whole bot, every process together: under Discord's 50, for the
    # jitter of the requests' way there (a busy event loop sends a few together). Each process
    # paces itself to its shards' share of it (bot/chat/buckets.py).
    muster_global_requests_per_second: float = Field(default=40.0, gt=0)
    # How long discord.py waits for the servers' GUILD_CREATE after connecting before the bot is
    # ready (its own default); workers that start on ready wait this long at every start.
    muster_guild_ready_timeout: float = Field(default=2.0, ge=0)
    # Shards this process runs ("0-3", "0,2"; unset: every shard Discord recommends) out of
    # MUSTER_SHARD_COUNT. Several processes, each with its own shards, share one database.
    muster_shard_ids: str | None = None
    muster_shard_count: int | None = Field(default=None, ge=1)
    # Tests only: a seed makes every die the bot throws reproducible. Unset in production, where
    # dice come from the operating system's cryptographically strong source.
    muster_dice_seed: int | None = None

    @field_validator("discord_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        return SecretStr(check_token(value.get_secret_value()))

    @field_validator("muster_shard_ids")
    @classmethod
    def _shard_ids(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parse_shard_ids(value)  # raises ValueError with what is wrong
        return value.strip()

    @model_validator(mode="after")
    def _shards_counted(self) -> Settings:
        check_shards(self.shard_ids(), self.muster_shard_count)
        return self

    def shard_ids(self) -> list[int] | None:
        return parse_shard_ids(self.muster_shard_ids) if self.muster_shard_ids else None

    def runs_shard_zero(self) -> bool:
        """The process holding shard 0 is the one that syncs commands (and gets every DM)."""
        ids = self.shard_ids()
        return ids is None or 0 in ids

    @field_validator("discord_api_base")
    @classmethod
    def _api_base(cls, value: str | None) -> str | None:
        return check_api_base(value)
