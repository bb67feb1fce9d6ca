"""Live PvP's count of missed windows (ours, docs/quest-pvp.md, "Live PvP").

A missed window is that side's timeout (the engine resolves it); here is what follows
from it: the side's count of missed windows in a row goes up, and the third in a row ends
the match as that side's forfeit, so that an absent player does not hold the other
hostage for long. A decision made in time clears the side's count.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.quest.effects import Event
from games.quest.state import SIDES, FinishReason, MatchState, Phase, Side
from games.quest.turns import finish

TIMEOUTS_TO_FORFEIT = 3  # ours: three missed windows in a row by one side forfeit


def first_living(state: MatchState, side: Side) -> int:
    """What a missed selection picks: the side's first living Creature in deck order."""
    return state.side(side).living[0]


def cleared(state: MatchState, side: Side) -> MatchState:
    """``side`` decided in time: its count of missed windows starts again."""
    position = SIDES.index(side)
    if state.timeouts_in_row[position] == 0:
        return state
    counts = list(state.timeouts_in_row)
    counts[position] = 0
    return state.replace(timeouts_in_row=(counts[0], counts[1]))


def counted(
    state: MatchState, missed: Iterable[Side], version: int
) -> tuple[MatchState, list[Event]]:
    """The sides that missed this window count one more in a row; the first (in seat
    order: the challenger's side when both are absent) to reach three forfeits."""
    if state.phase is Phase.FINISHED:
        return state, []  # the timed-out turn's end-of-turn step ended the match already
    counts = list(state.timeouts_in_row)
    for side in missed:
        counts[SIDES.index(side)] += 1
    state = state.replace(timeouts_in_row=(counts[0], counts[1]))
    out = [side for side, n in zip(SIDES, counts, strict=True) if n >= TIMEOUTS_TO_FORFEIT]
    if not out:
        return state, []
    loser = out[0]
    state, events = finish(state, loser.other, FinishReason.TIMEOUTS, version)
    forfeited: Event = {
        "type": "timeouts_forfeit",
        "side": str(loser),
        "in_row": counts[SIDES.index(loser)],
    }
    return state, [forfeited, *events]
