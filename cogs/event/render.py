"""An event's messages, made from its state and the notes of a step: the card (edited in place as
players enter and seal lists), each round's pairings (edited as results come in), the standings
after each round, the revealed lists, and DMs (a rejected list, a reported result to confirm).

Public posts speak the server's language, DMs their reader's (`Languages`, read with the step).
"""

from __future__ import annotations

from bot.chat.limits import CONTENT, EMBED_DESCRIPTION, EMBED_TITLE, FIELD_VALUE
from bot.chat.messages import Button, Embed, Outgoing
from bot.events.rounds import table_of
from bot.events.service import EventInfo, EventStep, StoredList
from bot.events.state import EventState, Note, Played
from bot.lang.i18n import Domain, speaking
from bot.lang.languages import Languages
from bot.play.games import GameRegistry
from rules.event.lists import LIST_STEP, list_digest
from rules.event.standings import Standing
from rules.text import clip

_ = Domain("event")
COLOUR = 0x6A1B9A
CARD_KEY = "card"
COMMITMENT_SHOWN = 16  # hex digits of a commitment on the card: the reveal shows it whole
SHOWN_LIST = 3500  # of a revealed list in its post; the whole list: /event lists


def button_id(event_id: str, action: str) -> str:
    return f"event:{event_id}:{action}"


def short(commitment: str) -> str:
    return commitment[:COMMITMENT_SHOWN]


def tiebreak_name(key: str) -> str:
    names = {
        "total_vp": _("total VP"),
        "vp_difference": _("VP difference"),
        "sos": _("strength of schedule"),
        "opp_sos": _("opponents' strength of schedule"),
        "head_to_head": _("head-to-head"),
    }
    return names.get(key, key)


def standings_lines(state: EventState, table: list[Standing]) -> list[str]:
    """One line per player: rank, mention, faction, W-D-L, points and each tiebreaker."""
    keys = state.settings.tiebreakers
    lines = []
    for row in table:
        meta = state.lists.get(row.player)
        faction = f" · {meta.faction}" if meta is not None and state.lists_revealed else ""
        breaks = " · ".join(f"{row.tiebreaks.get(k, 0):g}" for k in keys)  # type: ignore[call-overload]
        gone = " ✖" if row.dropped else ""
        lines.append(
            f"{row.rank}. <@{row.player}>{faction} · {row.record()} · **{row.points}** · {breaks}{gone}"
        )
    return lines


