"""Events: a club's Swiss tournament with sealed army lists, standings and an optional top cut.

models (scoring, entrants, games, pairings), pairing (`pair_round`), standings (`standings`,
`rounds_for`, `top_cut`, `next_cut_round`), lists (sealed lists), state (settings, phases, the
state), actions and events, machine (`start`, `apply`, `allowed`: the state machine).
"""
