"""Quest CPU matches over time and at their edges: the sweeper, forfeit and its
points, another player's match, bad input (real PostgreSQL and RabbitMQ)."""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from services.cards import orm as cards_orm
from shared.errors import Conflict, InvalidInput, NotFound
from tests.helpers import wait_for
from tests.integration.battle import support as support
from tests.integration.battle.support import (
    action_rows,
    finished_events,
    match_row,
    player_with_deck,
    stored,
)
from tests.random_refs import random_sub

pytestmark = pytest.mark.integration

# The fixtures of battle/support.py, where pytest looks for them.
battle = support.battle
battle_engine = support.battle_engine
cards_engine = support.cards_engine
catalogue = support.catalogue
clock = support.clock
start_battle = support.start_battle


def test_the_sweeper_times_out_an_abandoned_turn_and_the_cpu_replies(
    start_battle, rpc, cards_engine, catalogue, battle_engine, clock
):
    container = start_battle(with_timer=True)
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)
    view = rpc.battle.start_match(player_id=player_id, deck_id=deck["id"])
    view = rpc.battle.act(
        player_id=player_id,
        match_id=view["id"],
        expected_version=view["version"],
        action={"kind": "select_creature", "index": 0},
    )
    deadline = match_row(battle_engine, view["id"])["deadline"]

    clock.set(deadline - timedelta(microseconds=1))
    with entrypoint_hook(container, "expire_overdue_turns") as sweep:
        sweep()
    assert match_row(battle_engine, view["id"])["version"] == view["version"]

    clock.set(deadline + timedelta(seconds=30))
    with entrypoint_hook(container, "expire_overdue_turns") as sweep:
        sweep()
    row = match_row(battle_engine, view["id"])
    added = action_rows(battle_engine, view["id"])[view["version"] :]
    assert (added[0]["side"], added[0]["action"], added[0]["at"]) == (
        "player",
        {"kind": "timeout"},
        clock.now(),
    )
    assert added[1]["side"] == "cpu"  # the CPU's turn came next, played at once
    if row["status"] == "active":
        assert row["deadline"] == clock.now() + timedelta(seconds=90)
    seen = rpc.battle.get_match(player_id=player_id, match_id=view["id"])
    assert seen["version"] == row["version"] == view["version"] + len(added)


def test_the_players_next_request_resolves_an_overdue_turn_first(
    battle, rpc, cards_engine, catalogue, battle_engine, clock
):
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)
    view = battle.start_match(player_id=player_id, deck_id=deck["id"])
    view = battle.act(
        player_id=player_id,
        match_id=view["id"],
        expected_version=view["version"],
        action={"kind": "select_creature", "index": 0},
    )
    clock.advance(91)
    seen = battle.active_match(player_id=player_id)
    assert seen["version"] > view["version"]
    assert action_rows(battle_engine, view["id"])[view["version"]]["action"] == {"kind": "timeout"}
    with pytest.raises(Conflict) as caught:  # the turn it was meant for is gone
        battle.act(
            player_id=player_id,
            match_id=view["id"],
            expected_version=view["version"],
            action={"kind": "use_move", "index": 0},
        )
    assert caught.value.code == "stale_version"


def test_forfeit_records_a_cpu_victory_one_match_finished_and_zero_points(
    battle, rpc, start_service, cards_engine, catalogue, battle_engine
):
    start_service("accounts")
    player_id = rpc.accounts.me(sub=random_sub())["id"]
    _, deck = player_with_deck(rpc, cards_engine, catalogue, player_id)
    view = battle.start_match(player_id=player_id, deck_id=deck["id"])

    answer = battle.forfeit(
        player_id=player_id, match_id=view["id"], expected_version=view["version"]
    )
    assert (answer["status"], answer["outcome"], answer["winner"]) == (
        "finished",
        "forfeit",
        "cpu",
    )
    assert answer["events"][0] == {"type": "forfeit", "side": "player"}
    [event] = finished_events(battle_engine, view["id"])
    seats = {s["seat"]: s["result"] for s in event["payload"]["data"]["seats"]}
    assert seats == {"player": "forfeit", "cpu": "victory"}
    entries = wait_for(lambda: rpc.accounts.progression(player_id=player_id)["entries"], timeout=20)
    assert [(e["source_id"], e["points"]) for e in entries] == [(view["id"], 0)]
    assert rpc.accounts.progression(player_id=player_id)["points"] == 0
    with pytest.raises(Conflict) as caught:
        battle.forfeit(player_id=player_id, match_id=view["id"], expected_version=answer["version"])
    assert caught.value.code == "match_finished"
    assert len(finished_events(battle_engine, view["id"])) == 1

    # The match is over: a new one may start, and the old one stays readable.
    second = battle.start_match(player_id=player_id, deck_id=deck["id"])
    assert second["id"] != view["id"]
    assert battle.get_match(player_id=player_id, match_id=view["id"])["outcome"] == "forfeit"


