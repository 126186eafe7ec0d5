"""Discord's documented limits on what a bot sends, reported as Discord reports them.

A bot that breaks one of these limits works against a lenient fake and fails against Discord, so
the emulator rejects the request with 400 / code 50035 ("Invalid Form Body") and the nested
`errors` object discord.py turns into a readable HTTPException message.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .model import AUTO_ARCHIVE_DURATIONS, FLAG_COMPONENTS_V2, JSON, THREAD_TYPES

COMMAND_SIZE_LIMIT = 8000


@dataclass
class FormErrors:
    items: list[tuple[tuple[str, ...], str, str]] = field(default_factory=list)

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        self.items.append((tuple(str(p) for p in path), code, message))

    def __bool__(self) -> bool:
        return bool(self.items)

    def nested(self) -> JSON:
        root: JSON = {}
        for path, code, message in self.items:
            node = root
            for part in path:
                node = node.setdefault(part, {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def summary(self) -> str:
        return "; ".join(f"{'.'.join(path) or '<body>'}: {message}" for path, _code, message in self.items)


def _length(errors: FormErrors, path: tuple[str | int, ...], value: Any, low: int, high: int) -> None:
    if value is None:
        if low > 0:
            errors.add(path, "BASE_TYPE_REQUIRED", "This field is required")
        return
    if not isinstance(value, str):
        errors.add(path, "BASE_TYPE_BAD_TYPE", "Must be a string")
        return
    if not low <= len(value) <= high:
        errors.add(
            path,
            "BASE_TYPE_BAD_LENGTH",
            f"Must be between {low} and {high} in length (is {len(value)}).",
        )


# --- messages ---------------------------------------------------------------------------------


def validate_message(payload: JSON, *, file_count: int, editing: bool = False) -> FormErrors:
    errors = FormErrors()
    content = payload.get("content")
    embeds = payload.get("embeds") or []
    components = payload.get("components") or []
    flags = int(payload.get("flags") or 0)
    if content is not None:
        _length(errors, ("content",), content, 0, 2000)
    if not isinstance(embeds, list):
        errors.add(("embeds",), "BASE_TYPE_BAD_TYPE", "Must be an array")
        embeds = []
    if len(embeds) > 10:
        errors.add(("embeds",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    total = 0
    for index, embed in enumerate(embeds):
        total += _validate_embed(errors, ("embeds", index), embed)
    if total > 6000:
        errors.add(("embeds",), "MAX_EMBED_SIZE_EXCEEDED", "Embed size exceeds maximum size of 6000")
    if file_count > 10:
        errors.add(("files",), "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")
    if flags & FLAG_COMPONENTS_V2:
        if content:
            errors.add(
                ("content",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        if embeds:
            errors.add(
                ("embeds",),
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )
        _validate_v2_components(errors, components)
    else:
        _validate_action_rows(errors, ("components",), components, modal=False)
    if not editing and not (
        content
        or embeds
        or file_count
        or components
        or payload.get("sticker_ids")
        or payload.get("poll")
        or payload.get("attachments")
    ):
        errors.add((), "EMPTY_MESSAGE", "Cannot send an empty message")
    return errors


def _validate_embed(errors: FormErrors, path: tuple[str | int, ...], embed: Any) -> int:
    if not isinstance(embed, dict):
        errors.add(path, "BASE_TYPE_BAD_TYPE", "Must be an object")
        return 0
    size = 0
    for key, limit in (("title", 256), ("description", 4096)):
        if embed.get(key) is not None:
            _length(errors, (*path, key), embed[key], 0, limit)
            size += len(str(embed[key]))
    for sub, key, limit in (("author", "name", 256), ("footer", "text", 2048)):
        inner = embed.get(sub)
        if isinstance(inner, dict) and inner.get(key) is not None:
            _length(errors, (*path, sub, key), inner[key], 1, limit)
            size += len(str(inner[key]))
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add((*path, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, item in enumerate(fields):
        _length(errors, (*path, "fields", index, "name"), item.get("name"), 1, 256)
        _length(errors, (*path, "fields", index, "value"), item.get("value"), 1, 1024)
        size += len(str(item.get("name") or "")) + len(str(item.get("value") or ""))
    return size


def _validate_action_rows(errors: FormErrors, path: tuple[str | int, ...], rows: Any, *, modal: bool) -> None:
    if not isinstance(rows, list):
        errors.add(path, "BASE_TYPE_BAD_TYPE", "Must be an array")
        return
    limit = 5
    if len(rows) > limit:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")
    custom_ids: set[str] = set()
    for row_index, row in enumerate(rows):
        row_path = (*path, row_index)
        if modal and row.get("type") == 18:
            _validate_interactive(
                errors, (*row_path, "component"), row.get("component") or {}, custom_ids, modal=True
            )
            _length(errors, (*row_path, "label"), row.get("label"), 1, 45)
            continue
        if modal and row.get("type") == 10:
            continue
        if row.get("type") != 1:
            errors.add(
                (*row_path, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
            )
            continue
        children = row.get("components") or []
        if not children:
            errors.add((*row_path, "components"), "BASE_TYPE_MIN_LENGTH", "Must be 1 or more in length.")
        kinds = {child.get("type") for child in children}
        has_select = bool(kinds & {3, 5, 6, 7, 8, 4})
        if has_select and len(children) > 1:
            errors.add(
                (*row_path, "components"),
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
                "The specified component exceeds the maximum width",
            )
        if len(children) > 5:
            errors.add((*row_path, "components"), "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
        for index, child in enumerate(children):
            _validate_interactive(errors, (*row_path, "components", index), child, custom_ids, modal=modal)


def _validate_interactive(
    errors: FormErrors, path: tuple[str | int, ...], component: JSON, custom_ids: set[str], *, modal: bool
) -> None:
    kind = component.get("type")
    custom_id = component.get("custom_id")
    if kind == 2:
        if component.get("style") == 5:
            if not component.get("url"):
                errors.add((*path, "url"), "BASE_TYPE_REQUIRED", "This field is required")
            if custom_id:
                errors.add(
                    (*path, "custom_id"),
                    "COMPONENT_CUSTOM_ID_NOT_ALLOWED",
                    "A link button cannot have a custom_id",
                )
            custom_id = None
        elif component.get("style") == 6:
            custom_id = None
        elif not custom_id:
            errors.add((*path, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        if not component.get("label") and not component.get("emoji"):
            errors.add(
                (*path, "label"),
                "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED",
                "A label or an emoji is required",
            )
        if component.get("label") is not None:
            _length(errors, (*path, "label"), component.get("label"), 0, 80)
    elif kind in (3, 5, 6, 7, 8):
        if component.get("placeholder") is not None:
            _length(errors, (*path, "placeholder"), component["placeholder"], 0, 150)
        if kind == 3:
            options = component.get("options") or []
            if not 1 <= len(options) <= 25:
                errors.add((*path, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length.")
            values: set[str] = set()
            for index, option in enumerate(options):
                _length(errors, (*path, "options", index, "label"), option.get("label"), 1, 100)
                _length(errors, (*path, "options", index, "value"), option.get("value"), 1, 100)
                if option.get("description") is not None:
                    _length(errors, (*path, "options", index, "description"), option["description"], 0, 100)
                if option.get("value") in values:
                    errors.add(
                        (*path, "options", index, "value"),
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                        "Select option values must be unique",
                    )
                values.add(option.get("value"))
        max_values = component.get("max_values", 1)
        min_values = component.get("min_values", 1)
        if not 0 <= int(min_values) <= 25 or not 1 <= int(max_values) <= 25:
            errors.add((*path, "max_values"), "BASE_TYPE_BAD_INT", "min_values/max_values out of range")
    elif kind == 4:
        if not modal:
            errors.add((*path, "type"), "COMPONENT_TYPE_INVALID", "Text inputs are only allowed in modals")
        if component.get("label") is not None:
            _length(errors, (*path, "label"), component["label"], 1, 45)
        if component.get("placeholder") is not None:
            _length(errors, (*path, "placeholder"), component["placeholder"], 0, 100)
        if component.get("value") is not None:
            _length(errors, (*path, "value"), component["value"], 0, 4000)
    if custom_id is not None:
        _length(errors, (*path, "custom_id"), custom_id, 1, 100)
        if custom_id in custom_ids:
            errors.add(
                (*path, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        custom_ids.add(custom_id)


def _validate_v2_components(errors: FormErrors, components: Any) -> None:
    if not isinstance(components, list):
        errors.add(("components",), "BASE_TYPE_BAD_TYPE", "Must be an array")
        return
    from .model import walk_components

    every = list(walk_components(components))
    if len(every) > 40:
        errors.add(
            ("components",),
            "COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED",
            "The message has more than 40 components",
        )
    text = sum(len(c.get("content") or "") for c in every if c.get("type") == 10)
    if text > 4000:
        errors.add(
            ("components",), "MAX_TEXT_DISPLAY_LENGTH_EXCEEDED", "Text displays exceed 4000 characters"
        )
    custom_ids: set[str] = set()
    for index, component in enumerate(every):
        if component.get("type") in (2, 3, 5, 6, 7, 8):
            _validate_interactive(errors, ("components", index), component, custom_ids, modal=False)


# --- threads ----------------------------------------------------------------------------------

SLOWMODE_MAX = 21600


def validate_thread(payload: JSON, *, creating: bool, with_type: bool = False) -> FormErrors:
    """A thread's fields on creation or edit: name 1-100, auto_archive_duration one of Discord's
    four, slowmode 0-21600 s, booleans that are booleans, and (without a message) the type."""
    errors = FormErrors()
    if creating or "name" in payload:
        _length(errors, ("name",), payload.get("name"), 1, 100)
    duration = payload.get("auto_archive_duration")
    if duration is not None and (isinstance(duration, bool) or duration not in AUTO_ARCHIVE_DURATIONS):
        choices = ", ".join(str(d) for d in AUTO_ARCHIVE_DURATIONS)
        errors.add(("auto_archive_duration",), "BASE_TYPE_CHOICES", f"Value must be one of ({choices}).")
    slowmode = payload.get("rate_limit_per_user")
    if slowmode is not None:
        if not isinstance(slowmode, int) or isinstance(slowmode, bool):
            errors.add(("rate_limit_per_user",), "NUMBER_TYPE_COERCE", f'Value "{slowmode}" is not int.')
        elif slowmode < 0:
            errors.add(
                ("rate_limit_per_user",), "NUMBER_TYPE_MIN", "int value should be greater than or equal to 0."
            )
        elif slowmode > SLOWMODE_MAX:
            errors.add(
                ("rate_limit_per_user",),
                "NUMBER_TYPE_MAX",
                f"int value should be less than or equal to {SLOWMODE_MAX}.",
            )
    for key in ("archived", "locked", "invitable"):
        if payload.get(key) is not None and not isinstance(payload[key], bool):
            errors.add((key,), "BOOLEAN_TYPE_COERCE", f'Value "{payload[key]}" is not bool.')
    kind = payload.get("type")
    if with_type and kind is not None and (isinstance(kind, bool) or kind not in THREAD_TYPES):
        choices = ", ".join(str(t) for t in THREAD_TYPES)
        errors.add(("type",), "BASE_TYPE_CHOICES", f"Value must be one of ({choices}).")
    return errors


def validate_channel_edit(payload: JSON) -> FormErrors:
    errors = FormErrors()
    if payload.get("name") is not None:
        _length(errors, ("name",), payload["name"], 1, 100)
    if payload.get("topic") is not None:
        _length(errors, ("topic",), payload["topic"], 0, 1024)
    return errors


# --- interaction responses ----------------------------------------------------------------------


def validate_modal(data: JSON) -> FormErrors:
    errors = FormErrors()
    _length(errors, ("data", "custom_id"), data.get("custom_id"), 1, 100)
    _length(errors, ("data", "title"), data.get("title"), 1, 45)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        errors.add(("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.")
    _validate_action_rows(errors, ("data", "components"), components, modal=True)
    return errors


def validate_choices(data: JSON) -> FormErrors:
    errors = FormErrors()
    choices = data.get("choices") or []
    if len(choices) > 25:
        errors.add(("data", "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for index, choice in enumerate(choices):
        _length(errors, ("data", "choices", index, "name"), choice.get("name"), 1, 100)
        if isinstance(choice.get("value"), str):
            _length(errors, ("data", "choices", index, "value"), choice["value"], 1, 100)
    return errors


# --- application commands -------------------------------------------------------------------------


LOCALES = frozenset(
    "id da de en-GB en-US es-ES es-419 fr hr it lt hu nl no pl pt-BR ro fi sv-SE vi tr cs el bg ru uk hi "
    "th zh-CN ja zh-TW ko".split()
)
"""The locales Discord accepts as keys of `*_localizations`."""


def _localized(
    errors: FormErrors, path: tuple[str | int, ...], field: str, owner: Any
) -> Iterator[tuple[tuple[str | int, ...], Any]]:
    """A `<field>_localizations` map's (path, value) pairs in known locales; a map that is not one,
    or an unknown locale, is reported here."""
    found = owner.get(f"{field}_localizations")
    if found is None:
        return
    if not isinstance(found, dict):
        errors.add((*path, f"{field}_localizations"), "BASE_TYPE_BAD_TYPE", "Must be an object")
        return
    for locale, value in found.items():
        where = (*path, f"{field}_localizations", locale)
        if locale not in LOCALES:
            errors.add(where, "BASE_TYPE_CHOICES", f"Value must be one of {sorted(LOCALES)}.")
        else:
            yield where, value


def _localizations(
    errors: FormErrors, path: tuple[str | int, ...], field: str, owner: Any, low: int, high: int
) -> None:
    """A `<field>_localizations` map: known locales only, each value within the field's own limits."""
    for where, value in _localized(errors, path, field, owner):
        _length(errors, where, value, low, high)


