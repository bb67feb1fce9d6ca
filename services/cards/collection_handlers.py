"""A player's own cards: the starter choice, the collection, saved decks.

Every use case takes the caller's player id from the gateway (never from the
body) and scopes every read to it, so another player's copies and decks are
indistinguishable from ids that do not exist. Each names its game (Quest unless
told: the API's card routes are Quest's) and applies that game's rules
(services/cards/games.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.kit.collection import CollectionRules, StarterRules, require_legal
from services.cards.deck_store import Deck
from services.cards.fairness_handlers import PlayerDraws
from services.cards.games import CARD_GAMES, CardGames, new_copies
from services.cards.ownership_store import StarterGrant
from services.cards.repository import CardsUnitOfWork
from services.cards.views import (
    card_face,
    card_faces,
    collection_view,
    deck_cards,
    deck_view,
    starter_view,
)
from shared.clock import Clock
from shared.content import Game
from shared.errors import Conflict, InvalidInput, NotFound, ServiceUnavailable, refusals_as
from shared.randomness import RandomSource

# The games' rules (games/) refuse without HTTP: here a broken rule is invalid
# input, and a starter set not all published is the service's passing unavailability.
_refusals = refusals_as(InvalidInput, starter_cards_unavailable=ServiceUnavailable)
STARTER_SOURCE = "starter"  # a starter grant's copies and fair roll (keyed by the player)


@dataclass(frozen=True)
class ChooseStarter:
    player_id: uuid.UUID
    affinity: str  # the starter choice (Quest's is an affinity)
    game: str = Game.QUEST


@dataclass(frozen=True)
class SaveDeck:
    player_id: uuid.UUID
    name: str
    cards: Sequence[uuid.UUID]
    game: str = Game.QUEST


@dataclass(frozen=True)
class EditDeck:
    player_id: uuid.UUID
    deck_id: uuid.UUID
    expected_version: int
    name: str | None = None
    cards: Sequence[uuid.UUID] | None = None
    game: str | None = None  # the route's game: a deck of another game is not found


# -- starter grant ------------------------------------------------------------------


def _existing_starter(uow: CardsUnitOfWork, grant: StarterGrant, asked: str) -> dict[str, Any]:
    """A retry of the same choice returns the persisted grant; another choice is refused."""
    if grant.affinity != asked:
        raise Conflict(
            "starter_already_chosen",
            f"the starter was already chosen ({grant.affinity}); it cannot be chosen again",
            {"affinity": grant.affinity},
        )
    return starter_view(grant, _starter_copies(uow, grant.player_id))


def _starter_copies(uow: CardsUnitOfWork, player_id: uuid.UUID) -> list[dict[str, Any]]:
    """The copies of the starter (Quest's: the only game with a starter grant)."""
    return uow.owned.granted_by(STARTER_SOURCE, player_id, Game.QUEST)


def _starter_rules(rules: CollectionRules) -> StarterRules:
    if rules.starter is None:
        raise NotFound("no_starter", f"{rules.game} has no starter grant")
    return rules.starter


@_refusals
def choose_starter(
    cmd: ChooseStarter,
    uow: CardsUnitOfWork,
    rng: RandomSource,
    clock: Clock,
    games: CardGames = CARD_GAMES,
) -> tuple[dict[str, Any], bool]:
    """Grant the starter set once; returns the grant and whether this call made it.

    One starter a player: the grants table is keyed by player (Quest is the only game
    with one; a second game's would key it by game too).
    """
    rules = games.rules(cmd.game)
    starter = _starter_rules(rules)
    affinity = starter.offered(cmd.affinity)
    uow.players.admit(cmd.player_id)
    existing = uow.starters.get(cmd.player_id)
    if existing is not None:
        return _existing_starter(uow, existing, affinity), False
    grant = StarterGrant(cmd.player_id, affinity, clock.now())
    if not uow.starters.add_if_new(grant):
        # A concurrent choice committed first (the insert waited for it).
        winner = uow.starters.get(cmd.player_id)
        assert winner is not None, "the conflicting insert has committed"
        return _existing_starter(uow, winner, affinity), False
    # Drawn once the grant is this call's (a refusal below rolls both back): a provably
    # fair roll of the player's seeds, stored with the grant, so a retry takes no nonce.
    draws = PlayerDraws(cmd.player_id, f"{cmd.game}.starter", uow.fairness, rng, clock)
    cards = starter.choose(
        uow.definitions.pool_by_name(cmd.game, starter.pool(affinity)),
        uow.definitions.active_in_lineages(cmd.game, starter.lineage_kind, starter.lineage_names),
        draws,
    )
    draws.record(STARTER_SOURCE, cmd.player_id)
    uow.owned.add_all(
        new_copies(
            rules,
            cmd.player_id,
            [card["id"] for card in cards],
            (STARTER_SOURCE, cmd.player_id),
            grant.granted_at,
        )
    )
    return starter_view(grant, _starter_copies(uow, cmd.player_id)), True


def get_starter(player_id: uuid.UUID, uow: CardsUnitOfWork) -> dict[str, Any]:
    grant = uow.starters.get(player_id)
    if grant is None:
        raise NotFound("starter_not_chosen", "you have not chosen a starter yet")
    return starter_view(grant, _starter_copies(uow, player_id))


# -- collection -------------------------------------------------------------------------


def catalogue(
    game: str, uow: CardsUnitOfWork, games: CardGames = CARD_GAMES
) -> list[dict[str, Any]]:
    """A game's active published definitions, by name, each snapshot with its face (a
    Chronovore card's keywords with their definitions, read now)."""
    rules = games.rules(game)
    return [
        {**row, "snapshot": {**row["snapshot"], **card_face(rules, row)}}
        for row in uow.definitions.active(game)
    ]


def get_collection_view(
    player_id: uuid.UUID,
    uow: CardsUnitOfWork,
    game: str = Game.QUEST,
    games: CardGames = CARD_GAMES,
) -> dict[str, Any]:
    copies = uow.owned.of_player(player_id, game)
    faces = card_faces(games.rules(game), uow.definitions, copies)
    return collection_view(player_id, copies, uow.starters.get(player_id), faces)


# -- decks ------------------------------------------------------------------------------


def _require_legal(
    rules: CollectionRules, copy_ids: Sequence[uuid.UUID], owned: dict[uuid.UUID, Any]
) -> None:
    require_legal(rules.assess_deck(copy_ids, deck_cards(rules.game, owned)))


@_refusals
def _legal_cards(
    uow: CardsUnitOfWork, rules: CollectionRules, player_id: uuid.UUID, cards: Sequence[uuid.UUID]
) -> None:
    """A list may be saved when legal, or (in a game with works in progress) when it
    breaks only rules a work in progress may break; its view shows every problem."""
    assessment = rules.assess_deck(
        cards, deck_cards(rules.game, uow.owned.of_player_by_ids(player_id, cards))
    )
    refused = [p for p in assessment.problems if p.code not in rules.work_in_progress]
    require_legal(replace(assessment, problems=tuple(refused)))


def _view(uow: CardsUnitOfWork, deck: Deck, games: CardGames) -> dict[str, Any]:
    owned = uow.owned.of_player_by_ids(deck.player_id, deck.copy_ids)
    rules = games.rules(deck.game)
    return deck_view(deck, owned, rules, card_faces(rules, uow.definitions, owned.values()))


def _own_deck(
    uow: CardsUnitOfWork,
    player_id: uuid.UUID,
    deck_id: uuid.UUID,
    *,
    for_update: bool = False,
    game: str | None = None,
) -> Deck:
    """The player's deck (of ``game`` when given: another game's is not found there)."""
    deck = uow.decks.get(player_id, deck_id, for_update=for_update)
    if deck is None or (game is not None and deck.game != game):
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
def create_deck(
    cmd: SaveDeck, uow: CardsUnitOfWork, clock: Clock, games: CardGames = CARD_GAMES
) -> dict[str, Any]:
    rules = games.rules(cmd.game)
    name = rules.clean_deck_name(cmd.name)
    uow.players.admit(cmd.player_id)  # also serialises creations: the deck limit holds
    if uow.decks.count(cmd.player_id, cmd.game) >= rules.max_decks_per_player:
        raise Conflict(
            "deck_limit_reached",
            f"you can keep at most {rules.max_decks_per_player} decks; delete one first",
        )
    _legal_cards(uow, rules, cmd.player_id, cmd.cards)
    now = clock.now()
    deck = Deck(uuid.uuid4(), cmd.player_id, cmd.game, name, 1, now, now, tuple(cmd.cards))
    uow.decks.add(deck)
    return _view(uow, deck, games)


@_refusals
def edit_deck(
    cmd: EditDeck, uow: CardsUnitOfWork, clock: Clock, games: CardGames = CARD_GAMES
) -> dict[str, Any]:
    """Rename (``name``), replace the cards (``cards``), or both; one version step."""
    if cmd.name is None and cmd.cards is None:
        raise InvalidInput("nothing_to_change", "send a new name, new cards, or both")
    uow.players.admit(cmd.player_id)
    deck = _own_deck(uow, cmd.player_id, cmd.deck_id, for_update=True, game=cmd.game)
    _check_version(deck, cmd.expected_version)
    rules = games.rules(deck.game)
    name = rules.clean_deck_name(cmd.name) if cmd.name is not None else deck.name
    if cmd.cards is not None:
        _legal_cards(uow, rules, cmd.player_id, cmd.cards)
    edited = Deck(
        deck.id,
        deck.player_id,
        deck.game,
        name,
        deck.version + 1,
        deck.created_at,
        clock.now(),
        tuple(cmd.cards) if cmd.cards is not None else deck.copy_ids,
    )
    uow.decks.save(edited, cards_changed=cmd.cards is not None)
    return _view(uow, edited, games)


def delete_deck(
    player_id: uuid.UUID,
    deck_id: uuid.UUID,
    expected_version: int,
    uow: CardsUnitOfWork,
    game: str | None = None,
) -> None:
    uow.players.admit(player_id)
    deck = _own_deck(uow, player_id, deck_id, for_update=True, game=game)
    _check_version(deck, expected_version)
    uow.decks.remove(deck.id)


def get_deck(
    player_id: uuid.UUID,
    deck_id: uuid.UUID,
    uow: CardsUnitOfWork,
    games: CardGames = CARD_GAMES,
    game: str | None = None,
) -> dict[str, Any]:
    return _view(uow, _own_deck(uow, player_id, deck_id, game=game), games)


@_refusals
def deck_for_match(
    player_id: uuid.UUID,
    deck_id: uuid.UUID,
    uow: CardsUnitOfWork,
    games: CardGames = CARD_GAMES,
    game: str | None = None,
) -> dict[str, Any]:
    """A legal saved deck with each card's full published definition, for a match snapshot.

    Owned copies keep their definition even after it is retired, so a deck stays
    playable; an illegal deck (it cannot be saved, but rules may change) is refused.
    """
    deck = _own_deck(uow, player_id, deck_id, game=game)
    owned = uow.owned.of_player_by_ids(player_id, deck.copy_ids)
    _require_legal(games.rules(deck.game), deck.copy_ids, owned)
    snapshots = uow.definitions.snapshots([owned[c]["definition_id"] for c in deck.copy_ids])
    return {
        "deck_id": deck.id,
        "game": deck.game,
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


def list_decks(
    player_id: uuid.UUID,
    uow: CardsUnitOfWork,
    game: str = Game.QUEST,
    games: CardGames = CARD_GAMES,
) -> list[dict[str, Any]]:
    return [_view(uow, deck, games) for deck in uow.decks.of_player(player_id, game)]
