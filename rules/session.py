"""The contract every game procedure follows.

A procedure is an explicit state machine: `step(state, action, roller) -> (state, events)`.
States, actions and events are pydantic models, so the store saves a state as JSON and a restart
resumes it exactly. `step` never mutates its input: it returns a new state (use `model_copy`).
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from rules.dice import Roller
from rules.errors import RuleError
from rules.words import Words


class Model(BaseModel):
    """Base for every rules model: strict about unknown fields so a corrupt save fails loudly."""

    model_config = ConfigDict(extra="forbid")


class Action(Model):
    """Something a player (or the bot on a player's behalf) does. `actor` is a Discord user id."""

    actor: int


class Event(Model):
    """Something that happened. `private_to` set means only that player may ever see it.

    Every kind of event is known by its module and class name (`event_name`), so a step's events
    stored with it (to be shown later) load back as the events they were: `Procedure.load_events`."""

    private_to: int | None = None

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        EVENT_TYPES[event_name(cls)] = cls


EVENT_TYPES: dict[str, type[Event]] = {}
"""Every kind of event defined so far, by `event_name`."""


def event_name(kind: type[Event]) -> str:
    return f"{kind.__module__}:{kind.__qualname__}"


class SideResult(Model):
    player: int
    score: int
    faction: str | None = None


class GameOutcome(Model):
    """How a finished game ended, in the one shape the score store takes from every game."""

    sides: list[SideResult]
    winner: int | None  # a player id, or None for a draw
    mission: str | None = None
    summary: str = ""


class GameState(Model):
    """Fields every game session's state carries.

    A finished game has an `outcome`, its result; one that finished without an outcome was ended
    before it was played (during set-up, before its battle began): it is no result to record or
    rate, and its session counts as cancelled."""

    session_id: str
    players: list[int] = Field(min_length=2, max_length=2)
    finished: bool = False
    outcome: GameOutcome | None = None

    def opponent(self, player: int) -> int:
        return self.players[1] if player == self.players[0] else self.players[0]

    def require_player(self, actor: int) -> None:
        if actor not in self.players:
            raise RuleError(code="game.not_player")

    def require_open(self) -> None:
        if self.finished:
            raise RuleError(code="game.finished")

    @property
    def abandoned(self) -> bool:
        """Ended before it was played: no result."""
        return self.finished and self.outcome is None


S = TypeVar("S", bound=GameState)

StepFunction = Callable[[S, Any, Roller], tuple[S, list[Event]]]
AskFunction = Callable[[S, int], list["Question"]]
ToAction = Callable[[S, "Question", "Answer"], Action]


ASKED_REMEMBERED = 64
DUMPS_REMEMBERED = 256

V = TypeVar("V")


class ByIdentity(Generic[V]):
    """A bounded memo of what an object never mutated gives (a state's questions, a pack's JSON),
    by the object's identity: each entry holds its object, so an id is never reused while it is
    remembered. The oldest entry goes first."""

    def __init__(self, bound: int) -> None:
        self._bound = bound
        self._entries: OrderedDict[tuple[int, Hashable], tuple[object, V]] = OrderedDict()

    def get(self, held: object, make: Callable[[], V], key: Hashable = None) -> V:
        """What `make` gives for `held` (and `key`), made only the first time."""
        known = self._entries.get((id(held), key))
        if known is None or known[0] is not held:
            known = self._entries[(id(held), key)] = (held, make())
            while len(self._entries) > self._bound:
                self._entries.popitem(last=False)
        return known[1]


class Procedure(Generic[S]):
    """Binds a game system's name, state model and step function, so the bot can run any game."""

    def __init__(
        self,
        system: str,
        state_type: type[S],
        step: Callable[[S, Any, Roller], tuple[S, list[Event]]],
        awaiting: Callable[[S], list[int]] | None = None,
        ask: AskFunction[S] | None = None,
        to_action: ToAction[S] | None = None,
        why_idle: Callable[[S, int], str] | None = None,
        fixed: str | None = None,
    ) -> None:
        """`ask(state, player)` lists the questions `player` can answer now; `to_action(state,
        question, answer)` turns a checked answer into the game's own action; `why_idle(state, player)`
        is the game's own refusal code for a player it asks nothing now (else `answer.not_asked`);
        `fixed` names a field of the state that a game never changes once begun (its rules pack)."""
        self.system = system
        self.state_type = state_type
        self._step = step
        self._awaiting = awaiting
        self._ask = ask
        self._to_action = to_action
        self._why_idle = why_idle
        # The last few states asked about: one step asks the same state the same thing several
        # times (the answer's check, the board, each DM, the waiting list).
        self._asked: ByIdentity[list[Question]] = ByIdentity(ASKED_REMEMBERED)
        self._fixed = fixed
        self._fixed_dumps: ByIdentity[str] = ByIdentity(DUMPS_REMEMBERED)
        # Made once, not per dump: each `json.dumps` call builds an encoder, a step's click waits on it.
        self._fixed_key = json.dumps(fixed)
        self._kind_names: dict[type[Event], str] = {}

    def load(self, data: str | bytes) -> S:
        return self.state_type.model_validate_json(data)

    def dump(self, state: S) -> str:
        """The state as JSON. Every step is stored whole, so the `fixed` field, which steps share
        unchanged (a Kill Team pack: 3.8 of a state's 4.5 KB), is dumped once per object."""
        if self._fixed is None:
            return state.model_dump_json()
        value = getattr(state, self._fixed)
        fixed = self._fixed_dumps.get(value, value.model_dump_json)
        rest = state.model_dump_json(exclude={self._fixed})
        return f"{{{self._fixed_key}:{fixed},{rest[1:]}"  # a state has more than it

    def dump_events(self, events: list[Event]) -> str:
        """A step's events as JSON, each with the name of its kind (what `load_events` reads)."""
        dumped = (f"[{self._kind_name(type(e))},{e.model_dump_json()}]" for e in events)
        return "[" + ",".join(dumped) + "]"

    def _kind_name(self, kind: type[Event]) -> str:
        """An event kind's name as JSON, made once per kind."""
        name = self._kind_names.get(kind)
        if name is None:
            name = self._kind_names[kind] = json.dumps(event_name(kind))
        return name

    def load_events(self, data: str) -> list[Event]:
        """Events stored by `dump_events`, as they were (a kind this process doesn't know: KeyError)."""
        return [EVENT_TYPES[name].model_validate(values) for name, values in json.loads(data)]

    def step(self, state: S, action: Any, roller: Roller) -> tuple[S, list[Event]]:
        """Apply an action; refuse any action on a finished game or from a stranger."""
        state.require_open()
        if isinstance(action, Action):
            state.require_player(action.actor)
        return self._step(state, action, roller)

    def ask(self, state: S, player: int) -> list[Question]:
        """What `player` is asked now (none on a finished game or for a stranger)."""
        ask = self._ask
        if ask is None or state.finished or player not in state.players:
            return []
        return list(self._asked.get(state, lambda: ask(state, player), player))

    def action_for(self, state: S, answer: Answer) -> Action:
        """The game's own action for an answer, once it is checked against what is asked now."""
        state.require_open()
        state.require_player(answer.actor)
        if self._to_action is None:
            raise RuleError(code="answer.not_asked")
        asked = self.ask(state, answer.actor)
        if not asked and self._why_idle is not None:
            raise RuleError(code=self._why_idle(state, answer.actor))
        question = check_answer(asked, answer)
        return self._to_action(state, question, answer)

    def answer(self, state: S, answer: Answer, roller: Roller) -> tuple[S, list[Event]]:
        """Check an answer against what the game asks its player now, then step with its action."""
        return self.step(state, self.action_for(state, answer), roller)

    @property
    def asks(self) -> bool:
        """Whether this game asks through the prompt contract (else only through its own commands)."""
        return self._ask is not None

    def awaiting(self, state: S) -> list[int]:
        """Players whose private input (a sealed choice) the game is waiting for; used for reminders."""
        return self._awaiting(state) if self._awaiting else []


# ---------------------------------------------------------------------- the prompt contract
#
# Like python-chess's legal moves: a procedure says what it asks a player now (`ask`), every answer
# is checked against that (`check_answer`) before anything steps, and only then turned into the
# game's own action (`to_action`). Every question carries a step id and every answer repeats it, so
# an answer to a question the game has moved past (an old button) is refused the same way in every
# game. The bot alone turns questions into Discord components and clicks back into answers.

STEP_PATTERN = r"[A-Za-z0-9_.\-]{1,40}"
VALUE_PATTERN = r"[A-Za-z0-9_.\-]{1,40}"
Tone = Literal["plain", "main", "go", "danger"]
NO_WORDS = Words.verbatim("")


def _require(pattern: re.Pattern[str], text: str | None, what: str) -> None:
    """A step id, option value or field key that Discord's custom ids could not carry is a bug in
    the procedure that made it: refused where it is made."""
    if text is not None and pattern.fullmatch(text) is None:
        raise ValueError(f"{what} {text!r} is not {pattern.pattern}")


_STEP, _VALUE, _KEY = re.compile(STEP_PATTERN), re.compile(VALUE_PATTERN), re.compile(r"[a-z_]{1,20}")


@dataclass(slots=True, kw_only=True)
class InputField:
    """A value to type before an option counts (a unit's name, a number of quarters)."""

    key: str
    label: Words
    kind: Literal["text", "number"] = "text"
    minimum: int | None = None
    maximum: int | None = None
    max_length: int = 100
    required: bool = True
    placeholder: Words | None = None

    def __post_init__(self) -> None:
        _require(_KEY, self.key, "a field's key")
        if not 1 <= self.max_length <= 1000:
            raise ValueError(f"a field's max_length {self.max_length} is not 1 to 1000")


@dataclass(slots=True, kw_only=True)
class Option:
    """One legal answer. `disabled` options are shown but refused, `description` says why."""

    value: str
    label: Words
    group: Words | None = None
    description: Words = NO_WORDS
    disabled: bool = False
    tone: Tone = "plain"
    form: list[InputField] = field(default_factory=list)

    def __post_init__(self) -> None:
        _require(_VALUE, self.value, "an option's value")


@dataclass(slots=True, kw_only=True)
class NumberRange:
    minimum: int
    maximum: int


QuestionKind = Literal["choose", "number", "done"]
Params = dict[str, str | int | Words | None]


@dataclass(slots=True, kw_only=True)
class Question:
    """What a procedure asks now, of whom, and which answers are legal.

    - `choose`: pick `min_values`..`max_values` of `options` (an option with a `form` asks for its
      fields first);
    - `number`: a whole number within `number`;
    - `done`: one acknowledgement ("my army is deployed").
    `sealed` answers are committed and revealed together; `private` questions are asked in DMs.
    An `optional` question is a tool the game goes on without (a tally, a score): nobody is waited
    for, pinged or answered for automatically because of it. Questions of one `series` (barricades
    set up in turn) are one run: the table shows them as one message that follows the run.
    `topic` is a stable code for what is asked (texts and translations key on it), `title` and
    `text` the procedure's own words for it.

    Questions, their options and fields are plain dataclasses, not pydantic models: a step asks
    the new state of each player, on the path a click's answer waits on, and a question made this way
    costs about half as much with the CPU's caches cold. Only the procedures' own typed code makes
    them; one read back from the store (an answer made for a player) is checked by `QUESTION`.
    """

    step: str
    topic: str
    title: Words
    text: Words = NO_WORDS
    players: list[int]
    kind: QuestionKind = "choose"
    options: list[Option] = field(default_factory=list)
    min_values: int = 1
    max_values: int = 1
    number: NumberRange | None = None
    sealed: bool = False
    private: bool = False
    optional: bool = False
    series: str | None = None
    params: Params = field(default_factory=dict)

    def __post_init__(self) -> None:
        _require(_STEP, self.step, "a question's step")
        _require(_STEP, self.series, "a question's series")

    def option(self, value: str) -> Option | None:
        return next((o for o in self.options if o.value == value), None)


QUESTION = TypeAdapter(Question)
"""A question to and from JSON (a stored answer made for a player), every field checked as read."""


@dataclass(slots=True, kw_only=True)
class Answer:
    """A player's answer to the question with id `step`: the option values chosen, a number, or the
    fields of an option's form. `nonce` hides a sealed answer inside its commitment (rules/sealed.py);
    the bot makes it, so the rules stay free of their own randomness.

    A plain dataclass, as `Question` is: every click makes one on the path its answer waits on. The
    bot makes it from a click's custom_id and a form's fields; what it carries is bounded here."""

    actor: int
    step: str
    values: list[str] = field(default_factory=list)
    number: int | None = None
    fields: dict[str, str] = field(default_factory=dict)
    nonce: str = ""  # fresh randomness from the bot, for sealed answers

    def __post_init__(self) -> None:
        if len(self.step) > ANSWER_STEP or len(self.values) > ANSWER_VALUES or len(self.nonce) > ANSWER_NONCE:
            raise ValueError(f"an answer to {self.step[:ANSWER_STEP]!r} carries more than an answer can")


ANSWER_STEP, ANSWER_VALUES, ANSWER_NONCE = 60, 25, 128


def check_answer(asked: list[Question], answer: Answer) -> Question:
    """The question `answer` answers, if it is legal; else a RuleError with a stable code.

    `asked` is what the game asks the answering player now. Nothing is changed either way.
    """
    question = next((q for q in asked if q.step == answer.step), None)
    if question is None:
        if asked:
            raise RuleError(code="answer.stale", now=asked[0].title)
        raise RuleError(code="answer.not_asked")
    if question.kind == "done":
        return question
    if question.kind == "number":
        assert question.number is not None
        low, high = question.number.minimum, question.number.maximum
        if answer.number is None:
            raise RuleError(code="answer.number_missing", minimum=low, maximum=high)
        if not low <= answer.number <= high:
            raise RuleError(code="answer.number_range", number=answer.number, minimum=low, maximum=high)
        return question
    values = answer.values
    if len(set(values)) != len(values):
        raise RuleError(code="answer.repeated")
    if not question.min_values <= len(values) <= question.max_values:
        raise RuleError(code="answer.count", minimum=question.min_values, maximum=question.max_values)
    for value in values:
        option = question.option(value)
        if option is None:
            raise RuleError(code="answer.not_offered")
        if option.disabled:
            raise RuleError(code="answer.disabled", label=option.label, why=option.description)
        for form_field in option.form:
            _check_field(form_field, answer.fields.get(form_field.key, ""))
    return question


def _check_field(field: InputField, text: str) -> None:
    text = text.strip()
    if not text:
        if field.required:
            raise RuleError(code="answer.field_missing", field=field.label)
        return
    if len(text) > field.max_length:
        raise RuleError(code="answer.field_long", field=field.label, limit=field.max_length)
    if field.kind == "number":
        if not re.fullmatch(r"-?[0-9]{1,9}", text):
            raise RuleError(code="answer.field_number", field=field.label)
        value = int(text)
        low = field.minimum if field.minimum is not None else value
        high = field.maximum if field.maximum is not None else value
        if not low <= value <= high:
            raise RuleError(code="answer.field_range", field=field.label, minimum=low, maximum=high)
