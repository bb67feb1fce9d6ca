"""A simple attacker policy for simulations (``deckyard balance``) and tests: it begins
at once, plays the unused card that would deal the most damage to the defense card
the plan reveals if it is not replaced (a policy may read the state: it stands for the
server, not a player), and skips the question (it knows no answer; the engine takes
only answers the server has marked). A pure function of the state."""

from __future__ import annotations

from games.terrakard.actions import Action, begin, play, skip
from games.terrakard.damage import exchange
from games.terrakard.rules import knowledge_of, unused
from games.terrakard.state import ATTACKER, AttackState, Phase


def attacker_action(state: AttackState, seat: str, /) -> Action | None:
    if seat != ATTACKER or state.finished:
        return None
    if state.phase is Phase.RECONNAISSANCE:
        return begin()
    if state.phase is Phase.QUESTION:
        return skip()
    planned = state.defense.plan.rounds[state.round - 1]

    def dealt(index: int) -> tuple[int, int]:
        hits = exchange(
            state.attacker.deck[index],
            planned,
            terrain=state.terrain,
            posture=state.defense.plan.posture,
            round_number=state.round,
            knowledge=knowledge_of(state),
        )
        return hits.to_defense - hits.to_attacker, -index

    return play(max(unused(state), key=dealt))
