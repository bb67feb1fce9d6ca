"""The CPU's training deck (docs/balance/chronovore.md, "The training deck"): a player's
first ``TRAINING_MATCHES`` Chronovore CPU matches are against it, the next against the
standard deck, the count read from battle's own matches; the deck is in the match's
setup, so a finished training match verifies like any other."""

from __future__ import annotations

import io
import json
import uuid

from deckyard.verify import verify_file
from gateway.casing import camelize
from services.battle import handlers
from services.battle.games import chronovore
from tests.unit.battle import test_chronovore_host as cv
from tests.unit.battle.support import FakeStore

TRAINING = set(chronovore.CPU_DECKS[chronovore.TRAINING].names)
STANDARD = set(chronovore.CPU_DECKS[chronovore.STANDARD].names)


def cpu_cards(store: FakeStore, view: dict) -> set[str]:
    """Every card the CPU brought to the match (hand, deck and row as stored)."""
    side = store.matches.initial_state(uuid.UUID(view["id"])).side("cpu")
    return {item.card.name for item in (*side.hand, *side.deck)}


def leave(store, clock, player, view) -> None:
    cv.act(store, clock, player, view, {"kind": "forfeit"})


def test_the_two_configured_decks_share_no_card_so_a_match_tells_which_it_got() -> None:
    assert TRAINING and STANDARD and not TRAINING & STANDARD


def test_a_players_first_ten_cpu_matches_get_the_training_deck_and_the_eleventh_the_standard():
    assert chronovore.TRAINING_MATCHES == 10
    store, clock, player, view = cv.start()
    seen = []
    for n in range(chronovore.TRAINING_MATCHES + 1):
        if n:
            _, _, _, view = cv.start(store, clock, player=player, seed=5 + n)
        seen.append(cpu_cards(store, view))
        leave(store, clock, player, view)
    assert all(cards <= TRAINING for cards in seen[:-1]), seen
    assert seen[-1] <= STANDARD and len(seen[-1]) > 1, seen[-1]


def test_another_players_matches_do_not_count_toward_ones_training() -> None:
    store, clock, veteran, view = cv.start()
    for n in range(chronovore.TRAINING_MATCHES):
        leave(store, clock, veteran, view)
        _, _, _, view = cv.start(store, clock, player=veteran, seed=20 + n)
    assert cpu_cards(store, view) <= STANDARD
    _, _, _, newcomer = cv.start(store, clock, seed=40)
    assert cpu_cards(store, newcomer) <= TRAINING


def test_a_finished_training_match_verifies_from_its_history(tmp_path) -> None:
    store, clock, player, view = cv.start(seed=9)
    assert cpu_cards(store, view) <= TRAINING
    cv.play_to_the_end(store, clock, player, view)
    with store.uow() as uow:
        history = handlers.history(player, uuid.UUID(view["id"]), uow, clock, cv.GAME)
    document = camelize(json.loads(json.dumps(history)))
    cpu_setup = json.dumps(document["replay"]["setup"])
    assert "Moss Troll" in cpu_setup or "Cave Rat" in cpu_setup  # the training deck's
    path = tmp_path / "match.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    assert verify_file(path, out) == 0 and "verified" in out.getvalue(), out.getvalue()
