"""The battle service's pure Quest parts: decks from the cards service, CPU replies,
results, and views that never show the seed, the CPU's hand or its unrevealed choice."""

from __future__ import annotations

import json
import uuid
from dataclasses import replace
from datetime import timedelta

import pytest

from games.quest import QUEST, Action, FinishReason, Phase, Side, new_match
from games.quest.cpu import CPU_DECK, CpuDeckNames
from services.battle import host
from services.battle.games import quest
from services.battle.games import quest as views
from services.battle.host import Match, Status
from shared.errors import InvalidInput, ServiceUnavailable
from tests.unit.battle.support import STARTER, T0, FakeCards, seed_definitions


def decks():
    cards = FakeCards()
    player = quest.player_deck(cards.deck_for_match("p", str(uuid.uuid4()))["cards"])
    cpu = quest.cpu_deck(
        CPU_DECK,
        cards.active_definitions_named("quest", "creature", list(CPU_DECK.creatures)),
        cards.active_definitions_named("quest", "power_card", list(CPU_DECK.power_cards)),
    )
    return player, cpu


SEATS = quest.cpu_match_seats(uuid.uuid4(), uuid.uuid4(), 1)


def cpu_replies(state, now):
    return host.cpu_replies(quest.HOSTED, SEATS, state, now)


def play(state, side, action, now):
    return host.play(quest.HOSTED, SEATS, state, str(side), action, now)


def catch_up(state, now):
    return host.catch_up(quest.HOSTED, SEATS, state, now)


def a_match(state, **changes):
    match = Match(
        id=uuid.uuid4(),
        game="quest",
        mode="cpu",
        seats=tuple(SEATS),
        status=Status.ACTIVE,
        state=state,
        seed=state.random.seed,
        version=state.version,
        deadline=QUEST.deadline(state),
        created_at=T0,
        updated_at=T0,
    )
    return replace(match, **changes)


def test_the_configured_cpu_deck_is_the_rulebooks():
    assert CPU_DECK.creatures == ("Quillip", "Voltiki", "Karrik")
    assert CPU_DECK.power_cards == ("Field Kit", "Reserve Focus")


def test_the_cpu_deck_follows_the_configured_order_whatever_order_cards_answers_in():
    _, cpu = decks()
    assert [c.name for c in cpu.creatures] == ["Quillip", "Voltiki", "Karrik"]
    assert [p.name for p in cpu.power_cards] == ["Field Kit", "Reserve Focus"]


def test_an_unplayable_duplicate_name_is_skipped_and_a_missing_card_is_unavailable():
    found = seed_definitions()
    broken = {**found["Quillip"], "id": str(uuid.uuid4()), "definition": {}}
    creatures = [broken, found["Quillip"], found["Voltiki"], found["Karrik"]]
    powers = [found["Field Kit"], found["Reserve Focus"]]
    deck = quest.cpu_deck(CPU_DECK, creatures, powers)
    assert deck.creatures[0].definition_id == found["Quillip"]["id"]
    with pytest.raises(ServiceUnavailable) as caught:
        names = CpuDeckNames(("Quillip", "Nobody", "Karrik"), CPU_DECK.power_cards)
        quest.cpu_deck(names, creatures, powers)
    assert caught.value.code == "cpu_deck_unavailable"


def test_a_deck_card_that_cannot_be_played_is_invalid_input():
    cards = FakeCards().deck_for_match("p", str(uuid.uuid4()))["cards"]
    cards[0] = {**cards[0], "definition": {"name": "Broken"}}
    with pytest.raises(InvalidInput) as caught:
        quest.player_deck(cards)
    assert caught.value.code == "deck_not_playable"
    with pytest.raises(InvalidInput):
        quest.player_deck(FakeCards(STARTER[:4]).deck_for_match("p", "d")["cards"])


def test_the_cpu_selects_at_once_and_then_waits_for_the_player():
    player, cpu = decks()
    state, steps = cpu_replies(new_match(player, cpu, 11, T0), T0)
    assert [(s.seat, s.action["kind"], s.version) for s in steps] == [("cpu", "select_creature", 1)]
    assert state.pending == (Side.PLAYER,)
    assert cpu_replies(state, T0) == (state, [])


