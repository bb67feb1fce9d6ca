"""Chronovore hosted by battle (services/battle/games/chronovore.py) on the in-memory
store: the start (the player's legal deck against the configured CPU deck), what each
answer may show (the CPU's slotted cards stay face down until their pair resolves),
playing whole matches by locking in, the 2-minute choosing step ended by a read or the
sweeper (with MatchUpdated naming the seat still to act), history, one active CPU match."""

from __future__ import annotations

import json
import uuid
from datetime import timedelta
from typing import Any

import pytest

from games.chronovore import CHRONOVORE, Settings
from games.chronovore.decks import card_problems
from services.battle import handlers, host
from services.battle.games import GAMES, chronovore
from shared.clock import FixedClock
from shared.errors import Conflict, InvalidInput, NotFound, ServiceUnavailable
from shared.events import MATCH_FINISHED, MATCH_UPDATED
from shared.randomness import SeededRandomSource
from tests.unit.battle.support import T0, FakeStore
from tests.unit.games.chronovore.support import core_set_entries

CHOOSING = timedelta(seconds=Settings().choosing_seconds)  # rulebook: 2 minutes
TICK = timedelta(microseconds=1)
GAME = chronovore.GAME


def core_definitions() -> dict[str, dict[str, Any]]:
    """The Core Set by name, as cards' LineageDefinitionSchema dumps it."""
    return {
        e["body"]["name"]: {
            "id": str(uuid.uuid5(uuid.NAMESPACE_URL, "chronovore:" + e["body"]["name"])),
            "kind": e["kind"],
            "game": GAME,
            "name": e["body"]["name"],
            "lineage_name": e["body"]["name"],
            "rarity": e["body"]["rarity"],
            "definition": e["body"],
        }
        for e in core_set_entries()
    }


PER_RARITY = {"common": 2, "uncommon": 2, "rare": 1, "epic": 1, "mythic": 1}


def class_deck(card_class: str) -> list[str]:
    """A legal 30 of one class's own cards: commons and uncommons twice, the rest once."""
    names = []
    for name, d in core_definitions().items():
        body = d["definition"]
        if body["card_class"] == card_class:
            names += [name] * PER_RARITY[body["rarity"]]
    return names


class FakeCards:
    """The cards service for Chronovore: one legal deck per player, the Core Set."""

    def __init__(self, names: list[str] | None = None, game: str = GAME) -> None:
        self.definitions = core_definitions()
        self.names = class_deck("medic") if names is None else names
        self.game = game
        self.asked: list[Any] = []

    def deck_for_match(self, player_id: str, deck_id: str, game: str | None = None):
        self.asked.append(game)
        cards = [
            {
                "copy_id": str(uuid.uuid4()),
                "definition_id": self.definitions[n]["id"],
                "kind": self.definitions[n]["kind"],
                "definition": self.definitions[n]["definition"],
            }
            for n in self.names
        ]
        return {"deck_id": deck_id, "game": self.game, "version": 3, "cards": cards}

    def active_definitions_named(self, game: str, kind: str, names: list[str]):
        wanted = {n.strip().lower() for n in names}
        return [
            d
            for d in self.definitions.values()
            if d["game"] == game and d["kind"] == kind and d["name"].lower() in wanted
        ]


def start(store=None, clock=None, cards=None, player=None, seed=5):
    store = store or FakeStore()
    clock = clock or FixedClock(T0)
    player = player or uuid.uuid4()
    view = handlers.start_chronovore_match(
        handlers.StartMatch(player, uuid.uuid4()),
        cards or FakeCards(),
        store.uow,
        clock,
        SeededRandomSource(seed),
    )
    return store, clock, player, view


def act(store, clock, player, view, action, key=None):
    cmd = handlers.Act(player, uuid.UUID(view["id"]), view["version"], action, key, game=GAME)
    with store.uow() as uow:
        return handlers.act(cmd, uow, clock)


def cpu_slotted(store, view) -> list[str]:
    """The names of the CPU's slotted cards in the stored state (what must stay hidden)."""
    state = store.matches.rows[uuid.UUID(view["id"])].state
    return [item.card.name for item in state.side("cpu").slots if item is not None]


def cpu_hidden(store, view) -> set[str]:
    """The CPU's cards in hand or deck: never shown."""
    side = store.matches.rows[uuid.UUID(view["id"])].state.side("cpu")
    return {item.card.name for item in (*side.hand, *side.deck)}


