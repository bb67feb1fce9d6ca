"""The CPU's training deck on the real stack (docs/balance/chronovore.md, "The training
deck"): a new player's first ``TRAINING_MATCHES`` Chronovore CPU matches through the
gateway are against the training deck, the next one against the standard deck, as battle
stores the match in PostgreSQL."""

from __future__ import annotations

import pytest

from services.battle.games import chronovore
from tests.e2e.chronovore import support
from tests.e2e.chronovore.support import player_with_deck
from tests.e2e.chronovore.test_matches_api import stored_state

pytestmark = pytest.mark.e2e

starters = support.starters  # the published seed catalogue (fixture)
core_set = support.core_set  # the Core Set as the library shows it (fixture)


def cpu_brought(settings, match_id) -> set[str]:
    """The names of every card the CPU has at the start (hand, deck and its locked row),
    as battle stored the match."""
    state = stored_state(settings, match_id)
    cpu = state["sides"][state["seats"].index("cpu")]
    items = [*cpu["hand"], *cpu["deck"], *(s for s in cpu["slots"] if s is not None)]
    return {item["card"]["name"] for item in items}


def test_a_new_players_first_ten_cpu_matches_are_training_and_the_eleventh_standard(
    api, rpc, core_set, settings
):
    training = set(chronovore.CPU_DECKS[chronovore.TRAINING].names)
    standard = set(chronovore.CPU_DECKS[chronovore.STANDARD].names)
    player, deck = player_with_deck(api, rpc, core_set)
    brought = []
    for _ in range(chronovore.TRAINING_MATCHES + 1):
        started = player.call("POST", "/chronovore/matches", json={"deckId": deck["id"]})
        assert started.status_code == 201, started.text
        view = started.json()
        brought.append(cpu_brought(settings, view["id"]))
        leave = {"expectedVersion": view["version"]}
        left = player.call("POST", f"/chronovore/matches/{view['id']}/leave", json=leave)
        assert left.status_code == 200, left.text
    assert all(cards <= training for cards in brought[:-1]), brought
    assert brought[-1] <= standard and len(brought[-1]) > 1, brought[-1]
