"""The questions a Kill Team player answers in private (their DMs): their sealed bid, their scouting
pick and their Tac Ops draft, worded once in English for the catalogue (`N_`). Only that player is
ever shown one.
"""

from __future__ import annotations

from rules.killteam.hand import constructed_archetypes, fits, free_archetypes
from rules.killteam.labels import sealed_label
from rules.killteam.models import BidContest, KillTeamState, TacOpDraft, bid_contest
from rules.killteam.options import archetype_options, ops, question, scouting_options, tac_op_option
from rules.session import NumberRange, Option, Question
from rules.words import Marker, Words

N_ = Marker("killteam")


def _draft_question(
    state: KillTeamState,
    player: int,
    draft: TacOpDraft,
    title: Words,
    text: Words,
    options: list[Option],
    count: int = 1,
) -> Question:
    return question(
        state,
        title,
        text,
        [player],
        options=options,
        count=count,
        topic="tac_draft",
        step=f"tac.{player}.{draft.question}",
        private=True,
        draft=draft.phase,
    )


def _draft(state: KillTeamState, player: int, draft: TacOpDraft) -> Question | None:
    """The player's next question of Random, Constructed Random or Free Selection, if any."""
    faction = state.faction_of(player)
    if draft.phase == "archetype":
        method = constructed_archetypes if state.tacops_method == "constructed" else free_archetypes
        return _draft_question(
            state,
            player,
            draft,
            N_("Tac Ops: choose your archetype"),
            N_("Pick the archetype your Tac Ops come from (only you see it)."),
            archetype_options(state, method(state.pack, faction)),
        )
    if draft.phase == "build" or draft.phase == "pick":
        assert draft.archetype is not None
        pool = state.pack.archetype_ops(draft.archetype) + state.pack.faction_ops(faction)
        options = [tac_op_option(op) for op in pool]
        if draft.phase == "build":
            title = N_("Tac Ops: build your deck of six")
            text = N_("Pick six Tac Ops: up to three of your faction's, the rest from your archetype.")
            return _draft_question(state, player, draft, title, text, options, 6)
        title = N_("Tac Ops: pick your three")
        text = N_("Pick three Tac Ops: at most one of your faction's, the rest from your archetype.")
        return _draft_question(state, player, draft, title, text, options, 3)
    if draft.phase == "draw":
        held = ops(state, state.tac.held.get(player, []))
        options = [tac_op_option(op, fits(held, op, faction)) for op in ops(state, draft.pair)]
        title = N_("Tac Ops: keep one ({number} of 3)", number=len(held) + 1)
        text = N_("You drew these; keep one and discard the other.")
        return _draft_question(state, player, draft, title, text, options)
    return None


def _bid(state: KillTeamState, player: int, contest: BidContest) -> Question | None:
    """The player's own sealed bid, with the tokens they have left."""
    if contest.sealed is None or player not in contest.sealed.waiting_for():
        return None
    left = contest.tokens[player]
    return question(
        state,
        N_("Your sealed bid: {label}", label=sealed_label(contest.label)),
        N_.n(
            "You have {count} token. Bid 0 to {count}; only you see it until both have bid.",
            "You have {count} tokens. Bid 0 to {count}; only you see it until both have bid.",
            left,
        ),
        [player],
        kind="number",
        topic="bid",
        step=contest.sealed.step,
        number=NumberRange(minimum=0, maximum=left),
        sealed=True,
        private=True,
        category=contest.category,
        round=contest.round,
        tokens=left,
    )


def private_prompt(state: KillTeamState, player: int) -> Question | None:
    """The player's own secret question, if the game is waiting for one from them."""
    if state.finished:
        return None
    if state.stage in ("bid", "tac_bid"):
        contest = bid_contest(state)
        return _bid(state, player, contest) if contest is not None else None
    if state.stage == "scouting" and state.scouting and player in state.scouting.waiting_for():
        return question(
            state,
            N_("Your scouting pick"),
            N_("Pick in secret; both picks are revealed together."),
            [player],
            options=scouting_options(state),
            step=state.scouting.step,
            sealed=True,
            private=True,
        )
    if state.stage == "tac_private":
        draft = state.tac.drafts.get(player)
        return _draft(state, player, draft) if draft else None
    return None
