"""Chronovore as a game of ``deckyard balance``: its engine, decks, CPU, score and cards.

The game's own simulation code does the work (``games.chronovore.balance``,
docs/balance/chronovore.md): a new player's deck is drawn for every match from a new
account's starting packs (``starting_collection``, then ``starter_deck`` of one class),
the greedy player is the kit's one-ply greedy on ``greedy_score``, the CPU is
``cpu_action`` with a configured deck (``services/battle/games/chronovore_cpu_decks.json``:
``standard``, or ``training``, the one a player's first CPU matches are against), and a
seat still arranging its row after ``MAX_STEPS`` actions is locked by the clock. The
cards are the Core Set's (``services/authoring/seed/chronovore_core_set.json``), by
founding name.

Named decks: ``cpu`` (the CPU's standard deck), ``cpu:training`` (its training deck),
``new:<class>`` (a new player's, drawn each match)
and ``class:<class>`` (any legal deck of the class from the whole Core Set, drawn each
match, as the class checks draw it). The player takes the first seat in half the
matches (by the match's seed), as the game's band does.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.chronovore.actions import Action, ActionKind
from games.chronovore.balance import (
    CLASSES as CLASSES,  # the classes, for the reports and tests
)
from games.chronovore.balance import (
    MAX_STEPS,
    class_deck,
    greedy_score,
    starter_deck,
    starting_collection,
)
from games.chronovore.cards import Card, card_from_definition
from games.chronovore.cpu import cpu_action
from games.chronovore.game import CHRONOVORE
from games.chronovore.state import MatchState, Result, Settings
from games.kit.chance import RandomState
from games.kit.protocol import Seat

ROOT = Path(__file__).parents[1]
CORE_SET = ROOT / "services/authoring/seed/chronovore_core_set.json"
CPU_DECKS = ROOT / "services/battle/games/chronovore_cpu_decks.json"
CPU_DIFFICULTY = "standard"
TRAINING = "training"  # the CPU's deck for a player's first CPU matches
SEATS = ("player", "cpu")
NEW, CLASS = "new:", "class:"

Catalogue = dict[str, dict[str, Any]]  # card name -> {"kind", "body"}


def load_catalogue() -> Catalogue:
    entries = json.loads(CORE_SET.read_text(encoding="utf-8"))
    return {e["body"]["name"]: {"kind": e["kind"], "body": e["body"]} for e in entries}


def _cards(catalogue: Mapping[str, Mapping[str, Any]]) -> list[Card]:
    return [card_from_definition(e["kind"], e["body"]) for e in catalogue.values()]


def deck(catalogue: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> list[Card]:
    """The cards of ``names`` (a name once a copy)."""
    unknown = [n for n in names if n not in catalogue]
    if unknown:
        raise ValueError(f"not in the catalogue: {', '.join(unknown)}")
    return [card_from_definition(catalogue[n]["kind"], catalogue[n]["body"]) for n in names]


def cpu_names(difficulty: str = CPU_DIFFICULTY) -> tuple[str, ...]:
    """The configured CPU deck of ``difficulty``, a name once a copy."""
    counts = json.loads(CPU_DECKS.read_text(encoding="utf-8"))[difficulty]["cards"]
    return tuple(name for name, count in counts.items() for _ in range(count))


def named_decks(catalogue: Mapping[str, Mapping[str, Any]]) -> dict[str, tuple[str, ...]]:
    decks = {"cpu": cpu_names(), "cpu:" + TRAINING: cpu_names(TRAINING)}
    for card_class in CLASSES:
        decks[NEW + card_class] = (NEW + card_class,)
        decks[CLASS + card_class] = (CLASS + card_class,)
    return decks


def _deck_of(
    catalogue: Mapping[str, Mapping[str, Any]], names: tuple[str, ...], rng: RandomState
) -> tuple[list[Card], RandomState]:
    recipe = names[0] if len(names) == 1 else ""
    if recipe.startswith(NEW) and recipe.removeprefix(NEW) in CLASSES:
        owned, rng = starting_collection(_cards(catalogue), rng)
        return starter_deck(owned, recipe.removeprefix(NEW), rng)
    if recipe.startswith(CLASS) and recipe.removeprefix(CLASS) in CLASSES:
        return class_deck(_cards(catalogue), recipe.removeprefix(CLASS), rng)
    return deck(catalogue, names), rng


def deal(
    catalogue: Mapping[str, Mapping[str, Any]], decks: Mapping[Seat, tuple[str, ...]], seed: int
) -> dict[Seat, Any]:
    """Each seat's deck for match ``seed`` (drawn ones from its seed), the player in the
    first seat when the seed is even."""
    rng = RandomState(seed=seed, stream="balance:decks")
    dealt: dict[Seat, Any] = {}
    for seat in SEATS:
        dealt[seat], rng = _deck_of(catalogue, decks[seat], rng)
    order = SEATS if seed % 2 == 0 else SEATS[::-1]
    return {seat: dealt[seat] for seat in order}


def cards_played(state: MatchState, seat: Seat, action: Action) -> tuple[str, ...]:
    """The cards a seat's row holds when it locks in: the cards it played that round."""
    if action.kind is not ActionKind.LOCK:
        return ()
    return tuple(item.card.name for item in state.side(seat).slots if item is not None)


def settings() -> Settings:
    return Settings()


ENGINE = CHRONOVORE
CPU = cpu_action
WINNING = frozenset({Result.WIN.value})
SCORE = greedy_score
STEPS = MAX_STEPS
