"""A game's components: each click is routed by its custom_id (bot/chat/custom_ids.py) to
bot/chat/router.py, before or after any restart.

Messages are sent with plain components in a stopped view (bot/chat/render.py), so discord.py keeps
no copy of them. discord.py's own way to route such a click, a `DynamicItem`, first rebuilds the
whole view of the clicked message and an item for the click, in a task of its own: about a tenth of
a millisecond before the handler starts, which is a tenth of a sealed bid's own work. A game's clicks
are the bot's hot path, so `RoutedViews` takes them from the custom_id alone, ahead of discord.py's
view store; every other component (a feature's own `DynamicItem`, such as a result's Confirm) goes
through the store as before.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import discord
from discord.ui.view import ViewStore

from bot.chat import custom_ids, router
from bot.lang.languages import LocalisedState

BUTTON, SELECT = discord.ComponentType.button.value, discord.ComponentType.string_select.value
INTERACTION_COMPONENT = discord.InteractionType.component.value

OLD_COMPONENT = re.compile(r"(?:sm?|ss):(?P<sid>[0-9a-f]{12}):[A-Za-z0-9_\-]{1,40}(?::[^:]{0,40})?")
"""A button or select posted before every question carried its step id."""

Handler = Callable[..., Coroutine[Any, Any, None]]


@dataclass(frozen=True)
class Click:
    """A click routed: its handler in bot/chat/router.py, and what the custom_id and the picked
    values say (the interaction comes first)."""

    handler: Handler
    arguments: tuple[Any, ...]

    def run(self, interaction: discord.Interaction[Any]) -> Coroutine[Any, Any, None]:
        return self.handler(interaction, *self.arguments)


def route(component_type: int, custom_id: str, values: list[str]) -> Click | None:
    """Where a click on a game's component goes (None: not a game's; `values`: a select's picks).

    - `q:`/`qf:` a button answering a question with its value (`qf:`: opening its form first);
    - `qs:` a select answering a question with the picked values;
    - `qp:` a menu of questions: the one picked is shown, ready to answer;
    - `p:` "Open my secret prompt", the stand-in for a DM the player's settings refused;
    - `s:`, `sm:`, `ss:` an old component: the player gets what the game asks them now."""
    if component_type == BUTTON and (match := custom_ids.BUTTON.fullmatch(custom_id)):
        arguments = (match["sid"], match["step"], [match["value"]], bool(match["form"]))
        return Click(router.on_question, arguments)
    if component_type == SELECT and (match := custom_ids.SELECT.fullmatch(custom_id)):
        return Click(router.on_question, (match["sid"], match["step"], values, None))
    if component_type == SELECT and (match := custom_ids.PICK.fullmatch(custom_id)):
        return Click(router.on_pick, (match["sid"], values))
    if component_type == BUTTON and (match := custom_ids.PROMPT.fullmatch(custom_id)):
        return Click(router.on_prompt_button, (match["sid"], int(match["user"])))
    if match := OLD_COMPONENT.fullmatch(custom_id):
        return Click(router.on_old_component, (match["sid"],))
    return None


class RoutedViews(ViewStore):
    """discord.py's view store, with a game's clicks routed straight to their handlers (`route`)."""

    def dispatch_view(
        self, component_type: int, custom_id: str, interaction: discord.Interaction[Any]
    ) -> None:
        data: dict[str, Any] = interaction.data or {}  # type: ignore[assignment]
        click = route(component_type, custom_id, [str(v) for v in data.get("values", [])])
        if click is None or interaction.message is None:
            super().dispatch_view(component_type, custom_id, interaction)
            return
        self.add_task(asyncio.create_task(click.run(interaction), name=f"muster-click-{custom_id}"))


UNREAD = frozenset({"embeds", "components", "attachments", "sticker_items", "message_snapshots"})
"""What a routed click's handlers never read of the clicked message (they read its id and flags:
the game's state, not the message, says what it shows), so discord.py does not parse it: a DM
prompt's embed and its menu of options were half of the interaction's parse."""


class MusterState(LocalisedState):
    """The connection state: interactions parsed in their player's language (`LocalisedState`), and
    a game's clicks routed by `RoutedViews`, their clicked message parsed without what no handler
    reads (`UNREAD`)."""

    def parse_interaction_create(self, data: Any) -> None:
        super().parse_interaction_create(as_parsed(data))

    def clear(self, *, views: bool = True) -> None:
        super().clear(views=views)
        if views:
            self._view_store = RoutedViews(self)


def as_parsed(data: dict[str, Any]) -> dict[str, Any]:
    """An INTERACTION_CREATE's payload as discord.py is given it: a routed click's message without
    what no handler reads (a copy; any other interaction as it came)."""
    inner, message = data.get("data") or {}, data.get("message")
    if data.get("type") != INTERACTION_COMPONENT or message is None:
        return data
    if route(int(inner.get("component_type", 0)), str(inner.get("custom_id", "")), []) is None:
        return data
    return {**data, "message": {k: v for k, v in message.items() if k not in UNREAD}}
