"""Plays Kill Team through the emulator as two people, finding each component where it belongs.

Public questions are answered on the channel's latest messages; sealed and private ones in the
player's DMs, or, when their DMs are closed, behind the "Open my secret prompt" button in the channel.
The driver asks the stored state what is being asked (the rules' own `prompt_for`) and then presses
the real component the bot posted, so a prompt missing from the right place fails the test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from bot.chat import custom_ids
from bot.play.questions import components
from rules.killteam import KillTeamState, prompt_for
from rules.killteam.options import BATTLE_END, DONE_OPTION
from rules.session import Question
from tests.e2e.conftest import Muster
from tests.emulator import Emulator, ModalPrompt
from tests.emulator.interactions import InteractionRecord
from tests.emulator.model import Channel, Message, User

TEST_PACK = """name: Club pack
missions:
  - name: Loot
  - name: Secure
  - name: Capture
maps:
{maps}
archetypes:
{archetypes}
factions:
  - name: Alpha
    archetypes: [Security, Recon]
    tac_ops: [{{name: Alpha op 1}}, {{name: Alpha op 2}}, {{name: Alpha op 3}}]
  - name: Beta
    archetypes: [Security, Seek & Destroy]
    tac_ops: [{{name: Beta op 1}}, {{name: Beta op 2}}, {{name: Beta op 3}}]
