"""Chronovore in battle: the CPU match's seats and decks, and what a seat may see.

The rules are ``games.chronovore`` (``CHRONOVORE``, ``CHRONOVORE_CPU``); this module adds
what needs the cards service (the player's legal saved deck, the CPU's deck by lineage)
and the shape of the Chronovore match routes' answers. Every answer is built from the
engine's per-seat view and ``view_events``: the opponent's hand, deck and slotted cards
never leave the service before their pair resolves (docs/chronovore.md, "Face down").
Plain JSON values (times as ISO 8601 strings), ready for RPC.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol

from games.chronovore import CHRONOVORE, CHRONOVORE_CPU, Card, card_from_definition
from games.chronovore.content import CardKind
from games.chronovore.decks import card_problems
from games.chronovore.engine import HIDDEN_KINDS
from games.kit.refusal import Refusal
from services.battle.games.terrakard import pseudonym
from services.battle.host import HostedGame, Match, Seat, SeatKind, Status, Step
from shared.errors import InvalidInput, ServiceUnavailable

GAME = CHRONOVORE.game
CPU_MODE = "cpu"
PLAYER_SEAT = "player"
CPU_SEAT = "cpu"
PVP_MODE = "pvp"  # against another player (services/battle/pvp.py)
PVP_SEATS = ("first", "second")  # ours: the queue's earlier player, the inviter, is first

# -- the CPU's deck -----------------------------------------------------------------------

CPU_DECKS_FILE = Path(__file__).with_name("chronovore_cpu_decks.json")
STANDARD = "standard"  # ours: the CPU's deck once a player has had their training
TRAINING = "training"  # ours: the CPU's deck for a player's first matches
# Ours (docs/balance/chronovore.md, "The training deck"): how many of a player's first
# Chronovore CPU matches (started, whatever became of them) the CPU plays its weaker
# training deck; it plays the standard one from the next on.
TRAINING_MATCHES = 10


@dataclass(frozen=True)
class CpuDeck:
    """A configured CPU deck: Core Set lineages by founding name, with copy counts."""

    difficulty: str
    card_class: str
    cards: tuple[tuple[str, int], ...]

    @property
    def names(self) -> list[str]:
        return [name for name, _ in self.cards]


def load_cpu_decks(path: Path = CPU_DECKS_FILE) -> dict[str, CpuDeck]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return {
        difficulty: CpuDeck(difficulty, str(deck["class"]), tuple(deck["cards"].items()))
        for difficulty, deck in data.items()
        if not difficulty.startswith("_")
    }


CPU_DECKS = load_cpu_decks()


@dataclass(frozen=True)
class CpuDeckChoice:
    """The CPU's deck by how many CPU matches the player has started before this one:
    ``training`` for the first ``training_matches``, ``standard`` after."""

    training: CpuDeck
    standard: CpuDeck
    training_matches: int

    def pick(self, started_before: int) -> CpuDeck:
        return self.training if started_before < self.training_matches else self.standard

    @property
    def names(self) -> list[str]:
        return sorted({*self.training.names, *self.standard.names})


NEW_PLAYER_CPU = CpuDeckChoice(CPU_DECKS[TRAINING], CPU_DECKS[STANDARD], TRAINING_MATCHES)

# -- seats and decks ----------------------------------------------------------------------

_BAD_CARD = (KeyError, TypeError, ValueError, Refusal)


class CardsCatalogue(Protocol):
    """The cards service, as far as a Chronovore match start needs it."""

    def deck_for_match(
        self, player_id: str, deck_id: str, game: str | None = None
    ) -> dict[str, Any]: ...

    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]: ...


def cpu_match_seats(player_id: uuid.UUID, deck_id: uuid.UUID, deck_version: int) -> list[Seat]:
    """A CPU match: the player with their saved deck, and the CPU."""
    return [
        Seat(PLAYER_SEAT, SeatKind.PLAYER, player_id, deck_id, deck_version),
        Seat(CPU_SEAT, SeatKind.CPU),
    ]


def cpu_match_setup(
    cards: CardsCatalogue, cpu: CpuDeck, player_id: uuid.UUID, deck_id: uuid.UUID
) -> tuple[list[Seat], dict[str, list[Card]]]:
    """The seats of a CPU match and the decks they bring: the player's legal saved
    Chronovore deck as cards snapshots it (another game's deck is not found there, an
    illegal one refused) and the configured CPU deck, each card its lineage's active
    version."""
    seats, player, found = _setup(cards, cpu.names, player_id, deck_id)
    return seats, {PLAYER_SEAT: player, CPU_SEAT: cpu_deck(cpu, found)}


def cpu_match_decks(
    cards: CardsCatalogue, choice: CpuDeckChoice, player_id: uuid.UUID, deck_id: uuid.UUID
) -> tuple[list[Seat], list[Card], dict[str, list[Card]]]:
    """As ``cpu_match_setup``, with both CPU decks of ``choice`` built (by difficulty):
    which one the CPU brings is decided in the transaction that stores the match, from
    the player's matches there, and asking cards cannot wait until then."""
    seats, player, found = _setup(cards, choice.names, player_id, deck_id)
    built = {deck.difficulty: cpu_deck(deck, found) for deck in (choice.training, choice.standard)}
    return seats, player, built