def test_catch_up_before_the_deadline_does_nothing_and_at_it_times_out_then_the_cpu_plays():
    player, cpu = decks()
    state, _ = cpu_replies(new_match(player, cpu, 11, T0), T0)
    state, steps = play(state, Side.PLAYER, Action.select_creature(0), T0)
    assert state.phase is Phase.NORMAL_TURN and state.turn is Side.PLAYER
    deadline = state.deadline
    assert deadline == T0 + timedelta(seconds=90)
    assert catch_up(state, deadline - timedelta(microseconds=1)) == (state, [])
    later, steps = catch_up(state, deadline)
    assert next((s.seat, s.action["kind"]) for s in steps) == ("player", "timeout")
    assert steps[1].seat == "cpu"
    assert later.turn is Side.PLAYER or later.phase is not Phase.NORMAL_TURN


def test_results_of_both_seats():
    player, cpu = decks()
    state = new_match(player, cpu, 1, T0)
    assert QUEST.results(state) is None
    done = state.replace(phase=Phase.FINISHED)
    cases = [
        (Side.PLAYER, FinishReason.ALL_DEFEATED, "victory", "defeat"),
        (Side.CPU, FinishReason.ALL_DEFEATED, "defeat", "victory"),
        (Side.CPU, FinishReason.FORFEIT, "forfeit", "victory"),
    ]
    for winner, reason, mine, theirs in cases:
        finished = done.replace(winner=winner, finish_reason=reason)
        assert QUEST.results(finished) == {"player": mine, "cpu": theirs}


def test_a_finished_match_keeps_each_seats_result_and_its_deadline_is_gone():
    player, cpu = decks()
    state, _ = cpu_replies(new_match(player, cpu, 3, T0), T0)
    state, _ = play(state, Side.PLAYER, Action.forfeit(), T0)
    match = host.advance(quest.HOSTED, a_match(state), state, T0)
    assert (match.status, match.finished_at, match.deadline) == (Status.FINISHED, T0, None)
    assert [(s.name, s.result) for s in match.seats] == [("player", "forfeit"), ("cpu", "victory")]
    assert views.player_view(match, match.seats[0])["outcome"] == "forfeit"


def test_a_malformed_action_is_invalid_input():
    with pytest.raises(InvalidInput) as caught:
        host.parse_action(quest.HOSTED, {"kind": "swap"})
    assert caught.value.code == "invalid_action"
    assert host.parse_action(quest.HOSTED, {"kind": "swap", "index": 2}) == Action.swap(2)


def shown_to_player(match):
    return views.player_view(match, match.seats[0])


def test_the_view_shows_neither_the_seed_nor_the_cpus_hand_bench_or_hidden_choice():
    player, cpu = decks()
    seed = 987654321987
    state, _ = cpu_replies(new_match(player, cpu, seed, T0), T0)
    view = shown_to_player(a_match(state))
    shown = json.dumps(view)
    assert str(seed) not in shown and '"random"' not in shown
    assert view["opponent"]["active"] is None and view["opponent"]["has_chosen"] is True
    assert "Voltiki" not in shown and "Karrik" not in shown  # not in the player's deck
    assert set(view["opponent"]) == {
        "active",
        "must_select",
        "has_chosen",
        "creatures_left",
        "creatures_defeated",
        "power_cards_in_hand",
        "played_power_cards",
    }
    state, _ = play(state, Side.PLAYER, Action.select_creature(0), T0)
    view = shown_to_player(a_match(state))
    active = view["opponent"]["active"]["name"]
    for name in {"Voltiki", "Karrik"} - {active}:  # the CPU's bench stays hidden
        assert name not in json.dumps(view)
    assert (
        view["opponent"]["power_cards_in_hand"] + len(view["opponent"]["played_power_cards"]) == 2
    )


def test_history_hides_the_cpus_selection_until_it_is_revealed():
    player, cpu = decks()
    state, steps = cpu_replies(new_match(player, cpu, 5, T0), T0)
    match = a_match(state)
    [entry] = views.history_view(match, match.seats[0], steps)["entries"]
    assert entry["action"] == {"kind": "select_creature"}
    assert entry["events"] == [
        {"type": "creature_chosen", "side": "cpu", "phase": "initial_selection"}
    ]
    state, more = play(state, Side.PLAYER, Action.select_creature(1), T0)
    later = a_match(state)
    entries = views.history_view(later, later.seats[0], steps + more)["entries"]
    assert entries[0]["action"] == steps[0].action  # revealed by the player's pick
    assert [e["seq"] for e in entries] == list(range(1, state.version + 1))
