"""`muster doctor`'s Discord checks: log in over REST only (no gateway session beside the running
shards), list the bot's servers and say where it lacks a permission Muster needs."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import aiohttp
import discord

from bot import config
from bot.doctor.report import Check, Report, first_line

# What Muster needs in a server (the README's invite list), as discord.py's flag and the client's name.
NEEDED_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channels"),
    ("send_messages", "Send Messages"),
    ("embed_links", "Embed Links"),
    ("attach_files", "Attach Files"),
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
    ("read_message_history", "Read Message History"),
)
SERVERS_PER_SHARD = 2500  # Discord refuses a shard that would hold more
LOGIN_TIMEOUT = 30.0
PAGE = 200  # the most servers GET /users/@me/guilds returns at once


async def check_discord(
    token: str,
    api_base: str | None,
    report: Report,
    *,
    shard_count: int | None = None,
    max_servers: int = 100,
) -> None:
    """Log in over REST only, then list the servers and what Muster lacks in each."""
    from bot.app import use_api_base

    try:
        base = config.check_api_base(api_base)
    except ValueError as error:
        report(Check("Discord", False, str(error)))
        return
    use_api_base(base)
    where = base or "Discord"
    client = discord.Client(intents=discord.Intents(guilds=True))
    try:
        try:
            await asyncio.wait_for(client.login(token), LOGIN_TIMEOUT)
            servers = await _servers(client)
            recommended, _url, _limits = await client.http.get_bot_gateway()
        except discord.LoginFailure:
            report(
                Check(
                    "Discord",
                    False,
                    "DISCORD_TOKEN was refused (reset, or another bot's); copy the current one from "
                    "the Developer Portal",
                )
            )
            return
        except discord.HTTPException as error:
            report(Check("Discord", False, f"{where} answered {error.status}: {error.text or error}"))
            return
        except discord.GatewayNotFound:
            report(Check("Discord", False, f"{where} did not say how many shards to run (GET /gateway/bot)"))
            return
        except (aiohttp.ClientError, OSError, TimeoutError) as error:
            report(
                Check(
                    "Discord",
                    False,
                    f"cannot reach {where} ({first_line(error) or type(error).__name__}); check the "
                    "network" + (" and DISCORD_API_BASE" if base else ""),
                )
            )
            return
        user = client.user
        assert user is not None
        report(
            Check(
                "Discord",
                True,
                f"logged in to {where} as {user} ({user.id}), in {_count(len(servers), 'server')}; "
                f"Discord recommends {_count(recommended, 'shard')}",
            )
        )
        if shard_count is not None and len(servers) > shard_count * SERVERS_PER_SHARD:
            least = -(-len(servers) // SERVERS_PER_SHARD)
            report(
                Check(
                    "Shards",
                    False,
                    f"{len(servers)} servers need at least {least} shards (Discord allows "
                    f"{SERVERS_PER_SHARD} per shard); raise MUSTER_SHARD_COUNT in every process",
                )
            )
        await _check_permissions(client, user.id, servers, report, max_servers)
    finally:
        await client.close()


@dataclass(frozen=True)
class Server:
    id: int
    name: str
    owner: bool  # the bot owns it: every permission


async def _servers(client: discord.Client) -> list[Server]:
    """Every server the bot is in, paging through GET /users/@me/guilds as Discord requires."""
    found: list[Server] = []
    after: int | None = None
    while True:
        page = await client.http.get_guilds(PAGE, after=after, with_counts=False)
        found.extend(Server(int(g["id"]), g["name"], bool(g.get("owner"))) for g in page)
        if len(page) < PAGE:
            return found
        after = max(int(g["id"]) for g in page)


async def _check_permissions(
    client: discord.Client,
    bot_id: int,
    servers: list[Server],
    report: Report,
    max_servers: int,
) -> None:
    """One line for each server where Muster lacks a permission it needs, else one line for all."""
    checked = servers if max_servers <= 0 else servers[:max_servers]
    lacking = 0
    for server in checked:
        where = f"Server {server.name} ({server.id})"
        try:
            granted = await server_permissions(client, server.id, bot_id, owner=server.owner)
        except discord.HTTPException as error:
            lacking += 1
            report(
                Check(
                    where,
                    False,
                    f"could not read the bot's roles ({error.status} {error.text}); is it still a member?",
                )
            )
            continue
        missing = [label for flag, label in NEEDED_PERMISSIONS if not getattr(granted, flag)]
        if missing:
            lacking += 1
            report(
                Check(
                    where,
                    False,
                    f"the bot lacks {', '.join(missing)}; grant {'it' if len(missing) == 1 else 'them'} "
                    "to its role in Server Settings → Roles",
                )
            )
    if not servers:
        report(Check("Permissions", True, "the bot is in no server yet; invite it (see the README)"))
    elif not lacking:
        scope = (
            f"all {len(checked)} servers"
            if len(checked) == len(servers)
            else f"the first {len(checked)} of {len(servers)} servers (`--servers 0` checks them all)"
        )
        report(Check("Permissions", True, f"the bot has what Muster needs in {scope}"))


async def server_permissions(
    client: discord.Client, server_id: int, bot_id: int, *, owner: bool = False
) -> discord.Permissions:
    """The bot's server-level permissions, read over REST (its member, the server's roles)."""
    if owner:
        return discord.Permissions.all()
    member = await client.http.get_member(server_id, bot_id)
    roles = {int(role["id"]): int(role["permissions"]) for role in await client.http.get_roles(server_id)}
    return granted_permissions(server_id, [int(r) for r in member["roles"]], roles)


def granted_permissions(
    server_id: int, member_roles: list[int], roles: dict[int, int]
) -> discord.Permissions:
    """@everyone's permissions (its role has the server's id) with the member's roles' (all of them
    for an administrator). Channel overwrites can still take some away in one channel."""
    value = roles.get(server_id, 0)
    for role_id in member_roles:
        value |= roles.get(role_id, 0)
    granted = discord.Permissions(value)
    return discord.Permissions.all() if granted.administrator else granted


def _count(number: int, noun: str) -> str:
    return f"{number:,} {noun}{'' if number == 1 else 's'}"
