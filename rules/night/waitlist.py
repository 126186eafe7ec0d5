"""Confirmed places and the waitlist: first come, first served, never more confirmed than the capacity
allows, and a place that frees up goes to the first on the waitlist who still fits the night."""

from __future__ import annotations

from rules.night.models import Signup


def fits(signup: Signup, offered: list[str]) -> bool:
    """Whether a waitlisted sign-up can still be played tonight (the night may have dropped a system)."""
    return any(system in offered for system in signup.systems)


def join(
    confirmed: list[Signup], waitlist: list[Signup], capacity: int, signup: Signup
) -> tuple[list[Signup], list[Signup], bool, int]:
    """The lists with a new sign-up added: confirmed while places are free, else waitlisted.

    Also says whether it was waitlisted and its 1-based position in its list."""
    if len(confirmed) < capacity:  # places free with a waitlist only if none waiting fits the night
        return [*confirmed, signup], waitlist, False, len(confirmed) + 1
    return confirmed, [*waitlist, signup], True, len(waitlist) + 1


def replace(entries: list[Signup], signup: Signup) -> tuple[list[Signup], int]:
    """`entries` with the sign-up of `signup.player` changed in place (its queue position kept)."""
    index = next(i for i, s in enumerate(entries) if s.player == signup.player)
    return [*entries[:index], signup, *entries[index + 1 :]], index + 1


def remove(entries: list[Signup], player: int) -> list[Signup]:
    return [s for s in entries if s.player != player]


def promote(
    confirmed: list[Signup], waitlist: list[Signup], capacity: int, offered: list[str]
) -> tuple[list[Signup], list[Signup], list[int]]:
    """Fill free places from the waitlist in its order, skipping sign-ups that no longer fit."""
    confirmed, waitlist = list(confirmed), list(waitlist)
    promoted: list[int] = []
    while len(confirmed) < capacity:
        index = next((i for i, s in enumerate(waitlist) if fits(s, offered)), None)
        if index is None:
            break
        signup = waitlist.pop(index)
        confirmed.append(signup)
        promoted.append(signup.player)
    return confirmed, waitlist, promoted
