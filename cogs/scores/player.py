"""/scores player: a player's record, ratings, systems, favourite factions and rivals as an embed."""

from __future__ import annotations

import discord

from bot.chat.limits import EMBED_TITLE, FIELD_VALUE
from bot.lang.i18n import Domain
from bot.scores import system_title
from bot.scores.layout import clip, fit_lines, signed
from cogs.scores.buttons import BOARD_COLOUR
from rules.scores import PlayerSummary

_ = Domain("muster")
FACTION_SHOWN = 60  # of a faction's name in a player's favourites


def player_embed(who: discord.abc.User, summary: PlayerSummary) -> discord.Embed:
    """The summary of `who`'s games, in the language in force."""
    more = _("…and {n} more")
    embed = discord.Embed(
        title=clip(_.p("title", "Player: {name}", name=who.display_name), EMBED_TITLE),
        colour=BOARD_COLOUR,
    )
    if summary.games == 0:
        embed.description = _("{player} has no confirmed games here yet.", player=f"<@{who.id}>")
        return embed
    embed.description = (
        f"<@{who.id}>: "
        + _.n("{count} game", "{count} games", summary.games)
        + " · "
        + _(
            "{wins} won, {draws} drawn, {losses} lost",
            wins=summary.wins,
            draws=summary.draws,
            losses=summary.losses,
        )
        + " · "
        + _(
            "points {scored}–{conceded} ({difference})",
            scored=summary.points_for,
            conceded=summary.points_against,
            difference=signed(summary.points_for - summary.points_against),
        )
    )
    ratings = [_("Overall {rating}", rating=f"**{summary.rating.display}**")] + [
        f"{system_title(s)} **{r.display}**" for s, r in summary.system_ratings.items()
    ]
    embed.add_field(
        name=_.p("field", "Ratings"), value=fit_lines(ratings, FIELD_VALUE, more=more), inline=False
    )
    embed.add_field(
        name=_.p("field", "Systems"),
        value=fit_lines([f"{system_title(s)}: {n}" for s, n in summary.systems], FIELD_VALUE, more=more),
        inline=True,
    )
    embed.add_field(
        name=_.p("field", "Favourite factions"),
        value=fit_lines(
            [f"{clip(f, FACTION_SHOWN)}: {n}" for f, n in summary.favourite_factions],
            FIELD_VALUE,
            more=more,
        ),
        inline=True,
    )
    embed.add_field(
        name=_.p("field", "Against each opponent"),
        inline=False,
        value=fit_lines(
            [
                f"<@{h.opponent}>: "
                + _.n("{count} game", "{count} games", h.games)
                + f" · {h.wins}-{h.draws}-{h.losses} · {h.points_for}–{h.points_against}"
                for h in summary.opponents
            ],
            FIELD_VALUE,
            more=more,
        ),
    )
    if summary.last_played is not None:
        embed.add_field(
            name=_.p("field", "Last game"),
            value=f"<t:{int(summary.last_played.timestamp())}:R>",
            inline=False,
        )
    return embed