class EventRenderer:
    def __init__(self, games: GameRegistry) -> None:
        self.games = games

    def system(self, slug: str) -> str:
        return self.games.title(slug) or slug.replace("-", " ").title()

    # ------------------------------------------------------------------ the card

    def card(self, info: EventInfo, state: EventState) -> Outgoing:
        s = state.settings
        rounds = str(s.rounds) if s.rounds else _("as many as the players need")
        lines = [
            _("**{system}** · <t:{start}:F>", system=self.system(s.system), start=s.starts_at),
            _("Rounds: {rounds} · {minutes} minutes each", rounds=rounds, minutes=s.round_minutes),
            _("Lists due <t:{due}:R>", due=s.lists_due),
        ]
        if state.phase != "signup":
            lines.append(self.phase_line(state))
        players = []
        for index, player in enumerate(state.entrants, 1):
            meta = state.lists.get(player)
            mark = ""
            if meta is not None and meta.status == "sealed":
                mark = f" · 🔒 `{short(meta.commitment)}`"
            elif meta is not None:
                mark = " · " + _("list rejected")
            gone = " ✖" if player in state.dropped else ""
            players.append(f"{index}. <@{player}>{mark}{gone}")
        embed = Embed(title=s.name, description=clip("\n".join(lines), EMBED_DESCRIPTION), colour=COLOUR)
        label = _("Players ({count}/{capacity})", count=len(state.entrants), capacity=s.capacity)
        embed.add(label, clip("\n".join(players) or _("No one yet."), FIELD_VALUE))
        if state.waitlist:
            embed.add(_("Waitlist"), clip(" ".join(f"<@{p}>" for p in state.waitlist), FIELD_VALUE))
        buttons = []
        if state.phase in ("signup", "lists_closed") and state.round_number == 0:
            buttons = [
                Button(label=_("Enter"), custom_id=button_id(info.id, "join"), style="success"),
                Button(label=_("Leave"), custom_id=button_id(info.id, "leave")),
            ]
        return Outgoing(key=CARD_KEY, embeds=[embed], buttons=buttons)

    def phase_line(self, state: EventState) -> str:
        if state.phase == "lists_closed":
            return _("Lists are closed.")
        if state.phase == "round":
            return _("Round {round} of {rounds}", round=state.round_number, rounds=state.total_rounds)
        if state.phase == "top_cut":
            return _("Top cut")
        if state.phase == "finished":
            return _("The event is over.")
        return _("The event was cancelled.")

    # ------------------------------------------------------------------ rounds and standings

    def round_post(self, state: EventState, number: int, ping: bool) -> Outgoing:
        games = state.round_games(number)
        lines = [self.game_line(g) for g in sorted(games, key=lambda g: g.table)]
        title = _("{name} · round {round}", name=state.settings.name, round=number)
        if state.total_rounds and number > state.total_rounds:
            title = _(
                "{name} · top cut, round {round}", name=state.settings.name, round=number - state.total_rounds
            )
        embed = Embed(
            title=title,
            description=clip("\n".join(lines), EMBED_DESCRIPTION),
            colour=COLOUR,
        )
        players = sorted({p for g in games for p in g.players}) if ping else []
        content = " ".join(f"<@{p}>" for p in players)
        return Outgoing(key=f"round:{number}", content=clip(content, CONTENT), pings=players, embeds=[embed])

    @staticmethod
    def game_line(game: Played) -> str:
        if game.second is None:
            return _("Bye: <@{player}>", player=game.first)
        if game.first_vp is None:
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

    def standings_post(self, state: EventState, number: int, final: bool) -> Outgoing:
        table = table_of(state)
        keys = ", ".join(tiebreak_name(k) for k in state.settings.tiebreakers)
        title = (
            _("{name} · final standings", name=state.settings.name)
            if final
            else _("{name} · standings after round {round}", name=state.settings.name, round=number)
        )
        head = _("Rank · player · W-D-L · points · {tiebreakers}", tiebreakers=keys)
        lines = [head, *standings_lines(state, table)]
        cut = [g for g in state.games if state.total_rounds and g.round > state.total_rounds]
        if final and cut and (winner := max(cut, key=lambda g: (g.round, -g.table)).winner) is not None:
            lines.insert(0, _("Top cut winner: <@{player}>", player=winner))
        text = "\n".join(lines)
        embed = Embed(title=title, description=clip(text, EMBED_DESCRIPTION), colour=COLOUR)
        return Outgoing(key=f"standings:{'final' if final else number}", embeds=[embed])

    # ------------------------------------------------------------------ lists

    def revealed(self, info: EventInfo, stored: StoredList, to: int | None = None) -> Outgoing:
        """A revealed list with what proves it was the one sealed (posted, or DMed to `to`)."""
        text = stored.text if len(stored.text) <= SHOWN_LIST else stored.text[:SHOWN_LIST] + "\n…"
        proof = _(
            "Event `{event}` · step `{step}` · choice `{faction}|{digest}` · nonce `{nonce}` "
            "· commitment `{commitment}`",
            event=info.id,
            step=LIST_STEP,
            faction=stored.faction,
            digest=list_digest(stored.text),
            nonce=stored.nonce,
            commitment=stored.commitment,
        )
        embed = Embed(
            title=clip(_("{faction} · list of a player", faction=stored.faction), EMBED_TITLE),
            description=clip(f"<@{stored.player}>\n```\n{text}\n```", EMBED_DESCRIPTION),
            colour=COLOUR,
        )
        embed.add(_("Check it with /verify or /event verify"), clip(proof, FIELD_VALUE))
        if to is not None:
            return Outgoing(to="dm", user_id=to, embeds=[embed])
        return Outgoing(key=f"list:{stored.player}", embeds=[embed])

    # ------------------------------------------------------------------ a step's messages

    def created(self, info: EventInfo, state: EventState, languages: Languages) -> list[Outgoing]:
        with speaking(languages.table):
            return [self.card(info, state)]

    def after_step(self, done: EventStep, lists: list[StoredList]) -> list[Outgoing]:
        state, info = done.state, done.info
        with speaking(done.languages.table):
            out = [self.card(info, state)]
            if lists and state.lists_revealed:
                out += [self.revealed(info, stored) for stored in lists]
            number = state.round_number
            if number > done.before.round_number:
                out.append(self.round_post(state, number, ping=True))
            elif number and state.games != done.before.games:
                out.append(self.round_post(state, number, ping=False))
            if (number and state.round_done() and not done.before.round_done()) or (
                state.phase == "finished" and done.before.phase != "finished"
            ):
                out.append(self.standings_post(state, number, final=state.phase == "finished"))
        for note in done.notes:
            out += self.dms(done, note)
        if lists and not state.lists_revealed:
            out += self.opponent_lists(done, lists)
        return out

    def opponent_lists(self, done: EventStep, lists: list[StoredList]) -> list[Outgoing]:
        """Each player's opponent's list, by DM, as a round is published in "opponent" mode."""
        by_player = {s.player: s for s in lists}
        out = []
        for game in done.state.round_games():
            for player in game.players:
                other = game.opponent_of(player)
                if other is not None and other in by_player:
                    with speaking(done.languages.of(player)):
                        out.append(self.revealed(done.info, by_player[other], to=player))
        return out

    def dms(self, done: EventStep, note: Note) -> list[Outgoing]:
        player = note.player
        if player is None:
            return []
        with speaking(done.languages.of(player)):
            if note.kind == "list_rejected":
                text = _(
                    "Your list for **{name}** was rejected: {reason}\nSend it again with `/event list`.",
                    name=done.state.settings.name,
                    reason=note.values["reason"],
                )
                return [Outgoing(to="dm", user_id=player, content=text)]
        other = note.values.get("other")
        if note.kind == "reported" and isinstance(other, int):
            with speaking(done.languages.of(other)):
                text = _(
                    "<@{player}> reported your game on table {table} as {first_vp}–{second_vp} "
                    "(in table order). "
                    "Confirm with `/event result` and the same score.",
                    player=player,
                    table=note.values["table"],
                    first_vp=note.values["first_vp"],
                    second_vp=note.values["second_vp"],
                )
                return [Outgoing(to="dm", user_id=other, content=text)]
        return []