def test_another_players_match_is_not_found_everywhere(
    battle, rpc, cards_engine, catalogue, battle_engine
):
    owner, deck = player_with_deck(rpc, cards_engine, catalogue)
    view = battle.start_match(player_id=owner, deck_id=deck["id"])
    before = stored(battle_engine, view["id"])
    intruder = str(uuid.uuid4())
    ref = {"player_id": intruder, "match_id": view["id"]}
    calls = [
        lambda: battle.get_match(**ref),
        lambda: battle.match_history(**ref),
        lambda: battle.act(**ref, expected_version=1, action={"kind": "forfeit"}),
        lambda: battle.forfeit(**ref, expected_version=1),
        lambda: battle.get_match(player_id=owner, match_id=str(uuid.uuid4())),
    ]
    for call in calls:
        with pytest.raises(NotFound) as caught:
            call()
        assert caught.value.code == "match_not_found"
    with pytest.raises(NotFound) as caught:
        battle.active_match(player_id=intruder)
    assert caught.value.code == "no_active_match"
    with pytest.raises(NotFound) as caught:  # someone else's deck
        battle.start_match(player_id=intruder, deck_id=deck["id"])
    assert caught.value.code == "deck_not_found"
    assert stored(battle_engine, view["id"]) == before


def test_bad_input_is_refused_and_changes_nothing(
    battle, rpc, cards_engine, catalogue, battle_engine
):
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)
    view = battle.start_match(player_id=player_id, deck_id=deck["id"])
    before = stored(battle_engine, view["id"])
    ref = {"player_id": player_id, "match_id": view["id"]}
    cases = [
        (lambda: battle.act(**ref, expected_version=1, action={"kind": "dance"}), "invalid_action"),
        (lambda: battle.act(**ref, expected_version=1, action={"kind": "swap"}), "invalid_action"),
        (
            lambda: battle.act(**ref, expected_version=1, action={"kind": "swap", "index": True}),
            "invalid_action",
        ),
        (lambda: battle.act(**ref, expected_version=1, action="forfeit"), "validation_failed"),
        (lambda: battle.act(**ref, expected_version="1", action={}), "validation_failed"),
        (
            lambda: battle.act(**ref, expected_version=-1, action={"kind": "forfeit"}),
            "validation_failed",
        ),
        (
            lambda: battle.act(
                **ref, expected_version=1, action={"kind": "forfeit"}, idempotency_key=""
            ),
            "validation_failed",
        ),
        (lambda: battle.forfeit(**ref, expected_version=None), "validation_failed"),
        (lambda: battle.get_match(player_id=player_id, match_id="nope"), "validation_failed"),
        (lambda: battle.match_history(player_id=7, match_id=view["id"]), "validation_failed"),
        (lambda: battle.start_match(player_id=player_id, deck_id=[]), "validation_failed"),
        (lambda: battle.active_match(player_id="x"), "validation_failed"),
    ]
    for call, code in cases:
        with pytest.raises(InvalidInput) as caught:
            call()
        assert caught.value.code == code
    with pytest.raises(NotFound) as caught:
        battle.start_match(player_id=str(uuid.uuid4()), deck_id=str(uuid.uuid4()))
    assert caught.value.code == "deck_not_found"
    assert stored(battle_engine, view["id"]) == before


def test_a_deck_that_is_no_longer_legal_is_refused_with_the_cards_rule(
    battle, rpc, cards_engine, catalogue
):
    player_id, deck = player_with_deck(rpc, cards_engine, catalogue)
    deck_cards = cards_orm.deck_cards
    with cards_engine.begin() as conn:  # a card left the deck behind the cards service's back
        conn.execute(
            sa.delete(deck_cards).where(
                deck_cards.c.owned_card_id == uuid.UUID(deck["cards"][0]["id"])
            )
        )
    with pytest.raises(InvalidInput) as caught:
        battle.start_match(player_id=player_id, deck_id=deck["id"])
    assert caught.value.code == "deck_size"
    with pytest.raises(NotFound):
        battle.active_match(player_id=player_id)
