"""Components that outlive a restart: their custom_id carries the session id and the action.

custom_id formats (at most 100 characters):
- `s:<session>:<action>:<arg>`   a button; the game's adapter turns it into a rules action
- `sm:<session>:<action>:<arg>`  a button that first opens the game's modal for that action
- `ss:<session>:<action>`        a select; the chosen values go to the adapter
- `p:<session>:<user>`           "Open my secret prompt", the stand-in for a refused DM
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.messages import Button, Select

SID = r"(?P<sid>[0-9a-f]{12})"
ACTION = r"(?P<action>[A-Za-z0-9_\-]{1,40})"


class SessionButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=re.compile(rf"(?P<kind>sm?):{SID}:{ACTION}:(?P<arg>[^:]{{0,40}})"),
):
    def __init__(
        self, item: discord.ui.Button[Any], sid: str, action: str, arg: str, opens_modal: bool
    ) -> None:
        super().__init__(item)
        self.sid, self.action, self.arg, self.opens_modal = sid, action, arg, opens_modal

    @classmethod
    def make(
        cls, sid: str, button: Button, style: discord.ButtonStyle, row: int | None = None
    ) -> SessionButton:
        prefix = "sm" if button.modal else "s"
        item: discord.ui.Button[Any] = discord.ui.Button(
            label=button.label[:80],
            style=style,
            disabled=button.disabled,
            custom_id=f"{prefix}:{sid}:{button.action}:{button.arg}",
            row=row,
        )
        return cls(item, sid, button.action, button.arg, button.modal)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SessionButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["sid"], match["action"], match["arg"], match["kind"] == "sm")

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.router import on_session_component

        await on_session_component(interaction, self.sid, self.action, self.arg, [], self.opens_modal)


class SessionSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]], template=re.compile(rf"ss:{SID}:{ACTION}")
):
    def __init__(self, item: discord.ui.Select[Any], sid: str, action: str) -> None:
        super().__init__(item)
        self.sid, self.action = sid, action

    @classmethod
    def make(cls, sid: str, select: Select, row: int | None = None) -> SessionSelect:
        item: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"ss:{sid}:{select.action}",
            placeholder=select.placeholder,
            min_values=select.min_values,
            max_values=min(select.max_values, len(select.options[:25])),
            options=[
                discord.SelectOption(
                    label=o.label[:100],
                    value=o.value[:100],
                    description=(o.description or None) and o.description[:100],
                )
                for o in select.options[:25]
            ],
            row=row,
        )
        return cls(item, sid, select.action)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SessionSelect:
        assert isinstance(item, discord.ui.Select)
        return cls(item, match["sid"], match["action"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.router import on_session_component

        await on_session_component(interaction, self.sid, self.action, "", list(self.item.values), False)


class PromptButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=re.compile(rf"p:{SID}:(?P<user>\d{{1,20}})")
):
    def __init__(self, item: discord.ui.Button[Any], sid: str, user_id: int) -> None:
        super().__init__(item)
        self.sid, self.user_id = sid, user_id

    @classmethod
    def make(cls, sid: str, user_id: int) -> PromptButton:
        item: discord.ui.Button[Any] = discord.ui.Button(
            label="Open my secret prompt", style=discord.ButtonStyle.primary, custom_id=f"p:{sid}:{user_id}"
        )
        return cls(item, sid, user_id)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PromptButton:
        assert isinstance(item, discord.ui.Button)
        return cls(item, match["sid"], int(match["user"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        from bot.router import on_prompt_button

        await on_prompt_button(interaction, self.sid, self.user_id)


MODAL_ID = re.compile(rf"m:{SID}:{ACTION}:(?P<arg>[^:]{{0,40}})")


class SessionModal(discord.ui.Modal):
    """A modal built from the game's description.

    It is sent already stopped, so discord.py keeps no copy: every submit, before or after a
    restart, is routed by its custom_id (`m:<session>:<action>:<arg>`) in `bot.router`.
    """

    def __init__(
        self, sid: str, action: str, arg: str, title: str, fields: list[discord.ui.TextInput[Any]]
    ) -> None:
        super().__init__(title=title[:45], timeout=None, custom_id=f"m:{sid}:{action}:{arg}"[:100])
        for text_input in fields:
            self.add_item(text_input)
        self.stop()


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (SessionButton, SessionSelect, PromptButton)