def _setup(
    cards: CardsCatalogue, names: list[str], player_id: uuid.UUID, deck_id: uuid.UUID
) -> tuple[list[Seat], list[Card], list[dict[str, Any]]]:
    deck = cards.deck_for_match(player_id=str(player_id), deck_id=str(deck_id), game=GAME)
    player = player_deck(deck["cards"])
    found = [
        definition
        for kind in CardKind
        for definition in cards.active_definitions_named(game=GAME, kind=kind.value, names=names)
    ]
    seats = cpu_match_seats(player_id, uuid.UUID(str(deck["deck_id"])), int(deck["version"]))
    return seats, player, found


def player_deck(cards: Sequence[Mapping[str, Any]]) -> list[Card]:
    """The engine deck from cards' ``deck_for_match`` cards, in the deck's order."""
    try:
        deck = [card_from_definition(str(c["kind"]), c["definition"]) for c in cards]
    except _BAD_CARD as exc:
        raise InvalidInput(
            "deck_not_playable", f"a card of this deck cannot be played: {exc}"
        ) from None
    problems = card_problems(deck)
    if problems:
        raise InvalidInput("deck_not_playable", problems[0].message)
    return deck


def _named(name: str) -> str:
    return name.strip().lower()  # as authoring keeps names unique


def cpu_deck(cpu: CpuDeck, definitions: Sequence[Mapping[str, Any]]) -> list[Card]:
    """The CPU's deck from ``active_definitions_named`` results, in the configured order;
    a lineage missing (not published yet) is 503, the start can be tried again."""
    built: dict[str, Card] = {}
    for found in definitions:
        name = _named(str(found.get("lineage_name", "")))
        if name in built:
            continue
        try:
            built[name] = card_from_definition(str(found["kind"]), found["definition"])
        except _BAD_CARD:
            continue
    deck: list[Card] = []
    for name, count in cpu.cards:
        card = built.get(_named(name))
        if card is None:
            raise ServiceUnavailable(
                "cpu_deck_unavailable", f"the CPU deck's {name} is not available; try again later"
            )
        deck += [card] * count
    return deck


# -- views --------------------------------------------------------------------------------


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _seat(match: Match, seat: Seat) -> Seat:
    """The seat as the match holds it now (with its result once finished)."""
    return next(s for s in match.seats if s.name == seat.name)


def match_view(match: Match, seat: Seat) -> dict[str, Any]:
    """The engine's view for ``seat``, with the match's own fields and its legal actions."""
    seat = _seat(match, seat)
    active = match.status is Status.ACTIVE
    legal = CHRONOVORE.legal_actions(match.state, seat.name) if active else []
    opponent = next(s for s in match.seats if s.name != seat.name)
    view = CHRONOVORE.view(match.state, seat.name)
    view["opponent"]["kind"] = str(opponent.kind)
    view["opponent"]["name"] = opponent_name(match, seat)
    return {
        **view,
        "id": str(match.id),
        "mode": match.mode,
        "deck_id": None if seat.ref_id is None else str(seat.ref_id),
        "status": str(match.status),
        "result": seat.result,
        "version": CHRONOVORE.seen_version(match.state, seat.name),
        "deadline": _time(match.deadline),
        "legal_actions": [CHRONOVORE.action_to_json(a) for a in legal],
        "created_at": _time(match.created_at),
        "updated_at": _time(match.updated_at),
        "finished_at": _time(match.finished_at),
    }


def result_view(match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
    """The answer to an action: the match now, and what happened as ``seat`` may see it
    (its own step, the CPU's replies, each pair as it resolved)."""
    events = [event for step in steps for event in step.events]
    return {**match_view(match, seat), "events": CHRONOVORE.view_events(events, seat.name)}


def opponent_name(match: Match, seat: Seat) -> str | None:
    """Another player's pseudonym ("Deleted player" once their account is deleted); None
    for the computer."""
    opponent = next(s for s in match.seats if s.name != seat.name)
    return pseudonym(opponent.player_id) if opponent.kind is SeatKind.PLAYER else None


def _hidden_from(step: Step, seat: Seat) -> bool:
    """Another seat arranging its row: its opponent sees nothing of it, not even that it
    happened (docs/chronovore.md, "Face down"); the lock shows."""
    return step.seat != seat.name and step.action.get("kind") in HIDDEN_KINDS


def history_view(match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
    """The action log as ``seat`` may see it: without the other seat's hidden actions, each
    entry numbered by the version this seat saw it make (as its views are)."""
    seen = [step for step in steps if not _hidden_from(step, seat)]
    return {
        "match_id": str(match.id),
        "mode": match.mode,
        "opponent": opponent_name(match, seat),
        "status": str(match.status),
        "result": _seat(match, seat).result,
        "version": CHRONOVORE.seen_version(match.state, seat.name),
        "entries": [
            {
                "seq": seq,
                "seat": step.seat,
                "action": dict(step.action),
                "at": _time(step.at),
                "events": CHRONOVORE.view_events(step.events, seat.name),
            }
            for seq, step in enumerate(seen, start=1)
        ],
    }


class ChronovoreViews:
    """The Chronovore match routes' answers, for whichever seat asks."""

    def match(self, match: Match, seat: Seat) -> dict[str, Any]:
        return match_view(match, seat)

    def result(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return result_view(match, seat, steps)

    def history(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return history_view(match, seat, steps)


# Ours (the rulebook is silent; as Quest's): one active match against the computer per
# player, so a CPU match is resumed, not started again; and one active match against
# another player, beside it (docs/chronovore.md, "Against another player").
HOSTED = HostedGame(
    CHRONOVORE, ChronovoreViews(), CHRONOVORE_CPU, one_active=frozenset({CPU_MODE, PVP_MODE})
)
