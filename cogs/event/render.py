"""An event's messages, made from its state and the events of a step (rules/event/events.py): the
card (edited in place as players enter and seal lists), each round's pairings (edited as results come
in), the standings after each Swiss round and at the end, the revealed lists, and DMs (a rejected
list, an opponent's list, a reported result to confirm).

Public posts speak the server's language, DMs their reader's (`Languages`, read with the step).
"""

from __future__ import annotations

from collections.abc import Callable

from bot.chat.limits import CONTENT, EMBED_DESCRIPTION, EMBED_TITLE, FIELD_VALUE
from bot.chat.messages import Button, Embed, Outgoing, Upload
from bot.events.rounds import table_of
from bot.events.service import EventInfo, EventStep, ReportWaiting
from bot.lang.i18n import Domain, speaking
from bot.lang.languages import Languages
from bot.play.games import GameRegistry
from bot.scheduling import EventText
from rules.event.events import (
    Finished,
    ListRejected,
    ListShown,
    ListsRevealed,
    ResultReported,
    RevealedList,
    RoundPublished,
)
from rules.event.lists import LIST_STEP, list_digest
from rules.event.models import Game, Tiebreaker
from rules.event.standings import Standing
from rules.event.state import EventState, Phase
from rules.session import Event
from rules.text import clip

_ = Domain("event")
COLOUR = 0x6A1B9A
STANDINGS_UPLOAD = "event-standings"  # the standings picture a standings post carries
CARD_KEY = "card"
COMMITMENT_SHOWN = 16  # hex digits of a commitment on the card: the reveal shows it whole
SHOWN_LIST = 3500  # of a revealed list in its post; the whole list: /event lists


def button_id(event_id: str, action: str) -> str:
    return f"event:{event_id}:{action}"


def tiebreak_name(key: Tiebreaker) -> str:
    names = {
        Tiebreaker.TOTAL_VP: _("total VP"),
        Tiebreaker.VP_DIFFERENCE: _("VP difference"),
        Tiebreaker.SOS: _("strength of schedule"),
        Tiebreaker.OPP_SOS: _("opponents' strength of schedule"),
        Tiebreaker.HEAD_TO_HEAD: _("head-to-head"),
    }
    return names[key]


def faction_of(state: EventState, player: int) -> str:
    """A player's faction once their list is revealed (to everyone), else nothing."""
    return state.faction_shown(player)


def standings_lines(state: EventState, table: list[Standing]) -> list[str]:
    """One line per player: rank, mention, faction, W-D-L, points and each tiebreaker."""
    lines = []
    for row in table:
        faction = f" · {f}" if (f := faction_of(state, row.player)) else ""
        breaks = " · ".join(f"{row.tiebreaks.get(k, 0):g}" for k in state.settings.scoring.tiebreakers)
        gone = " ✖" if row.dropped else ""
        lines.append(
            f"{row.rank}. <@{row.player}>{faction} · {row.record()} · **{row.points}** · {breaks}{gone}"
        )
    return lines