def test_every_configured_cpu_deck_is_a_legal_deck_of_the_core_set():
    definitions = core_definitions()
    for deck in chronovore.CPU_DECKS.values():
        built = chronovore.cpu_deck(deck, list(definitions.values()))
        assert len(built) == 30 and card_problems(built) == []
        assert {c.card_class.value for c in built} <= {deck.card_class, "neutral"}


def test_a_cpu_deck_card_not_published_yet_is_a_503_to_try_again():
    definitions = [d for d in core_definitions().values() if d["name"] != "Dreadnought"]
    with pytest.raises(ServiceUnavailable) as caught:
        chronovore.cpu_deck(chronovore.CPU_DECKS[chronovore.STANDARD], definitions)
    assert caught.value.code == "cpu_deck_unavailable"


def test_a_deck_the_engine_cannot_play_is_refused_and_nothing_is_stored():
    store = FakeStore()
    with pytest.raises(InvalidInput) as caught:
        start(store, cards=FakeCards(class_deck("medic")[:29]))
    assert caught.value.code == "deck_not_playable"
    assert store.matches.rows == {}


def test_a_start_asks_cards_for_a_chronovore_deck_and_the_cpu_is_locked_in_round_one():
    cards = FakeCards()
    store, _, _, view = start(cards=cards)
    assert cards.asked == [GAME]  # another game's deck is not found by cards
    assert (view["status"], view["round"], view["seat"], view["mode"]) == (
        "active",
        1,
        "player",
        "cpu",
    )
    assert view["deadline"] == (T0 + CHOOSING).isoformat()
    assert store.matches.rows[uuid.UUID(view["id"])].deadline == T0 + CHOOSING
    assert len(view["you"]["hand"]) == 7 and view["you"]["slots"] == [None] * 4
    opponent = view["opponent"]
    assert opponent["locked"] is True and opponent["kind"] == "cpu"
    assert opponent["slots"].count("face_down") == len(cpu_slotted(store, view)) > 0
    assert {"kind": "lock"} in view["legal_actions"]


def test_no_answer_shows_the_cpus_slotted_hand_or_deck_cards_before_their_pair_resolves():
    store, clock, player, view = start()
    hidden = set(cpu_slotted(store, view)) | cpu_hidden(store, view)
    assert hidden
    uid = view["you"]["hand"][0]["uid"]
    answers = [view, act(store, clock, player, view, {"kind": "place", "card": uid, "slot": 0})]
    with store.uow() as uow:
        answers.append(handlers.get_match(player, uuid.UUID(view["id"]), uow, clock, GAME))
        answers.append(handlers.history(player, uuid.UUID(view["id"]), uow, clock, GAME))
    for answer in answers:
        text = json.dumps(answer)
        assert not [name for name in hidden if name in text]
    entries = answers[-1]["entries"]
    assert all("card" not in e["action"] for e in entries if e["seat"] == "cpu")
    assert any(e["action"]["kind"] == "place" and "slot" in e["action"] for e in entries)


def test_locking_in_resolves_the_round_pair_by_pair_and_reveals_only_resolved_pairs():
    store, clock, player, view = start()
    slotted = cpu_slotted(store, view)
    answer = act(store, clock, player, view, {"kind": "lock"})
    types = [e["type"] for e in answer["events"]]
    assert types[:2] == ["locked", "heroes_entered"]
    revealed = answer["revealed"]
    cpu_cards = [p["cards"]["cpu"]["card"]["name"] for p in revealed if p["cards"]["cpu"]]
    assert cpu_cards == slotted[: len(cpu_cards)]
    # Round 1 cannot drop a hero at 30 Health: round 2 starts, its 2 minutes from now.
    assert answer["round"] == 2 and answer["deadline"] == (T0 + CHOOSING).isoformat()


