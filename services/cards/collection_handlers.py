"""A player's own cards: the starter choice, the collection, saved decks.

Every use case takes the caller's player id from the gateway (never from the
body) and scopes every read to it, so another player's copies and decks are
indistinguishable from ids that do not exist.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.quest import decks as deck_rules
from games.quest import starter as starter_rules
from games.quest.canonical import QUEST_CANONICAL, CanonicalCards
from services.cards.deck_store import Deck
from services.cards.ownership_store import OwnedCopy, StarterGrant
from services.cards.repository import CardsUnitOfWork
from services.cards.views import collection_view, deck_card, deck_view, starter_view
from shared.clock import Clock
from shared.content import Game, Kind
from shared.errors import Conflict, InvalidInput, NotFound, ServiceUnavailable, refusals_as
from shared.randomness import RandomSource

# The Quest rules (games/quest) refuse without HTTP: here a broken rule is invalid
# input, and a starter set not all published is the service's passing unavailability.
_refusals = refusals_as(InvalidInput, starter_cards_unavailable=ServiceUnavailable)


@dataclass(frozen=True)
class ChooseStarter:
    player_id: uuid.UUID
    affinity: str


@dataclass(frozen=True)
class SaveDeck:
    player_id: uuid.UUID
    name: str
    cards: Sequence[uuid.UUID]


@dataclass(frozen=True)
class EditDeck:
    player_id: uuid.UUID
    deck_id: uuid.UUID
    expected_version: int
    name: str | None = None
    cards: Sequence[uuid.UUID] | None = None


# -- starter grant ------------------------------------------------------------------


def _existing_starter(uow: CardsUnitOfWork, grant: StarterGrant, asked: str) -> dict[str, Any]:
    """A retry of the same choice returns the persisted grant; another choice is refused."""
    if grant.affinity != asked:
        raise Conflict(
            "starter_already_chosen",
            f"the starter was already chosen ({grant.affinity}); it cannot be chosen again",
            {"affinity": grant.affinity},
        )
    return starter_view(grant, uow.owned.granted_by("starter", grant.player_id))


@_refusals
def choose_starter(
    cmd: ChooseStarter,
    uow: CardsUnitOfWork,
    rng: RandomSource,
    clock: Clock,
    canonical: CanonicalCards = QUEST_CANONICAL,
) -> tuple[dict[str, Any], bool]:
    """Grant the starter set once; returns the grant and whether this call made it."""
    affinity = starter_rules.offered_affinity(cmd.affinity)
    uow.players.admit(cmd.player_id)
    existing = uow.starters.get(cmd.player_id)
    if existing is not None:
        return _existing_starter(uow, existing, affinity), False
    cards = starter_rules.choose_starter_cards(
        uow.definitions.starter_creatures(Game.QUEST, affinity),
        uow.definitions.active_in_lineages(
            Game.QUEST, Kind.POWER_CARD, canonical.starter_power_cards
        ),
        rng,
    )
    grant = StarterGrant(cmd.player_id, affinity, clock.now())
    if not uow.starters.add_if_new(grant):
        # A concurrent choice committed first (the insert waited for it).
        winner = uow.starters.get(cmd.player_id)
        assert winner is not None, "the conflicting insert has committed"
        return _existing_starter(uow, winner, affinity), False
    uow.owned.add_all(
        [
            OwnedCopy(
                uuid.uuid4(), cmd.player_id, card["id"], "starter", cmd.player_id, grant.granted_at
            )
            for card in cards
        ]
    )
    return starter_view(grant, uow.owned.granted_by("starter", cmd.player_id)), True


def get_starter(player_id: uuid.UUID, uow: CardsUnitOfWork) -> dict[str, Any]:
    grant = uow.starters.get(player_id)
    if grant is None:
        raise NotFound("starter_not_chosen", "you have not chosen a starter yet")
    return starter_view(grant, uow.owned.granted_by("starter", player_id))


# -- collection -------------------------------------------------------------------------


def get_collection_view(player_id: uuid.UUID, uow: CardsUnitOfWork) -> dict[str, Any]:
    return collection_view(player_id, uow.owned.of_player(player_id), uow.starters.get(player_id))


# -- decks ------------------------------------------------------------------------------


@_refusals
def _legal_cards(uow: CardsUnitOfWork, player_id: uuid.UUID, cards: Sequence[uuid.UUID]) -> None:
    owned = uow.owned.of_player_by_ids(player_id, cards)
    deck_rules.require_legal(cards, {copy_id: deck_card(copy) for copy_id, copy in owned.items()})


def _view(uow: CardsUnitOfWork, deck: Deck) -> dict[str, Any]:
    return deck_view(deck, uow.owned.of_player_by_ids(deck.player_id, deck.copy_ids))


def _own_deck(
    uow: CardsUnitOfWork, player_id: uuid.UUID, deck_id: uuid.UUID, *, for_update: bool = False
) -> Deck:
    deck = uow.decks.get(player_id, deck_id, for_update=for_update)
    if deck is None:
        raise NotFound("deck_not_found", "you have no deck with this id")
    return deck


def _check_version(deck: Deck, expected_version: int) -> None:
    if deck.version != expected_version:
        raise Conflict(
            "stale_version",
            f"the deck is at version {deck.version}, not {expected_version}",
            {"version": deck.version},
        )


@_refusals
def create_deck(cmd: SaveDeck, uow: CardsUnitOfWork, clock: Clock) -> dict[str, Any]:
    name = deck_rules.clean_name(cmd.name)
    uow.players.admit(cmd.player_id)  # also serialises creations: the deck limit holds
    if uow.decks.count(cmd.player_id) >= deck_rules.MAX_DECKS_PER_PLAYER:
        raise Conflict(
            "deck_limit_reached",
            f"you can keep at most {deck_rules.MAX_DECKS_PER_PLAYER} decks; delete one first",
        )
    _legal_cards(uow, cmd.player_id, cmd.cards)
    now = clock.now()
    deck = Deck(uuid.uuid4(), cmd.player_id, name, 1, now, now, tuple(cmd.cards))
    uow.decks.add(deck)
    return _view(uow, deck)


@_refusals
def edit_deck(cmd: EditDeck, uow: CardsUnitOfWork, clock: Clock) -> dict[str, Any]:
    """Rename (``name``), replace the cards (``cards``), or both; one version step."""
    if cmd.name is None and cmd.cards is None:
        raise InvalidInput("nothing_to_change", "send a new name, new cards, or both")
    uow.players.admit(cmd.player_id)
    deck = _own_deck(uow, cmd.player_id, cmd.deck_id, for_update=True)
    _check_version(deck, cmd.expected_version)
    name = deck_rules.clean_name(cmd.name) if cmd.name is not None else deck.name
    if cmd.cards is not None:
        _legal_cards(uow, cmd.player_id, cmd.cards)
    edited = Deck(
        deck.id,
        deck.player_id,
        name,
        deck.version + 1,
        deck.created_at,
        clock.now(),
        tuple(cmd.cards) if cmd.cards is not None else deck.copy_ids,
    )
    uow.decks.save(edited, cards_changed=cmd.cards is not None)
    return _view(uow, edited)


def delete_deck(
    player_id: uuid.UUID, deck_id: uuid.UUID, expected_version: int, uow: CardsUnitOfWork
) -> None:
    uow.players.admit(player_id)
    deck = _own_deck(uow, player_id, deck_id, for_update=True)
    _check_version(deck, expected_version)
    uow.decks.remove(deck.id)


def get_deck(player_id: uuid.UUID, deck_id: uuid.UUID, uow: CardsUnitOfWork) -> dict[str, Any]:
    return _view(uow, _own_deck(uow, player_id, deck_id))


@_refusals
def deck_for_match(
    player_id: uuid.UUID, deck_id: uuid.UUID, uow: CardsUnitOfWork
) -> dict[str, Any]:
    """A legal saved deck with each card's full published definition, for a match snapshot.

    Owned copies keep their definition even after it is retired, so a deck stays
    playable; an illegal deck (it cannot be saved, but rules may change) is refused.
    """
    deck = _own_deck(uow, player_id, deck_id)
    owned = uow.owned.of_player_by_ids(player_id, deck.copy_ids)
    deck_rules.require_legal(
        deck.copy_ids, {copy_id: deck_card(copy) for copy_id, copy in owned.items()}
    )
    snapshots = uow.definitions.snapshots([owned[c]["definition_id"] for c in deck.copy_ids])
    return {
        "deck_id": deck.id,
        "version": deck.version,
        "cards": [
            {
                "copy_id": copy_id,
                "definition_id": owned[copy_id]["definition_id"],
                "kind": owned[copy_id]["kind"],
                "definition": snapshots[owned[copy_id]["definition_id"]],
            }
            for copy_id in deck.copy_ids
        ],
    }


def list_decks(player_id: uuid.UUID, uow: CardsUnitOfWork) -> list[dict[str, Any]]:
    return [_view(uow, deck) for deck in uow.decks.of_player(player_id)]
