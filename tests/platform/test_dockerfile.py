"""No Docker engine runs on the build machines, so check the image definition by reading it."""

from __future__ import annotations

import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]


def instructions() -> list[tuple[str, str]]:
    lines = (ROOT / "Dockerfile").read_text().replace("\\\n", " ").splitlines()
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line.strip() and not line.lstrip().startswith("#")
    ]


def test_dockerfile_is_slim_non_root_with_a_data_volume() -> None:
    steps = instructions()
    assert steps[0][0] == "FROM" and "slim" in steps[0][1]
    users = [arg for op, arg in steps if op == "USER"]
    assert users and users[-1] not in ("root", "0")
    assert any(op == "VOLUME" and "/data" in arg for op, arg in steps)
    env = " ".join(arg for op, arg in steps if op == "ENV")
    assert "sqlite+aiosqlite:////data/" in env


def test_entrypoint_is_the_console_script_and_copied_packages_exist() -> None:
    steps = instructions()
    entry = [arg for op, arg in steps if op == "ENTRYPOINT"][-1]
    cmd = [arg for op, arg in steps if op == "CMD"][-1]
    assert entry == '["muster"]' and cmd == '["run"]'
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    module, func = scripts["muster"].split(":")
    assert module == "bot.cli"
    import bot.cli

    assert callable(getattr(bot.cli, func))
    for op, arg in steps:
        if op == "COPY":
            for source in arg.split()[:-1]:
                assert (ROOT / source).exists(), source


def test_compose_reads_the_token_from_env_file() -> None:
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    service = compose["services"]["muster"]
    assert service["env_file"] == ".env"
    assert any(str(v).endswith(":/data") for v in service["volumes"])


def test_compose_postgres_profile_runs_every_shard_once_on_one_postgres() -> None:
    from sqlalchemy.engine import make_url

    from bot.config import Settings

    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert "profiles" not in services["muster"]  # plain `docker compose up`: today's single SQLite service

    postgres = services["postgres"]
    assert postgres["profiles"] == ["postgres"] and postgres["image"].startswith("postgres:16")
    assert any(str(v).endswith(":/var/lib/postgresql/data") for v in postgres["volumes"])
    assert "pg_isready" in " ".join(postgres["healthcheck"]["test"])

    shards = {name: s for name, s in services.items() if name.startswith("muster-shard-")}
    assert set(shards) == {"muster-shard-0", "muster-shard-1"}
    ran: list[int] = []
    for service in shards.values():
        assert service["profiles"] == ["postgres"] and service["env_file"] == ".env"
        assert service["depends_on"]["postgres"]["condition"] == "service_healthy"
        env = service["environment"]
        url = make_url(env["DATABASE_URL"].replace("${POSTGRES_PASSWORD:-muster}", "muster"))
        assert url.drivername == "postgresql+asyncpg" and url.host == "postgres"
        # What each process reads passes Muster's own validation (the token is a stand-in).
        settings = Settings(
            discord_token="MTIzNDU2Nzg5MDEyMzQ1Njc4.GAbcde.abcdefghijklmnopqrstuvwxyz12345",  # type: ignore[arg-type]
            muster_shard_ids=env["MUSTER_SHARD_IDS"],
            muster_shard_count=env["MUSTER_SHARD_COUNT"],
            database_url=str(url),
        )
        assert settings.muster_shard_count == 2
        ran.extend(settings.shard_ids() or [])
    assert sorted(ran) == [0, 1]  # each shard in exactly one process
