"""A game night's messages, made from its state and the events of a step: the card (edited in
place as people sign up), the draft pairings for the organiser, the published pairings, DMs
(a place opened, a reminder, a cancellation), the summary and the scheduled event's text.

The words are cogs/night/text.py's; reasons and refusals are worded from their codes. Each
message speaks its reader's language: the card, the pairings, the summary and the notices in the
channel the server's, a DM its player's (`Languages`, read with the step). The pieces (`card`,
`draft`, `pairings`...) speak the language in force, so an ephemeral answer speaks its player's.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat.limits import CONTENT, EMBED_DESCRIPTION
from bot.chat.messages import Button, Embed, Outgoing
from bot.lang.i18n import speaking
from bot.lang.languages import ENGLISH, Languages
from bot.nights.games import NightGame
from bot.nights.service import NightInfo
from bot.play.games import GameRegistry
from bot.scheduling import EventText
from cogs.night.text import reason_text, word
from rules.night.models import Pairing, Signup
from rules.night.night import NightState
from rules.session import Event
from rules.text import clip

COLOUR = 0x2E7D32
CARD_KEY = "card"
DRAFT_KEY = "draft"
PAIRINGS_KEY = "pairings"
LINES_MAX = 1000  # of a list of sign-ups or sat-out players: a field's value, with room to spare
PRIVATE_REASONS = ("night.dropped", "night.stands_in")
"""Reasons that tell of an organiser's drop: only the organiser (in the draft) and the dropped
player (by DM) read them, never a public post."""


def button_id(night_id: str, action: str) -> str:
    return f"night:{night_id}:{action}"


def reminder_button_id(guild_id: int) -> str:
    return f"nightrem:{guild_id}:off"


class NightRenderer:
    def __init__(self, games: GameRegistry, channel_name: Callable[[int], str | None]) -> None:
        self.games = games
        self.channel_name = channel_name

    # ------------------------------------------------------------------ pieces

    def system(self, slug: str) -> str:
        return self.games.title(slug) or slug.replace("-", " ").title()

    def systems(self, slugs: list[str]) -> str:
        return ", ".join(self.system(s) for s in slugs)

    @staticmethod
    def link(info: NightInfo) -> str:
        return f"https://discord.com/channels/{info.guild_id}/{info.channel_id}"

    def signup_line(self, index: int, signup: Signup) -> str:
        parts = [self.systems(signup.systems)]
        if signup.points:
            parts.append(word("line.points", points=signup.points))
        if signup.can_teach:
            parts.append(word("line.teach"))
        if signup.wants_to_learn:
            parts.append(word("line.learn"))
        if signup.arranged_with:
            parts.append(word("line.arranged", other=signup.arranged_with))
        return f"{index}. <@{signup.player}> · {' · '.join(parts)}"

    def _lines(self, signups: list[Signup]) -> str:
        return clip("\n".join(self.signup_line(i, s) for i, s in enumerate(signups, 1)), LINES_MAX)

    # ------------------------------------------------------------------ the card

    def card(self, info: NightInfo, state: NightState) -> Outgoing:
        settings = state.settings
        lines = [
            word("card.when", start=settings.starts_at),
            word("card.where", place=info.place or word("default_place")),
            word("card.systems", systems=self.systems(settings.systems)),
            word("card.cutoff", cutoff=settings.cutoff),
            word("card.organiser", organiser=state.organiser),
        ]
        if settings.recurrence != "none":
            lines.append(word("card.repeats", recurrence=word(settings.recurrence)))
        embed = Embed(title=settings.title, description="\n".join(lines), colour=COLOUR)
        embed.add(
            word("card.signed_up", count=len(state.signups), capacity=settings.capacity),
            self._lines(state.signups) or word("card.nobody"),
        )
        if state.waitlist:
            embed.add(word("card.waitlist", count=len(state.waitlist)), self._lines(state.waitlist))
        embed.footer = word(f"card.status.{state.status}")
        buttons = []
        if state.status in ("open", "closed", "review"):
            buttons = [
                Button(label=word("card.sign_up"), custom_id=button_id(info.id, "join"), style="primary"),
                Button(label=word("card.change"), custom_id=button_id(info.id, "change")),
                Button(label=word("card.leave"), custom_id=button_id(info.id, "leave"), style="danger"),
            ]
        return Outgoing(channel_id=info.channel_id, key=CARD_KEY, embeds=[embed], buttons=buttons)

    def created(self, info: NightInfo, state: NightState, languages: Languages = ENGLISH) -> list[Outgoing]:
        with speaking(languages.table):
            return [self.card(info, state)]

    # ------------------------------------------------------------------ after a step

    def after_step(
        self,
        info: NightInfo,
        before: NightState,
        after: NightState,
        events: list[Event],
        languages: Languages = ENGLISH,
    ) -> list[Outgoing]:
        """The step's messages: the channel's in the server's language, each DM in its reader's."""
        with speaking(languages.table):
            out = [self.card(info, after)]
        kinds = {type(e).__name__ for e in events}
        for event in events:
            key = {"Promoted": "dm.promoted", "Dropped": "dm.dropped"}.get(type(event).__name__)
            if key is not None:
                player = event.player  # type: ignore[attr-defined]
                with speaking(languages.of(player)):
                    text = word(
                        key, title=after.settings.title, start=after.settings.starts_at, link=self.link(info)
                    )
                    out.append(self.dm(player, text))
        if after.status == "review" and kinds & {"Paired", "Swapped", "TableMoved", "Dropped"}:
            with speaking(languages.of(after.organiser)):
                out.append(self.draft(info, after))
        if "Published" in kinds:
            with speaking(languages.table):
                out.append(self.pairings(info, after, draft=False))
        if "Cancelled" in kinds:
            start = after.settings.starts_at
            with speaking(languages.table):
                text = word("channel.cancelled", title=after.settings.title, start=start)
                out.append(Outgoing(channel_id=info.channel_id, content=text))
            for signup in after.signups + after.waitlist:
                with speaking(languages.of(signup.player)):
                    text = word("dm.cancelled", title=after.settings.title, start=start)
                    out.append(self.dm(signup.player, text))
        return out

    @staticmethod
    def dm(player: int, content: str, buttons: list[Button] | None = None) -> Outgoing:
        return Outgoing(to="dm", user_id=player, content=clip(content, CONTENT), buttons=buttons or [])

    def pairing_line(self, index: int, pairing: Pairing, state: NightState, *, public: bool = False) -> str:
        tables = {t.table_id: t for t in state.tables}
        table = tables.get(pairing.table_id or "")
        where = word("pairings.no_table")
        if table is not None:
            where = f"{table.name}" + (f" ({table.terrain})" if table.terrain else "")
        first, second = pairing.players
        line = word(
            "pairings.line",
            index=index,
            system=self.system(pairing.system),
            first=first,
            second=second,
            table=where,
        )
        shown = [r for r in pairing.reasons if not (public and r.code in PRIVATE_REASONS)]
        reasons = [reason_text(r, self.system) for r in shown]
        if reasons:
            line += "\n  " + word("pairings.because", reasons="; ".join(reasons))
        return line

    def pairings(self, info: NightInfo, state: NightState, *, draft: bool) -> Outgoing:
        result = state.result
        title = word("pairings.draft_title" if draft else "pairings.title", title=state.settings.title)
        pairings = result.pairings if result else []
        lines = [self.pairing_line(i, p, state, public=not draft) for i, p in enumerate(pairings, 1)]
        embed = Embed(
            title=title, description=clip("\n".join(lines) or "—", EMBED_DESCRIPTION), colour=COLOUR
        )
        self._add_sat_out(embed, state, public=not draft)
        if draft:
            embed.footer = word("pairings.draft_help")
            return Outgoing(to="dm", user_id=state.organiser, key=DRAFT_KEY, embeds=[embed])
        embed.footer = word("pairings.games")
        return Outgoing(channel_id=info.channel_id, key=PAIRINGS_KEY, embeds=[embed])

    def _add_sat_out(self, embed: Embed, state: NightState, *, public: bool) -> None:
        """Who sits out and why; a public post leaves out the organiser's drops (the dropped
        player is told by DM, the organiser reads it in the draft)."""
        sat_out = state.result.sat_out if state.result is not None else []
        if public:
            sat_out = [s for s in sat_out if s.reason.code not in PRIVATE_REASONS]
        sat = [
            word("pairings.sat_out_line", player=s.player, reason=reason_text(s.reason, self.system))
            for s in sat_out
        ]
        if sat:
            embed.add(word("pairings.sat_out"), clip("\n".join(sat), LINES_MAX))

    def draft(self, info: NightInfo, state: NightState) -> Outgoing:
        return self.pairings(info, state, draft=True)

    # ------------------------------------------------------------------ reminders, requests, events

    def reminder(
        self, info: NightInfo, state: NightState, player: int, languages: Languages = ENGLISH
    ) -> Outgoing:
        """The reminder DM, in the player's language."""
        signup = next((s for s in state.signups if s.player == player), None)
        systems = self.systems(signup.systems if signup else state.settings.systems)
        with speaking(languages.of(player)):
            text = word(
                "dm.reminder",
                title=state.settings.title,
                start=state.settings.starts_at,
                place=info.place or word("default_place"),
                systems=systems,
                link=self.link(info),
            )
            off = Button(label=word("dm.reminder_off"), custom_id=reminder_button_id(info.guild_id))
            return self.dm(player, text, [off])

    def request(
        self,
        info: NightInfo,
        state: NightState,
        player: int,
        systems: list[str] | None,
        languages: Languages = ENGLISH,
    ) -> Outgoing:
        """A player's change after the cut-off (a sign-up for `systems`, or None: leaving), passed
        to the organiser in the organiser's language."""
        with speaking(languages.of(state.organiser)):
            what = (
                word("dm.request_leave")
                if systems is None
                else word("dm.request_signup", systems=self.systems(systems))
            )
            text = word(
                "dm.request", player=player, title=state.settings.title, what=what, link=self.link(info)
            )
            return self.dm(state.organiser, text)

    def event_text(self, info: NightInfo, state: NightState) -> EventText:
        """The scheduled event's words, in the language in force (the server's: bot/nights/events.py)."""
        channel = self.channel_name(info.channel_id) or word("default_channel")
        return EventText(
            name=state.settings.title,
            description=word(
                "event.description", systems=self.systems(state.settings.systems), channel=channel
            ),
            location=info.place or word("default_place"),
        )

    def no_events(self, info: NightInfo) -> Outgoing:
        return Outgoing(channel_id=info.channel_id, content=word("no_events"))

    # ------------------------------------------------------------------ the summary

    def game_line(self, game: NightGame) -> str:
        first, second = game.players
        system = self.system(game.system)
        if game.status == "cancelled":
            return word("summary.cancelled", system=system, first=first, second=second)
        if game.result_id is None:
            return word("summary.unfinished", system=system, first=first, second=second)
        outcome = word("summary.won", winner=game.winner) if game.winner else word("summary.draw")
        line = word(
            "summary.result",
            system=system,
            first=first,
            second=second,
            score_first=game.scores.get(first, 0),
            score_second=game.scores.get(second, 0),
            outcome=outcome,
        )
        if game.rating_changes:
            changes = ", ".join(f"<@{c.player}> {c.delta:+d}" for c in game.rating_changes)
            line += " · " + word("summary.ratings", changes=changes)
        return line

    def summary(
        self, info: NightInfo, state: NightState, games: list[NightGame], channel_id: int, language: str
    ) -> list[Outgoing]:
        """The night's summary, in the server's `language`."""
        with speaking(language):
            return self._summary(info, state, games, channel_id)

    def _summary(
        self, info: NightInfo, state: NightState, games: list[NightGame], channel_id: int
    ) -> list[Outgoing]:
        lines = [self.game_line(g) for g in games]
        opened = {g.session_id for g in games}
        for pairing in state.result.pairings if state.result else []:
            if pairing.session_id is None or pairing.session_id not in opened:
                first, second = pairing.players
                lines.append(
                    word("summary.unrun", system=self.system(pairing.system), first=first, second=second)
                )
        title = word("summary.title", title=state.settings.title)
        when = word("summary.when", start=state.settings.starts_at) + "\n"
        listed = clip("\n".join(lines) or word("summary.nothing"), EMBED_DESCRIPTION - len(when))
        embed = Embed(title=title, description=when + listed, colour=COLOUR)
        self._add_sat_out(embed, state, public=True)
        return [
            Outgoing(
                channel_id=channel_id,
                fallback_channel_id=info.channel_id if channel_id != info.channel_id else None,
                failure_user_id=state.organiser,
                embeds=[embed],
            )
        ]