class EventRenderer:
    def __init__(self, games: GameRegistry, channel_name: Callable[[int], str | None]) -> None:
        self.games = games
        self.channel_name = channel_name

    def event_text(self, info: EventInfo, state: EventState) -> EventText:
        """The Discord scheduled event's words, in the language in force (the server's)."""
        channel = self.channel_name(info.channel_id) or _("the club's channel")
        rounds = state.total_rounds or state.settings.rounds
        description = _(
            "A {system} tournament of Swiss rounds run in Muster. Enter on its card in #{channel}.",
            system=self.system(state.settings.system),
            channel=channel,
        )
        if rounds:
            description += "\n" + _.n("{count} round", "{count} rounds", rounds)
        return EventText(name=state.settings.name, description=description, location=_("The club"))

    def no_events(self, info: EventInfo) -> Outgoing:
        text = _(
            "I couldn't make a Discord event for this tournament: give me the **Create Events** "
            "permission to have one. The tournament goes on without it."
        )
        return Outgoing(channel_id=info.channel_id, content=text)

    def system(self, slug: str) -> str:
        return self.games.title(slug) or slug.replace("-", " ").title()

    # ------------------------------------------------------------------ the card

    def card(self, info: EventInfo, state: EventState) -> Outgoing:
        s = state.settings
        rounds = str(state.total_rounds or s.rounds or "") or _("as many as the players need")
        lines = [
            _("**{system}** · <t:{start}:F>", system=self.system(s.system), start=s.starts_at),
            _("Rounds: {rounds} · {minutes} minutes each", rounds=rounds, minutes=s.round_minutes),
        ]
        if s.list_deadline is not None:
            lines.append(_("Lists due <t:{due}:R>", due=s.list_deadline))
        if state.phase is not Phase.SIGNUP:
            lines.append(self.phase_line(state))
        players = []
        for index, entrant in enumerate(state.entrants, 1):
            entry = state.lists.get(entrant.player)
            mark = ""
            if entry is not None and entry.status == "rejected":
                mark = " · " + _("list rejected")
            elif entry is not None:
                mark = f" · 🔒 `{entry.commitment[:COMMITMENT_SHOWN]}`"
            gone = " ✖" if entrant.dropped else ""
            players.append(f"{index}. <@{entrant.player}>{mark}{gone}")
        embed = Embed(title=s.name, description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=COLOUR)
        label = _("Players ({count}/{capacity})", count=len(state.entrants), capacity=s.capacity)
        embed.add(label, clip("\n".join(players) or _("No one yet."), FIELD_VALUE))
        if state.waitlist:
            waiting = " ".join(f"<@{e.player}>" for e in state.waitlist)
            embed.add(_("Waitlist"), clip(waiting, FIELD_VALUE))
        buttons = []
        if state.phase is Phase.SIGNUP:
            buttons = [
                Button(label=_("Enter"), custom_id=button_id(info.id, "join"), style="success"),
                Button(label=_("Leave"), custom_id=button_id(info.id, "leave")),
            ]
        return Outgoing(key=CARD_KEY, embeds=[embed], buttons=buttons)

    def phase_line(self, state: EventState) -> str:
        if state.phase is Phase.LISTS_CLOSED:
            return _("Lists are closed.")
        if state.phase is Phase.ROUND:
            return _("Round {round} of {rounds}", round=state.round_number, rounds=state.total_rounds or 0)
        if state.phase is Phase.TOP_CUT:
            return _("Top cut")
        if state.phase is Phase.FINISHED:
            return _("The event is over.")
        return _("The event was cancelled.")

    # ------------------------------------------------------------------ rounds and standings

    def round_post(self, state: EventState, number: int, ping: bool) -> Outgoing:
        games = state.round_games(number)
        lines = [self.game_line(g) for g in sorted(games, key=lambda g: (g.second is None, g.table))]
        title = _("{name} · round {round}", name=state.settings.name, round=number)
        if state.cut_from is not None and number >= state.cut_from:
            cut_round = number - state.cut_from + 1
            title = _("{name} · top cut, round {round}", name=state.settings.name, round=cut_round)
        embed = Embed(title=title, description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=COLOUR)
        players = sorted({p for g in games for p in g.players}) if ping else []
        content = " ".join(f"<@{p}>" for p in players)
        return Outgoing(key=f"round:{number}", content=clip(content, CONTENT), pings=players, embeds=[embed])

    @staticmethod
    def game_line(game: Game) -> str:
        if game.second is None:
            return _("Bye: <@{player}>", player=game.first)
        if not game.reported:
            return _(
                "Table {table}: <@{first}> vs <@{second}>",
                table=game.table,
                first=game.first,
                second=game.second,
            )
        return _(
            "Table {table}: <@{first}> {first_vp}–{second_vp} <@{second}>",
            table=game.table,
            first=game.first,
            second=game.second,
            first_vp=game.first_vp,
            second_vp=game.second_vp,
        )

    def standings_post(self, state: EventState, champion: int | None = None, *, final: bool) -> Outgoing:
        name, number = state.settings.name, state.round_number
        keys = ", ".join(tiebreak_name(k) for k in state.settings.scoring.tiebreakers)
        if final:
            title = _("{name} · final standings", name=name)
        else:
            title = _("{name} · standings after round {round}", name=name, round=number)
        lines = [_("Rank · player · W-D-L · points · {tiebreakers}", tiebreakers=keys)]
        lines += standings_lines(state, table_of(state))
        if final and champion is not None and state.cut_from is not None:
            lines.insert(0, _("Top cut winner: <@{player}>", player=champion))
        embed = Embed(title=title, description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=COLOUR)
        which = "final" if final else str(number)
        # The picture is drawn when the post is sent, from the stored event (cogs/event/rounds.py).
        picture = Upload(kind=STANDINGS_UPLOAD, ref=f"{state.event_id}:{which}", filename="standings.png")
        return Outgoing(key=f"standings:{which}", embeds=[embed], upload=picture)

    # ------------------------------------------------------------------ lists

    def revealed(self, info: EventInfo, shown: RevealedList, to: int | None = None) -> Outgoing:
        """A revealed list with what proves it was the one sealed (posted, or DMed to `to`)."""
        text = shown.text if len(shown.text) <= SHOWN_LIST else shown.text[:SHOWN_LIST] + "\n…"
        proof = _(
            "Event `{event}` · step `{step}` · choice `{faction}|{digest}` · nonce `{nonce}` "
            "· commitment `{commitment}`",
            event=info.id,
            step=LIST_STEP,
            faction=shown.faction,
            digest=list_digest(shown.text),
            nonce=shown.nonce,
            commitment=shown.commitment,
        )
        embed = Embed(
            title=clip(_("{faction} · list of a player", faction=shown.faction), EMBED_TITLE),
            description=clip(f"<@{shown.player}>\n```\n{text}\n```", EMBED_DESCRIPTION),
            colour=COLOUR,
        )
        embed.add(_("Check it with /verify or /event verify"), clip(proof, FIELD_VALUE))
        if to is not None:
            return Outgoing(to="dm", user_id=to, embeds=[embed])
        return Outgoing(key=f"list:{shown.player}", embeds=[embed])

    # ------------------------------------------------------------------ a step's messages

    def created(self, info: EventInfo, state: EventState, languages: Languages) -> list[Outgoing]:
        with speaking(languages.table):
            return [self.card(info, state)]

    def after_step(self, done: EventStep) -> list[Outgoing]:
        state = done.state
        with speaking(done.languages.table):
            out = [self.card(done.info, state)]
            for event in done.events:
                out += self.public(done, event)
            if (
                state.round_number
                and state.games != done.before.games
                and not any(isinstance(e, RoundPublished) for e in done.events)
            ):
                out.append(self.round_post(state, state.round_number, ping=False))
        for event in done.events:
            if event.private_to is not None:
                with speaking(done.languages.of(event.private_to)):
                    out += self.private(done, event, event.private_to)
        return out

    def public(self, done: EventStep, event: Event) -> list[Outgoing]:
        state = done.state
        if isinstance(event, ListsRevealed):
            return [self.revealed(done.info, shown) for shown in event.lists]
        if isinstance(event, RoundPublished):
            return [self.round_post(state, event.round, ping=True)]
        if isinstance(event, ResultReported) and event.round_complete and not self.in_cut(state, event.round):
            return [self.standings_post(state, final=False)]
        if isinstance(event, Finished):
            return [self.standings_post(state, event.champion, final=True)]
        return []

    @staticmethod
    def in_cut(state: EventState, number: int) -> bool:
        return state.cut_from is not None and number >= state.cut_from

    def private(self, done: EventStep, event: Event, reader: int) -> list[Outgoing]:
        if isinstance(event, ListShown):
            return [self.revealed(done.info, event.list, to=reader)]
        if isinstance(event, ListRejected):
            text = _(
                "Your list for **{name}** was rejected: {reason}\nSend it again with `/event list`.",
                name=done.state.settings.name,
                reason=event.reason,
            )
            return [Outgoing(to="dm", user_id=reader, content=text)]
        if isinstance(event, ReportWaiting):
            text = _(
                "<@{player}> reported your game on table {table} as {first_vp}–{second_vp} "
                "(in table order). Confirm with `/event result` and the same score.",
                player=event.by,
                table=event.table,
                first_vp=event.first_vp,
                second_vp=event.second_vp,
            )
            return [Outgoing(to="dm", user_id=reader, content=text)]
        return []