def _longest(owner: Any, field: str) -> int:
    """A field's length for the command size: its longest localization when that is longer."""
    lengths = [len(str(owner.get(field) or ""))]
    lengths += [len(str(v)) for v in (owner.get(f"{field}_localizations") or {}).values()]
    return max(lengths)


NAME_MARKS = frozenset("-_'")
"""Besides letters and numbers, what a chat-input name may hold."""
NAME_SCRIPTS = ((0x0900, 0x097F), (0x0E00, 0x0E7F))
"""Devanagari and Thai: their vowel signs are marks, not letters, and Discord allows them in names."""


def _name_character(ch: str) -> bool:
    """One character of `^[-_'\\p{L}\\p{N}\\p{sc=Deva}\\p{sc=Thai}]{1,32}$`, Discord's name rule."""
    if ch in NAME_MARKS or unicodedata.category(ch)[0] in "LN":
        return True
    return any(low <= ord(ch) <= high for low, high in NAME_SCRIPTS)


def _valid_command_name(name: Any, *, chat_input: bool) -> bool:
    """A name (or a name localisation): 1-32 characters; a chat-input one only of the characters
    above, and lowercase wherever a letter has a lowercase form. User and message commands may
    hold spaces and capitals."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return False
    if not chat_input:
        return True
    return all(_name_character(ch) and ch.lower() == ch for ch in name)


def _name_localizations(
    errors: FormErrors, path: tuple[str | int, ...], owner: Any, *, chat_input: bool
) -> None:
    """`name_localizations`: each value a valid name by the name's own rule. One capital in one
    locale makes Discord refuse the whole request."""
    for where, value in _localized(errors, path, "name", owner):
        if not _valid_command_name(value, chat_input=chat_input):
            errors.add(where, "APPLICATION_COMMAND_INVALID_NAME", f"Command name is invalid: {value!r}")


def validate_commands(commands: Any) -> FormErrors:
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "BASE_TYPE_BAD_TYPE", "Must be an array")
        return errors
    seen: set[tuple[str, int]] = set()
    counts: dict[int, int] = {}
    for index, command in enumerate(commands):
        validate_command(errors, (index,), command)
        key = (str(command.get("name")), int(command.get("type", 1)))
        if key in seen:
            errors.add(
                (index, "name"),
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
                f"Application command names must be unique: {key[0]}",
            )
        seen.add(key)
        counts[key[1]] = counts.get(key[1], 0) + 1
    if counts.get(1, 0) > 100:
        errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer chat input commands.")
    for kind in (2, 3):
        if counts.get(kind, 0) > 15:
            errors.add((), "BASE_TYPE_MAX_LENGTH", "Must be 15 or fewer context menu commands of one type.")
    return errors


def validate_command(errors: FormErrors, path: tuple[str | int, ...], command: Any) -> None:
    if not isinstance(command, dict):
        errors.add(path, "BASE_TYPE_BAD_TYPE", "Must be an object")
        return
    kind = int(command.get("type", 1))
    chat_input = kind == 1
    if not _valid_command_name(command.get("name"), chat_input=chat_input):
        errors.add(
            (*path, "name"),
            "APPLICATION_COMMAND_INVALID_NAME",
            f"Command name is invalid: {command.get('name')!r}",
        )
    _name_localizations(errors, path, command, chat_input=chat_input)
    if chat_input:
        _length(errors, (*path, "description"), command.get("description"), 1, 100)
        _localizations(errors, path, "description", command, 1, 100)
        _validate_options(errors, path, command.get("options") or [], depth=0)
    elif command.get("description"):
        errors.add(
            (*path, "description"),
            "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
            "Context menu commands cannot have a description",
        )
    if _command_size(command) > COMMAND_SIZE_LIMIT:
        errors.add(path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds maximum size (8000)")


def _validate_options(errors: FormErrors, path: tuple[str | int, ...], options: Any, *, depth: int) -> None:
    if not isinstance(options, list):
        errors.add((*path, "options"), "BASE_TYPE_BAD_TYPE", "Must be an array")
        return
    if len(options) > 25:
        errors.add((*path, "options"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    names: set[str] = set()
    optional_seen = False
    kinds = [int(option.get("type", 0)) for option in options]
    if any(k in (1, 2) for k in kinds) and any(k not in (1, 2) for k in kinds):
        errors.add(
            (*path, "options"),
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive to all other types",
        )
    for index, option in enumerate(options):
        opath = (*path, "options", index)
        kind = int(option.get("type", 0))
        name = option.get("name")
        if not _valid_command_name(name, chat_input=True):
            errors.add(
                (*opath, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Option name is invalid: {name!r}"
            )
        if name in names:
            errors.add(
                (*opath, "name"),
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
                f"Option names must be unique: {name}",
            )
        names.add(str(name))
        _length(errors, (*opath, "description"), option.get("description"), 1, 100)
        _name_localizations(errors, opath, option, chat_input=True)
        _localizations(errors, opath, "description", option, 1, 100)
        if kind == 2:
            if depth > 0:
                errors.add(
                    (*opath, "type"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups cannot be nested",
                )
            sub = option.get("options") or []
            if any(int(s.get("type", 0)) != 1 for s in sub):
                errors.add(
                    (*opath, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-command groups may only contain sub-commands",
                )
            _validate_options(errors, opath, sub, depth=depth + 1)
        elif kind == 1:
            sub = option.get("options") or []
            if any(int(s.get("type", 0)) in (1, 2) for s in sub):
                errors.add(
                    (*opath, "options"),
                    "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
                    "Sub-commands cannot contain sub-commands",
                )
            _validate_options(errors, opath, sub, depth=depth + 1)
        elif not 3 <= kind <= 11:
            errors.add((*opath, "type"), "BASE_TYPE_CHOICES", f"Unknown option type {kind}")
        else:
            required = bool(option.get("required", False))
            if required and optional_seen:
                errors.add(
                    (*opath, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
            optional_seen = optional_seen or not required
            choices = option.get("choices") or []
            if len(choices) > 25:
                errors.add((*opath, "choices"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
            if choices and option.get("autocomplete"):
                errors.add(
                    (*opath, "autocomplete"),
                    "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
                    "Autocomplete cannot be set with choices",
                )
            for cindex, choice in enumerate(choices):
                _length(errors, (*opath, "choices", cindex, "name"), choice.get("name"), 1, 100)
                _localizations(errors, (*opath, "choices", cindex), "name", choice, 1, 100)
                if kind == 3:
                    _length(errors, (*opath, "choices", cindex, "value"), choice.get("value"), 1, 100)
            low, high = option.get("min_value"), option.get("max_value")
            if low is not None and high is not None and low > high:
                errors.add(
                    (*opath, "min_value"),
                    "APPLICATION_COMMAND_OPTION_RANGE_INVALID",
                    "min_value must not exceed max_value",
                )
            low_len, high_len = option.get("min_length"), option.get("max_length")
            if low_len is not None and not 0 <= low_len <= 6000:
                errors.add((*opath, "min_length"), "BASE_TYPE_BAD_INT", "min_length out of range")
            if high_len is not None and not 1 <= high_len <= 6000:
                errors.add((*opath, "max_length"), "BASE_TYPE_BAD_INT", "max_length out of range")


def _command_size(command: JSON) -> int:
    """Names, descriptions and choice values, as Discord counts them (a localized field counts at
    its longest)."""
    size = _longest(command, "name") + _longest(command, "description")
    for option in command.get("options") or []:
        size += _command_size(option)
        for choice in option.get("choices") or []:
            size += _longest(choice, "name") + len(str(choice.get("value") or ""))
    return size