def play_to_the_end(store, clock, player, view):
    """Lock in (with empty slots) until the match is over; returns the last answer."""
    for _ in range(Settings().rounds):
        view = act(store, clock, player, view, {"kind": "lock"})
        if view["status"] == "finished":
            return view
    raise AssertionError("five locks end a match")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_whole_match_of_locks_ends_with_results_and_one_match_finished(seed):
    store, clock, player, view = start(seed=seed)
    end = play_to_the_end(store, clock, player, view)
    assert end["result"] in ("win", "loss", "draw") and end["legal_actions"] == []
    assert end["results"]["player"] == end["result"]
    match = store.matches.rows[uuid.UUID(view["id"])]
    [finished] = [e for e in store.events.added if e.contract is MATCH_FINISHED]
    seats = {s["seat"]: (s["kind"], s["result"]) for s in finished.data["seats"]}
    assert seats["player"] == ("player", end["result"])
    assert finished.data["game"] == GAME and match.deadline is None
    # Against the CPU the player's own requests are their own answer: no push.
    assert not [e for e in store.events.added if e.contract is MATCH_UPDATED]
    steps = store.matches.steps(match.id)
    log = [(s.seat, CHRONOVORE.action_from_json(s.action), s.at) for s in steps]
    assert CHRONOVORE.replay(None, _brings(store, match), match.seed, T0, log) == match.state


def _brings(store, match):
    initial = store.matches.initial[match.id]
    return {seat: [i.card for i in _all(initial, seat)] for seat in initial.seats}


def _all(state, seat):
    side = state.side(seat)
    return sorted((*side.hand, *side.deck), key=lambda i: i.uid)


def test_the_choosing_step_ends_at_two_minutes_by_the_sweeper_not_before():
    store, clock, _, view = start()
    match_id = uuid.UUID(view["id"])
    clock.set(T0 + CHOOSING - TICK)
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 0
    clock.set(T0 + CHOOSING)
    with store.uow() as uow:
        assert handlers.expire_overdue(uow, clock) == 1
    match = store.matches.rows[match_id]
    assert store.matches.steps(match_id)[-1].at == T0 + CHOOSING
    timed = [s for s in store.matches.steps(match_id) if s.seat == "player"]
    assert [s.action for s in timed] == [{"kind": "lock"}]
    assert timed[0].events[0] == {"type": "locked", "seat": "player", "timed_out": True}
    [update] = [e for e in store.events.added if e.contract is MATCH_UPDATED]
    assert update.data["game"] == GAME and update.data["version"] == match.version
    assert match.state.round == 2 and match.deadline == T0 + 2 * CHOOSING
    assert update.data["to_act"] == ["player"]  # the CPU locked round 2 at once
    assert update.data["deadline"] == T0 + 2 * CHOOSING


def test_arranging_at_the_deadline_is_refused_and_a_read_locks_the_row_as_placed():
    store, clock, player, view = start()
    uid = view["you"]["hand"][0]["uid"]
    placed = act(store, clock, player, view, {"kind": "place", "card": uid, "slot": 2})
    clock.set(T0 + CHOOSING)
    second = placed["you"]["hand"][0]["uid"]
    with pytest.raises(Conflict) as caught:
        act(store, clock, player, placed, {"kind": "place", "card": second, "slot": 0})
    assert caught.value.code == "choosing_time_over"
    with store.uow() as uow:
        seen = handlers.get_match(player, uuid.UUID(view["id"]), uow, clock, GAME)
    player_steps = [
        s.action for s in store.matches.steps(uuid.UUID(view["id"])) if s.seat == "player"
    ]
    assert player_steps == [{"kind": "place", "card": uid, "slot": 2}, {"kind": "lock"}]
    # Round 1 cannot drop a hero at 30 Health: every pair resolved, the placed card in its slot.
    assert seen["revealed"][2]["cards"]["player"]["uid"] == uid


def test_one_active_cpu_match_per_player_and_another_games_routes_do_not_find_it():
    store, clock, player, view = start()
    with pytest.raises(Conflict) as caught:
        start(store, clock, player=player)
    assert caught.value.code == "active_match_exists"
    assert caught.value.details == {"match_id": view["id"]}
    with store.uow() as uow:
        assert handlers.active_match(player, uow, clock, GAME)["id"] == view["id"]
        with pytest.raises(NotFound):
            handlers.get_match(player, uuid.UUID(view["id"]), uow, clock)  # Quest's route
    left = act(store, clock, player, view, {"kind": "forfeit"})
    assert (left["status"], left["result"]) == ("finished", "left")
    assert start(store, clock, player=player)[3]["status"] == "active"


def test_chronovore_is_in_the_registry_with_its_cpu_and_one_active_mode():
    hosted = GAMES[GAME]
    assert hosted is chronovore.HOSTED and hosted.cpu is not None
    assert hosted.one_active == frozenset({"cpu", "pvp"})  # one of each at a time (ours)
    assert Settings().slots + 1 <= host.MAX_CPU_STEPS  # a whole row, then the lock