""".format(
    maps="\n".join(f"  - id: {s}{n}" for s in "AB" for n in range(1, 10)),
    archetypes="\n".join(
        f"  - name: {a}\n    tac_ops: [{', '.join(f'{{name: {a} op {i}}}' for i in range(1, 7))}]"
        for a in ("Infiltration", "Recon", "Security", "Seek & Destroy")
    ),
)

DONE = DONE_OPTION.value
MISSION_BID_MENU = re.compile(r"qs:[0-9a-f]{12}:bid\.mission\.1")
Policy = Callable[[KillTeamState, int, Question], Any]


def component_ids(sid: str, asked: Question) -> dict[str, str]:
    """What the bot should have drawn for `asked` (bot.play.questions.components): option value or number
    -> its button's custom_id; "form" -> the button opening the number's form; "select" -> the menu
    (of options, or of a number's values)."""
    buttons, selects = components(asked)
    found: dict[str, str] = {}
    for button in buttons:
        key = "form" if asked.kind == "number" and button.form else button.value
        found[key] = custom_ids.button(sid, button.step, button.value, button.form)
    for select in selects:
        found["select"] = custom_ids.select(sid, select.step)
    return found


def mission_bid_menu(emu: Emulator, user: User) -> tuple[Message, str] | None:
    """The menu of `user`'s sealed bid for the mission (its numbers of tokens), in their DMs."""
    for message in reversed(emu.dms(user)):
        for component in message.walk_components():
            custom_id = str(component.get("custom_id", ""))
            if MISSION_BID_MENU.fullmatch(custom_id):
                return message, custom_id
    return None


async def seal_by_menu(emu: Emulator, user: User, menu: tuple[Message, str], amount: int) -> Any:
    """Pick `amount` in a sealed bid's menu; the bot's answer (one pick, no form)."""
    message, custom_id = menu
    picked = await emu.select(user, message, custom_id, [str(amount)])
    return await picked.response(timeout=3)


def shown_text(muster: Muster, user: User, *, own_dms: bool = True) -> str:
    """Content and embeds of every version of every message `user` could see (not button labels).

    Without `own_dms`, the user's DMs are left out: they hold the user's own secrets, which may share
    a card's name with the opponent's when each draws from their own deck.
    """
    parts: list[str] = []
    for message in muster.emu.all_visible_to(user):
        if not own_dms and message.channel.is_dm:
            continue
        for version in [*message.history, message.snapshot()]:
            parts.append(version.content)
            parts.append(json.dumps(version.embeds))
    return "\n".join(parts)


def mentions_number(text: str, number: int) -> bool:
    """Whether `number` appears on its own, once mentions, channel links and hex digests are removed."""
    cleaned = re.sub(r"<[@#]!?\d+>", " ", text)
    cleaned = re.sub(r"[0-9a-f]{16,}", " ", cleaned)
    cleaned = re.sub(r"\d{15,}", " ", cleaned)  # snowflakes
    return re.search(rf"(?<![\w.]){number}(?![\w.])", cleaned) is not None


async def answer_reached_discord(emu: Emulator, record: InteractionRecord) -> None:
    """Wait until the bot's answer to `record` has reached Discord, though Discord may still be
    handling it (a fault's delay): the step it answers is stored by then, as the answer follows it."""
    prefix = f"/interactions/{record.id}/"
    await emu.wait_until(
        lambda: any(r.path.startswith(prefix) for r in emu.requests), 5, "the answer to reach Discord"
    )


def board_post(table: KillTeamTable) -> Message:
    """The game's board in its thread (the one post titled "Kill Team: …"), edited as the game goes."""
    (board,) = [m for m in table.muster.emu.messages(table.channel) if "Kill Team:" in m.embed_text()]
    return board


class KillTeamTable:
    def __init__(self, muster: Muster, sid: str) -> None:
        self.muster = muster
        self.sid = sid
        self.world = muster.world
        self.closed: set[int] = set()
        self.ephemeral: dict[int, list[Message]] = {}
        self.channel: Channel = muster.world.channel  # where the game is played (its thread)
        self.acted: dict[int, int] = {}  # answers each player gave: how often they had to act

    # -------------------------------------------------------------- setting up

    @staticmethod
    async def load_pack(muster: Muster, text: str = TEST_PACK) -> str:
        emu, w = muster.emu, muster.world
        file = emu.upload("club.yaml", text.encode("utf-8"))
        record = await emu.slash(w.carol, w.channel, "killteam pack load", file=file)
        response = await record.response()
        assert response.ephemeral
        return response.content

    @classmethod
    async def open(
        cls, muster: Muster, mission_method: str, tacops_method: str, **options: Any
    ) -> KillTeamTable:
        emu, w = muster.emu, muster.world
        record = await emu.slash(
            w.alice,
            w.channel,
            "killteam start",
            opponent=w.bob,
            mission_method=mission_method,
            tacops_method=tacops_method,
            **options,
        )
        table = cls(muster, await muster.game_of_card(await record.response()))
        table.channel = await muster.table(table.sid)
        return table

    def user(self, player: int) -> User:
        return self.world.alice if player == self.world.alice.id else self.world.bob

    async def state(self) -> KillTeamState:
        _info, state = await self.muster.bot.sessions.load(self.sid)  # type: ignore[union-attr]
        assert isinstance(state, KillTeamState)
        return state

    def close_dms(self, user: User) -> None:
        self.muster.emu.close_dms(user)
        self.closed.add(user.id)

    # -------------------------------------------------------------- finding components

    def _messages(self, user: User, private: bool) -> list[Message]:
        emu = self.muster.emu
        if not private:
            return [m for m in reversed(emu.messages(self.channel)) if not m.ephemeral]
        if user.id in self.closed:
            return list(reversed(self.ephemeral.get(user.id, [])))
        return list(reversed(emu.dms(user)))

    def find(self, user: User, custom_id: str, private: bool) -> Message:
        for message in self._messages(user, private):
            ids = {c.get("custom_id") for c in message.walk_components()}
            if custom_id in ids:
                return message
        where = "private prompts" if private else "the channel"
        raise AssertionError(f"no component {custom_id!r} in {where} of {user!r}")

    async def open_secret_prompt(self, user: User) -> None:
        """The closed-DM path: press the channel's "Open my secret prompt" and keep the ephemeral answer."""
        emu = self.muster.emu
        button_id = f"p:{self.sid}:{user.id}"
        posts = [
            m
            for m in reversed(emu.messages(self.channel))
            if any(c.get("custom_id") == button_id for c in m.walk_components())
        ]
        assert posts, f"no 'Open my secret prompt' button for {user!r}"
        assert f"<@{user.id}>" in posts[0].content
        record = await emu.click(user, posts[0], custom_id=button_id)
        response = await record.response()
        assert response.ephemeral and response.message is not None
        self.ephemeral.setdefault(user.id, []).append(response.message)

    # -------------------------------------------------------------- answering

    async def asked(self, player: int) -> tuple[KillTeamState, Question | None]:
        state = await self.state()
        return state, prompt_for(state, player)

    async def answer(self, player: int, value: str | list[str] | None = None) -> Any:
        """Answer `player`'s current question with `value` (an option value, list, or amount): on
        the component the bot posted, picking a number from its menu, or typing it in its form when
        its range is too wide for a menu."""
        state, asked = await self.asked(player)
        assert asked is not None, f"{player} is not asked anything at {state.stage}"
        self.acted[player] = self.acted.get(player, 0) + 1
        user = self.user(player)
        private = asked.private or asked.sealed
        if private and user.id in self.closed:
            await self.open_secret_prompt(user)
        ids = component_ids(self.sid, asked)
        emu = self.muster.emu
        if asked.kind == "number" and "form" in ids:
            return await self._type_number(user, ids["form"], private, str(value))
        if asked.kind == "number" and "select" in ids:
            message = self.find(user, ids["select"], private)
            record = await emu.select(user, message, ids["select"], [str(value)])
        elif asked.kind == "choose" and "select" in ids:
            values = value if isinstance(value, list) else [value] if value else None
            assert values is not None, "a menu needs values"
            message = self.find(user, ids["select"], private)
            record = await emu.select(user, message, ids["select"], values)
        else:
            key = {"killteam.battle": BATTLE_END}.get(asked.topic, DONE if asked.kind == "done" else None)
            key = str(value) if value is not None and not isinstance(value, list) else key
            assert key in ids, f"no component for {key!r}: {sorted(ids)}"
            message = self.find(user, ids[key], private)
            record = await emu.click(user, message, custom_id=ids[key])
        response = await record.response()
        await self.muster.settle()
        return response

    async def forge_bid(self, player: int, value: str) -> Any:
        """Send `value` from the menu of `player`'s sealed bid though the menu does not offer it (a
        modified client): the bot's answer."""
        _state, asked = await self.asked(player)
        assert asked is not None and asked.kind == "number"
        user = self.user(player)
        if user.id in self.closed:
            await self.open_secret_prompt(user)
        menu = component_ids(self.sid, asked)["select"]
        message = self.find(user, menu, private=True)
        record = await self.muster.emu.select(user, message, menu, [value], forged=True)
        response = await record.response()
        await self.muster.settle()
        return response

    async def open_form(self, user: User, custom_id: str, private: bool) -> ModalPrompt:
        """Press the button that opens a number's form, and return the form the bot shows."""
        message = self.find(user, custom_id, private)
        record = await self.muster.emu.click(user, message, custom_id=custom_id)
        modal = (await record.response()).modal
        assert modal is not None, f"{custom_id} opened no form"
        return modal

    async def submit_form(self, user: User, modal: ModalPrompt, text: str) -> Any:
        emu = self.muster.emu
        submitted = await emu.submit_modal(user, modal, {modal.fields[0].custom_id: text})
        return await submitted.response()

    async def _type_number(self, user: User, custom_id: str, private: bool, text: str) -> Any:
        modal = await self.open_form(user, custom_id, private)
        response = await self.submit_form(user, modal, text)
        await self.muster.settle()
        return response

    async def slash(self, player: int, command: str, **options: Any) -> Any:
        record = await self.muster.emu.slash(self.user(player), self.channel, command, **options)
        response = await record.response()
        await self.muster.settle()
        return response

    async def play(
        self,
        policy: Policy | None = None,
        until: Callable[[KillTeamState], bool] | None = None,
        limit: int = 400,
    ) -> KillTeamState:
        """Answer questions (first allowed option, bids of 0, Done) until `until` or the end."""
        for _ in range(limit):
            state = await self.state()
            if state.finished or (until is not None and until(state)):
                return state
            for player in state.players:
                asked = prompt_for(state, player)
                if asked is None:
                    continue
                choice = policy(state, player, asked) if policy else None
                await self.answer(player, choice if choice is not None else default_answer(asked))
                break
            else:
                raise AssertionError(f"nobody is asked anything at {state.stage}")
        raise AssertionError("the game did not end")


def default_answer(asked: Question) -> str | list[str] | None:
    if asked.kind == "number":
        return "0"
    if asked.kind == "done" or asked.topic == "killteam.battle":
        return None
    allowed = [o for o in asked.options if not o.disabled]
    if asked.min_values == 1:
        return allowed[0].value
    archetype_ops = [o.value for o in allowed if not str(o.group or "").endswith("(faction)")]
    return archetype_ops[: asked.min_values]
