"""Events: a club's Swiss tournaments (service, state, rounds)."""
