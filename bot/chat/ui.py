"""The persistent components: each recognises its custom_id (bot/chat/custom_ids.py) after any restart
and hands the click to bot/chat/router.py.

Messages are sent with plain components in a stopped view (bot/chat/render.py), so discord.py keeps no
copy of them; every click, before or after a restart, arrives here through `add_dynamic_items`.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.chat import custom_ids, router


class QuestionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.BUTTON):
    """A button answering a game's question (`q:`), or opening its form first (`qf:`)."""

    def __init__(
        self, item: discord.ui.Button[Any], sid: str, step: str, value: str, opens_form: bool
    ) -> None:
        super().__init__(item)
        self.sid, self.step, self.value, self.opens_form = sid, step, value, opens_form

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> QuestionButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["sid"], match["step"], match["value"], bool(match["form"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await router.on_question(interaction, self.sid, self.step, [self.value], self.opens_form)


class QuestionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.SELECT):
    """A select menu answering a game's question with the picked values."""

    def __init__(self, item: discord.ui.Select[Any], sid: str, step: str) -> None:
        super().__init__(item)
        self.sid, self.step = sid, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> QuestionSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, match["sid"], match["step"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await router.on_question(interaction, self.sid, self.step, list(self.item.values), opens_form=None)


class QuestionPicker(discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_ids.PICK):
    """A menu of a player's questions: the one picked is shown to them, ready to answer."""

    def __init__(self, item: discord.ui.Select[Any], sid: str) -> None:
        super().__init__(item)
        self.sid = sid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> QuestionPicker:
        assert isinstance(item, discord.ui.Select)
        return cls(item, match["sid"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await router.on_pick(interaction, self.sid, list(self.item.values))


class OldSessionComponent(
    discord.ui.DynamicItem[discord.ui.Item[Any]],
    template=re.compile(r"(?:sm?|ss):(?P<sid>[0-9a-f]{12}):[A-Za-z0-9_\-]{1,40}(?::[^:]{0,40})?"),
):
    """A button or select posted before every question carried its step id: answered with what the
    game asks the player now (bot/chat/router.py), so a game begun before an update goes on."""

    def __init__(self, item: discord.ui.Item[Any], sid: str) -> None:
        super().__init__(item)
        self.sid = sid

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> OldSessionComponent:
        return cls(item, match["sid"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await router.on_old_component(interaction, self.sid)


class PromptButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_ids.PROMPT):
    """ "Open my secret prompt": shows a player whose DMs are closed what the DM would have said."""

    def __init__(self, item: discord.ui.Button[Any], sid: str, user_id: int) -> None:
        super().__init__(item)
        self.sid, self.user_id = sid, user_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromptButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["sid"], int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await router.on_prompt_button(interaction, self.sid, self.user_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    QuestionButton,
    QuestionSelect,
    QuestionPicker,
    OldSessionComponent,
    PromptButton,
)
