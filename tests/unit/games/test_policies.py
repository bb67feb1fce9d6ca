"""The kit's seat policies: legal, reproducible from their seed, never a needless forfeit."""

from __future__ import annotations

from datetime import timedelta

from games.kit.policies import best, greedy_policy, random_policy
from games.quest import QUEST, ActionKind, Phase
from games.quest.state import MatchState
from tests.unit.games.quest.support import T0, prepare_battle


def test_the_random_policy_picks_a_legal_action_and_the_same_one_for_the_same_seed() -> None:
    state = prepare_battle(seed=1)
    seat = str(state.turn)
    now = T0 + timedelta(seconds=1)
    action = random_policy(QUEST, state, seat, 7, now)
    assert action in QUEST.legal_actions(state, seat)
    assert action.kind is not ActionKind.FORFEIT
    assert all(random_policy(QUEST, state, seat, 7, now) == action for _ in range(5))
    picks = {random_policy(QUEST, state, seat, s, now) for s in range(40)}
    assert len(picks) > 1  # the seed matters


def test_the_greedy_policy_takes_the_best_scored_action() -> None:
    state = prepare_battle(seed=1)
    seat = str(state.turn)
    now = T0 + timedelta(seconds=1)

    def opponent_hp_lost(after: MatchState, me: str) -> float:
        theirs = after.cpu if me == "player" else after.player
        return -float(sum(c.hp for c in theirs.creatures))

    action = greedy_policy(opponent_hp_lost)(QUEST, state, seat, 3, now)
    assert action.kind is ActionKind.USE_MOVE  # the default cards' only damage is a move


def test_best_lists_every_position_of_the_top_score() -> None:
    assert best([1.0, 3.0, 2.0, 3.0]) == [1, 3]


def test_policies_play_a_whole_match_to_its_end() -> None:
    state = prepare_battle(seed=2)
    now = T0
    while state.phase is not Phase.FINISHED:
        seat = QUEST.waiting_for(state)[0]
        now += timedelta(seconds=1)
        state, _ = QUEST.apply(state, seat, random_policy(QUEST, state, seat, 1, now), now)
    assert QUEST.results(state) is not None
