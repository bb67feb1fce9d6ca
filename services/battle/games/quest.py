"""Quest in battle: the CPU match's seats and decks, and what its player may see.

The rules are ``games.quest`` (``QUEST``, ``QUEST_CPU``); this module adds what needs
the cards service's answers (the player's deck snapshot, the configured CPU deck by
lineage) and the shape of the Quest battle routes' answers. Views never show the
seed, the random state, the CPU's hand or bench, nor its selection before it is
revealed. Plain JSON values (times as ISO 8601 strings), ready for RPC.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from games.kit.refusal import Refusal
from games.quest import (
    QUEST,
    ActionKind,
    Deck,
    Side,
    creature_from_definition,
    power_card_from_definition,
    view_events,
)
from games.quest.cpu import CpuDeckNames
from games.quest.engine import CREATURES_PER_DECK, POWER_CARDS_PER_DECK, Settings
from games.quest.game import QUEST_CPU
from games.quest.state import MissedDeadline
from services.battle.games.terrakard import pseudonym
from services.battle.host import HostedGame, Match, Seat, SeatKind, Step
from shared.errors import InvalidInput, ServiceUnavailable

GAME = QUEST.game
CPU_MODE = "cpu"
ASYNC_MODE = "async"  # asynchronous PvP by invitation (docs/quest-pvp.md)
# Rulebook, "Asynchronous PvP": each turn or mandatory replacement has a 24-hour window,
# and missing it forfeits (ours: the initial selection has one too).
DECISION_SECONDS = 24 * 60 * 60
ASYNC_SETTINGS = Settings(turn_seconds=DECISION_SECONDS, missed_deadline=MissedDeadline.FORFEIT)
# The engine's sides: the challenger plays "player", the invited player "cpu" (a name of
# the engine's; the seat is a player's, and the views say "side" for it).
ASYNC_SEATS = (str(Side.PLAYER), str(Side.CPU))
# Ours (docs/quest-pvp.md, "Live PvP"): matches made by the queue; every turn and selection
# has a 60-second window, a missed one is a timeout, three in a row forfeit.
LIVE_MODE = "live"
LIVE_SECONDS = 60
LIVE_SETTINGS = Settings(turn_seconds=LIVE_SECONDS, missed_deadline=MissedDeadline.LIVE)
DELETED_PLAYER = "Deleted player"  # rulebook: shared history against a profile-free actor

# -- seats and decks ----------------------------------------------------------------------

_BAD_CARD = (KeyError, TypeError, ValueError, Refusal)


class CardsCatalogue(Protocol):
    """The cards service, as far as a match start needs it."""

    def deck_for_match(
        self, player_id: str, deck_id: str, game: str | None = None
    ) -> dict[str, Any]: ...

    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]: ...


def cpu_match_seats(player_id: uuid.UUID, deck_id: uuid.UUID, deck_version: int) -> list[Seat]:
    """A CPU match: the player with their saved deck, and the CPU."""
    return [
        Seat(str(Side.PLAYER), SeatKind.PLAYER, player_id, deck_id, deck_version),
        Seat(str(Side.CPU), SeatKind.CPU),
    ]


def cpu_match_setup(
    cards: CardsCatalogue, cpu_names: CpuDeckNames, player_id: uuid.UUID, deck_id: uuid.UUID
) -> tuple[list[Seat], dict[str, Deck]]:
    """The seats of a CPU match and the decks they bring: the player's saved deck as
    cards snapshots it (refusing an illegal or foreign one) and the configured CPU deck,
    each card the active version of its lineage."""
    deck = cards.deck_for_match(player_id=str(player_id), deck_id=str(deck_id), game=GAME)
    player = player_deck(deck["cards"])
    cpu = cpu_deck(
        cpu_names,
        cards.active_definitions_named(game=GAME, kind="creature", names=list(cpu_names.creatures)),
        cards.active_definitions_named(
            game=GAME, kind="power_card", names=list(cpu_names.power_cards)
        ),
    )
    seats = cpu_match_seats(player_id, uuid.UUID(str(deck["deck_id"])), int(deck["version"]))
    return seats, {str(Side.PLAYER): player, str(Side.CPU): cpu}


def player_deck(cards: Sequence[Mapping[str, Any]]) -> Deck:
    """The engine deck from cards' ``deck_for_match`` cards, in the deck's order."""
    try:
        creatures = tuple(
            creature_from_definition(str(c["definition_id"]), c["definition"])
            for c in cards
            if c["kind"] == "creature"
        )
        power_cards = tuple(
            power_card_from_definition(str(c["definition_id"]), c["definition"])
            for c in cards
            if c["kind"] == "power_card"
        )
    except _BAD_CARD as exc:
        raise InvalidInput(
            "deck_not_playable", "a card of this deck cannot be played in a match"
        ) from exc
    if len(creatures) != CREATURES_PER_DECK or len(power_cards) != POWER_CARDS_PER_DECK:
        raise InvalidInput("deck_not_playable", "a match needs 3 Creatures and 2 Power cards")
    return Deck(creatures, power_cards)


def _named(name: str) -> str:
    return name.strip().lower()  # as authoring keeps names unique


def _pick(name: str, kind: str, definitions: Sequence[Mapping[str, Any]]) -> Any:
    """The active version of the lineage founded as ``name``, if it makes a playable card."""
    build = creature_from_definition if kind == "creature" else power_card_from_definition
    for found in definitions:
        if _named(str(found.get("lineage_name", ""))) != _named(name):
            continue
        try:
            return build(str(found["id"]), found["definition"])
        except _BAD_CARD:
            continue
    raise ServiceUnavailable(
        "cpu_deck_unavailable", f"the CPU deck's {name} is not available; try again later"
    )


def cpu_deck(
    names: CpuDeckNames,
    creatures: Sequence[Mapping[str, Any]],
    power_cards: Sequence[Mapping[str, Any]],
) -> Deck:
    """The CPU deck from ``active_definitions_named`` results, in the configured order."""
    return Deck(
        tuple(_pick(n, "creature", creatures) for n in names.creatures),
        tuple(_pick(n, "power_card", power_cards) for n in names.power_cards),
    )


# -- views --------------------------------------------------------------------------------


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _opponent_name(match: Match, seat: Seat) -> str | None:
    """The other player's pseudonym in a match against a player ("Deleted player" once
    their account is gone); None against the CPU."""
    other = next((s for s in match.seats if s.name != seat.name), None)
    if other is None or other.kind is not SeatKind.PLAYER:
        return None
    return DELETED_PLAYER if other.player_id is None else pseudonym(other.player_id)


def _now(match: Match, seat: Seat) -> Seat:
    """The seat as it is in ``match`` (an action's answer: with the result it just got)."""
    return next(s for s in match.seats if s.name == seat.name)


def player_view(match: Match, seat: Seat) -> dict[str, Any]:
    """The engine's view for ``seat``, with the match's own fields."""
    seat = _now(match, seat)
    return {
        **QUEST.view(match.state, seat.name),
        "id": str(match.id),
        "mode": match.mode,
        "deck_id": str(seat.ref_id),
        "status": str(match.status),
        "outcome": seat.result,
        "opponent_name": _opponent_name(match, seat),
        "version": match.version,
        "deadline": _time(match.deadline),
        "created_at": _time(match.created_at),
        "updated_at": _time(match.updated_at),
        "finished_at": _time(match.finished_at),
    }


def result_view(match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
    """The answer to an action: the match now, and what happened as the seat may see it."""
    events = [event for step in steps for event in step.events]
    return {**player_view(match, seat), "events": view_events(events, Side(seat.name))}


def history_view(match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
    """The action log as ``seat`` may see it.

    The other side's selection stays without its index until a later (or the same) step
    reveals it (``creatures_revealed``); its unrevealed choice is hidden in its events too.
    """
    entries: list[dict[str, Any]] = []
    revealed = False
    for step in reversed(steps):
        revealed = revealed or any(e.get("type") == "creatures_revealed" for e in step.events)
        action = dict(step.action)
        hidden = step.seat != seat.name and action.get("kind") == ActionKind.SELECT_CREATURE
        if hidden and not revealed:
            action = {"kind": str(ActionKind.SELECT_CREATURE)}
        entries.append(
            {
                "seq": step.version,
                "side": step.seat,
                "action": action,
                "at": _time(step.at),
                "events": view_events(step.events, Side(seat.name)),
            }
        )
    entries.reverse()
    return {
        "match_id": str(match.id),
        "status": str(match.status),
        "outcome": _now(match, seat).result,
        "opponent_name": _opponent_name(match, seat),
        "version": match.version,
        "entries": entries,
    }


class QuestViews:
    """The Quest battle routes' answers, each as the asking seat may see the match."""

    def match(self, match: Match, seat: Seat) -> dict[str, Any]:
        return player_view(match, seat)

    def result(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return result_view(match, seat, steps)

    def history(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return history_view(match, seat, steps)


# Rulebook, "CPU battles": "A player may have only one active CPU match."
HOSTED = HostedGame(QUEST, QuestViews(), QUEST_CPU, one_active=frozenset({CPU_MODE, LIVE_MODE}))
