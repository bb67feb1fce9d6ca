"""Quest as a game of ``deckyard balance``: its engine, decks, CPU, score and cards.

Decks are named by card name from the shipped catalogue **as installs have it**: the
founding versions of ``services/authoring/seed/quest_cards.json`` with every
replacement of ``quest_card_replacements.json`` applied in order (the seed publishes
those as new versions of the same lineage, each superseding the one before; the CPU
deck and starter grants use a lineage's active version). So a simulation plays the
numbers a player meets.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from games.quest import QUEST, Action, ActionKind, Deck, creature_from_definition
from games.quest import power_card_from_definition as power_card
from games.quest.cpu import CPU_DECK, cpu_action
from games.quest.engine import Settings
from games.quest.state import MatchState, Side

SEED_DIR = Path(__file__).parents[1] / "services/authoring/seed"
FOUNDERS = SEED_DIR / "quest_cards.json"
REPLACEMENTS = SEED_DIR / "quest_card_replacements.json"
STARTER_AFFINITIES = ("Wit", "Grit", "Spark")  # rulebook: the starters offered
STARTER_POWER_CARDS = ("Field Kit", "Reserve Focus")
DECIDED = 10.0  # a won (lost) match's score: above (below) any HP share difference

Catalogue = dict[str, dict[str, Any]]  # card name -> {"kind", "body"}


def _entries(path: Path) -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def load_catalogue(
    founders: Path = FOUNDERS, replacements: Path | None = REPLACEMENTS
) -> Catalogue:
    """Each lineage's active version by its founding name (replacements applied in order)."""
    catalogue = {entry["body"]["name"]: entry for entry in _entries(founders)}
    for entry in _entries(replacements) if replacements is not None else []:
        lineage = entry["replaces"].removeprefix("card:")
        name = next(n for n in catalogue if n.casefold() == lineage)
        catalogue[name] = {"kind": entry["kind"], "body": entry["body"]}
    return catalogue


def deck(catalogue: Mapping[str, Mapping[str, Any]], names: Sequence[str]) -> Deck:
    """The engine's deck of those cards, by name (Creatures, then Power cards)."""
    unknown = [n for n in names if n not in catalogue]
    if unknown:
        raise ValueError(f"not in the catalogue: {', '.join(unknown)}")
    creatures = tuple(
        creature_from_definition(f"seed-{n}", catalogue[n]["body"])
        for n in names
        if catalogue[n]["kind"] == "creature"
    )
    cards = tuple(
        power_card(f"seed-{n}", catalogue[n]["body"])
        for n in names
        if catalogue[n]["kind"] == "power_card"
    )
    return Deck(creatures, cards)


def starter_deck(catalogue: Mapping[str, Mapping[str, Any]], affinity: str) -> tuple[str, ...]:
    """The deck a new player of ``affinity`` can build: its three starter Creatures (the
    grant's Common, non-evolved, starter-flagged Creatures) and the two starter cards."""
    creatures = sorted(
        name
        for name, entry in catalogue.items()
        if entry["kind"] == "creature"
        and entry["body"].get("starter")
        and entry["body"].get("affinity") == affinity
        and entry["body"].get("rarity") == "Common"
        and not entry["body"].get("evolved")
    )
    return (*creatures, *STARTER_POWER_CARDS)


CPU_NAMES = (*CPU_DECK.creatures, *CPU_DECK.power_cards)


def score(state: MatchState, seat: str) -> float:
    """A state's worth to ``seat``: a decided match, else the share of HP each side keeps."""
    side = Side(seat)
    if state.winner is not None:
        return DECIDED if state.winner == side else -DECIDED

    def share(s: Side) -> float:
        creatures = state.side(s).creatures
        return sum(c.hp for c in creatures) / sum(c.card.max_hp for c in creatures)

    return share(side) - share(side.other)


def cards_played(state: MatchState, seat: str, action: Action) -> tuple[str, ...]:
    """The card ``action`` plays: the active Creature of a move, or the Power card."""
    own = state.side(Side(seat))
    if action.kind is ActionKind.USE_MOVE and own.active is not None:
        return (own.creatures[own.active].card.name,)
    if action.kind is ActionKind.PLAY_POWER_CARD and action.index is not None:
        return (own.power_cards[action.index].name,)
    return ()


def settings() -> Settings:
    return Settings()


ENGINE = QUEST
CPU = cpu_action
