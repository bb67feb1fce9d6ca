"""TerraKard in cards: the starting collection, attack decks and defense plans
(rules/terrakard.txt, "Attack deck and defense plan"; docs/terrakard.md, "Hosting").

The player's level reaches these use cases as an argument: accounts keeps the
progression points, and the caller (the gateway for a player's own requests, battle at
an attack's start) asks accounts for the level (``accounts.level``) just before. Every
save records that level on the player's row, which the arena reads. Decks are the
``decks`` table's (game ``terrakard``); plans are ``terrakard_plans``.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.collection import Problem, require_legal
from games.terrakard import config, demo_defenders
from games.terrakard.automatic import automatic_plan
from games.terrakard.collection import LOWEST_LEVEL, card_of, clean_name, starting_cards
from games.terrakard.content import GAME, Card
from games.terrakard.plans import (
    DefensePlan,
    Posture,
    ReserveCondition,
    assess_deck,
    assess_plan,
)
from services.cards.deck_store import Deck
from services.cards.games import CARD_GAMES, new_copies
from services.cards.repository import CardsUnitOfWork
from services.cards.terrakard_store import Plan
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput, NotFound, ServiceUnavailable, refusals_as

_refusals = refusals_as(InvalidInput, starter_cards_unavailable=ServiceUnavailable)
STARTER = "starter"


@dataclass(frozen=True)
class SavePlan:
    player_id: uuid.UUID
    level: int
    name: str
    rounds: Sequence[uuid.UUID]
    reserve: uuid.UUID
    condition: Mapping[str, Any]
    posture: str
    plan_id: uuid.UUID | None = None  # an edit
    expected_version: int | None = None
    activate: bool = False


# -- cards ----------------------------------------------------------------------------------


def _copy(copy: Mapping[str, Any]) -> dict[str, Any]:
    attributes = copy["attributes"]
    card = card_of(copy["id"], copy["name"], copy["rarity"], attributes)
    return {
        "id": copy["id"],
        "definition_id": copy["definition_id"],
        "name": card.name,
        "category": str(card.category),
        "rarity": str(card.rarity),
        "cost": card.cost,
        "atk": card.atk,
        "def": card.def_,
        "acquired_at": copy["acquired_at"],
    }


def _cards(owned: Mapping[uuid.UUID, Mapping[str, Any]], ids: Sequence[uuid.UUID]) -> list[Card]:
    return [
        card_of(c, owned[c]["name"], owned[c]["rarity"], owned[c]["attributes"])
        for c in ids
        if c in owned and owned[c]["game"] == GAME
    ]


def _owned(uow: CardsUnitOfWork, player_id: uuid.UUID, ids: Sequence[uuid.UUID]) -> Any:
    owned = uow.owned.of_player_by_ids(player_id, ids)
    return {k: v for k, v in owned.items() if v["game"] == GAME}


def _seen(uow: CardsUnitOfWork, player_id: uuid.UUID, level: int, clock: Clock) -> None:
    uow.terrakard.seen(player_id, level, clock.now())


def _budget(level: int) -> dict[str, int]:
    budget = config.budget_for(level)
    return {"level": level, "attack": budget.attack, "defense": budget.defense}


def collection(player_id: uuid.UUID, level: int, uow: CardsUnitOfWork) -> dict[str, Any]:
    """The player's TerraKard copies with their combat values, and the level's budgets."""
    player = uow.terrakard.player(player_id)
    return {
        "started": player is not None,
        "budget": _budget(level),
        "active_plan_id": None if player is None else player.active_plan_id,
        "cards": [_copy(c) for c in uow.owned.of_player(player_id, GAME)],
    }


@_refusals
def start(player_id: uuid.UUID, level: int, uow: CardsUnitOfWork, clock: Clock) -> dict[str, Any]:
    """The starting collection, once (ours: games/terrakard/collection.starting_cards);
    a second call returns the collection as it is."""
    uow.players.admit(player_id)
    now = clock.now()
    if uow.terrakard.start_if_new(player_id, level, now):
        chosen = starting_cards(uow.definitions.active(GAME))
        uow.owned.add_all(
            new_copies(
                CARD_GAMES.rules(GAME), player_id, [d["id"] for d in chosen],
                (STARTER, player_id), now,
            )
        )  # fmt: skip
    else:
        _seen(uow, player_id, level, clock)
    return collection(player_id, level, uow)


def _started(uow: CardsUnitOfWork, player_id: uuid.UUID) -> None:
    if uow.terrakard.player(player_id) is None:
        raise Conflict("terrakard_not_started", "claim your starting collection first")


# -- attack decks ---------------------------------------------------------------------------


def _deck_view(uow: CardsUnitOfWork, deck: Deck, level: int) -> dict[str, Any]:
    owned = _owned(uow, deck.player_id, deck.copy_ids)
    assessment = assess_deck(_cards(owned, deck.copy_ids), level)
    problems = list(assessment.problems)
    if len(owned) != len(set(deck.copy_ids)):
        problems.append(_not_owned())
    return {
        "id": deck.id,
        "name": deck.name,
        "version": deck.version,
        "created_at": deck.created_at,
        "updated_at": deck.updated_at,
        "cards": [_copy(owned[c]) for c in deck.copy_ids if c in owned],
        "cost": assessment.cost,
        "budget": config.budget_for(level).attack,
        "legal": not problems,
        "problems": [{"code": p.code, "message": p.message} for p in problems],
    }


def _not_owned() -> Problem:
    return Problem("card_not_owned", "every card must be one of your own copies")


def _legal_deck(
    uow: CardsUnitOfWork, player_id: uuid.UUID, level: int, ids: Sequence[uuid.UUID]
) -> None:
    owned = _owned(uow, player_id, ids)
    if len(owned) != len(set(ids)):
        raise InvalidInput("card_not_owned", "every card must be one of your own copies")
    require_legal(assess_deck(_cards(owned, ids), level))


def _own_deck(uow: CardsUnitOfWork, player_id: uuid.UUID, deck_id: uuid.UUID) -> Deck:
    deck = uow.decks.get(player_id, deck_id, for_update=True)
    if deck is None or deck.game != GAME:
        raise NotFound("deck_not_found", "you have no TerraKard deck with this id")
    return deck


def _check_version(version: int, expected: int | None) -> None:
    if expected is not None and version != expected:
        raise Conflict(
            "stale_version", f"it is at version {version}, not {expected}", {"version": version}
        )


@_refusals
def save_deck(
    player_id: uuid.UUID,
    level: int,
    name: str | None,
    cards: Sequence[uuid.UUID] | None,
    uow: CardsUnitOfWork,
    clock: Clock,
    deck_id: uuid.UUID | None = None,
    expected_version: int | None = None,
) -> dict[str, Any]:
    """Create (no ``deck_id``) or edit an attack deck: 8 cards within the level's budget."""
    uow.players.admit(player_id)
    _started(uow, player_id)
    _seen(uow, player_id, level, clock)
    now = clock.now()
    if deck_id is None:
        if name is None or cards is None:
            raise InvalidInput("validation_failed", "a new deck needs a name and its cards")
        if uow.decks.count(player_id, GAME) >= config.MAX_SAVED_DECKS:
            raise Conflict(
                "deck_limit_reached", f"you can keep at most {config.MAX_SAVED_DECKS} decks"
            )
        _legal_deck(uow, player_id, level, cards)
        deck = Deck(uuid.uuid4(), player_id, GAME, clean_name(name), 1, now, now, tuple(cards))
        uow.decks.add(deck)
        return _deck_view(uow, deck, level)
    found = _own_deck(uow, player_id, deck_id)
    _check_version(found.version, expected_version)
    if cards is not None:
        _legal_deck(uow, player_id, level, cards)
    deck = Deck(
        found.id, player_id, GAME, clean_name(name) if name is not None else found.name,
        found.version + 1, found.created_at, now,
        tuple(cards) if cards is not None else found.copy_ids,
    )  # fmt: skip
    uow.decks.save(deck, cards_changed=cards is not None)
    return _deck_view(uow, deck, level)


def delete_deck(
    player_id: uuid.UUID, deck_id: uuid.UUID, expected_version: int, uow: CardsUnitOfWork
) -> None:
    uow.players.admit(player_id)
    deck = _own_deck(uow, player_id, deck_id)
    _check_version(deck.version, expected_version)
    uow.decks.remove(deck.id)


def list_decks(player_id: uuid.UUID, level: int, uow: CardsUnitOfWork) -> list[dict[str, Any]]:
    return [_deck_view(uow, d, level) for d in uow.decks.of_player(player_id, GAME)]


# -- defense plans --------------------------------------------------------------------------


def _defense(owned: Mapping[uuid.UUID, Any], plan: Plan) -> DefensePlan | None:
    if any(c not in owned for c in plan.copy_ids):
        return None
    return DefensePlan(
        tuple(_cards(owned, plan.rounds)),
        _cards(owned, [plan.reserve])[0],
        ReserveCondition.from_dict(plan.condition),
        Posture(plan.posture),
    )


def _plan_view(
    uow: CardsUnitOfWork, plan: Plan, level: int, active: uuid.UUID | None
) -> dict[str, Any]:
    owned = _owned(uow, plan.player_id, plan.copy_ids)
    defense = _defense(owned, plan)
    if defense is None:
        problems = [_not_owned()]
        cost = sum(card_of(c, o["name"], o["rarity"], o["attributes"]).cost
                   for c, o in owned.items())  # fmt: skip
    else:
        assessment = assess_plan(defense, level)
        problems, cost = list(assessment.problems), assessment.cost
    return {
        "id": plan.id,
        "name": plan.name,
        "version": plan.version,
        "active": plan.id == active,
        "rounds": [_copy(owned[c]) for c in plan.rounds if c in owned],
        "reserve": _copy(owned[plan.reserve]) if plan.reserve in owned else None,
        "condition": dict(plan.condition),
        "posture": plan.posture,
        "cost": cost,
        "budget": config.budget_for(level).defense,
        "legal": not problems,
        "problems": [{"code": p.code, "message": p.message} for p in problems],
        "created_at": plan.created_at,
        "updated_at": plan.updated_at,
    }


@_refusals
def save_plan(cmd: SavePlan, uow: CardsUnitOfWork, clock: Clock) -> dict[str, Any]:
    """Create or edit a defense plan (legal at the player's level), active if asked.
    An attack snapshots the plan at its start: a change counts from the next attack."""
    uow.players.admit(cmd.player_id)
    _started(uow, cmd.player_id)
    _seen(uow, cmd.player_id, cmd.level, clock)
    condition = ReserveCondition.from_dict(cmd.condition).to_dict()
    try:
        posture = Posture(cmd.posture)
    except ValueError:
        raise InvalidInput("invalid_posture", f"{cmd.posture!r} is not a posture") from None
    now = clock.now()
    if cmd.plan_id is None:
        if uow.terrakard.count_plans(cmd.player_id) >= config.MAX_SAVED_PLANS:
            raise Conflict(
                "plan_limit_reached", f"you can keep at most {config.MAX_SAVED_PLANS} plans"
            )
        plan_id, version, created = uuid.uuid4(), 1, now
    else:
        found = uow.terrakard.plan(cmd.player_id, cmd.plan_id, for_update=True)
        if found is None:
            raise NotFound("plan_not_found", "you have no plan with this id")
        _check_version(found.version, cmd.expected_version)
        plan_id, version, created = found.id, found.version + 1, found.created_at
    plan = Plan(
        plan_id, cmd.player_id, clean_name(cmd.name), version, tuple(cmd.rounds), cmd.reserve,
        condition, str(posture), created, now,
    )  # fmt: skip
    owned = _owned(uow, cmd.player_id, plan.copy_ids)
    defense = _defense(owned, plan)
    if defense is None:
        raise InvalidInput("card_not_owned", "every card must be one of your own copies")
    require_legal(assess_plan(defense, cmd.level))
    uow.terrakard.save_plan(plan)
    if cmd.activate:
        uow.terrakard.activate(cmd.player_id, plan.id)
    player = uow.terrakard.player(cmd.player_id)
    return _plan_view(uow, plan, cmd.level, None if player is None else player.active_plan_id)


def activate_plan(
    player_id: uuid.UUID, plan_id: uuid.UUID, level: int, uow: CardsUnitOfWork, clock: Clock
) -> dict[str, Any]:
    uow.players.admit(player_id)
    _started(uow, player_id)
    plan = uow.terrakard.plan(player_id, plan_id)
    if plan is None:
        raise NotFound("plan_not_found", "you have no plan with this id")
    view = _plan_view(uow, plan, level, plan.id)
    if not view["legal"]:
        first = view["problems"][0]
        raise InvalidInput(first["code"], first["message"], {"problems": view["problems"]})
    uow.terrakard.activate(player_id, plan.id)
    _seen(uow, player_id, level, clock)
    return view


def delete_plan(
    player_id: uuid.UUID, plan_id: uuid.UUID, expected_version: int, uow: CardsUnitOfWork
) -> None:
    uow.players.admit(player_id)
    plan = uow.terrakard.plan(player_id, plan_id, for_update=True)
    if plan is None:
        raise NotFound("plan_not_found", "you have no plan with this id")
    _check_version(plan.version, expected_version)
    uow.terrakard.remove_plan(plan.id)  # the active plan's pointer is set to null


def list_plans(player_id: uuid.UUID, level: int, uow: CardsUnitOfWork) -> list[dict[str, Any]]:
    player = uow.terrakard.player(player_id)
    active = None if player is None else player.active_plan_id
    return [_plan_view(uow, p, level, active) for p in uow.terrakard.plans(player_id)]


# -- for an attack (battle) -----------------------------------------------------------------


def _lineages(owned: Mapping[uuid.UUID, Any], ids: Sequence[uuid.UUID]) -> dict[str, str]:
    return {str(c): str(owned[c]["lineage_id"]) for c in ids}


@_refusals
def deck_for_attack(
    player_id: uuid.UUID, deck_id: uuid.UUID, level: int, uow: CardsUnitOfWork
) -> dict[str, Any]:
    """A legal attack deck at ``level`` as the engine's cards, with each card's lineage
    (battle adds the knowledge questions)."""
    deck = uow.decks.get(player_id, deck_id)
    if deck is None or deck.game != GAME:
        raise NotFound("deck_not_found", "you have no TerraKard deck with this id")
    _legal_deck(uow, player_id, level, deck.copy_ids)
    owned = _owned(uow, player_id, deck.copy_ids)
    return {
        "deck_id": deck.id,
        "version": deck.version,
        "cards": [c.to_dict() for c in _cards(owned, deck.copy_ids)],
        "lineages": _lineages(owned, deck.copy_ids),
    }


def defense_for_attack(player_id: uuid.UUID, level: int, uow: CardsUnitOfWork) -> dict[str, Any]:
    """The defender's active plan if it is valid at ``level``; otherwise the automatic
    plan from the collection (rulebook: "Without a valid plan, the server prepares an
    automatic plan from your collection"). NotFound ``no_defense`` when neither exists."""
    player = uow.terrakard.player(player_id)
    if player is None:
        raise NotFound("no_defense", "this player has no TerraKard defense")
    if player.active_plan_id is not None:
        plan = uow.terrakard.plan(player_id, player.active_plan_id)
        if plan is not None:
            owned = _owned(uow, player_id, plan.copy_ids)
            defense = _defense(owned, plan)
            if defense is not None and assess_plan(defense, level).legal:
                return {
                    "plan_id": plan.id,
                    "version": plan.version,
                    "automatic": False,
                    "plan": defense.to_dict(),
                    "lineages": _lineages(owned, plan.copy_ids),
                }
    copies = uow.owned.of_player(player_id, GAME)
    by_id = {c["id"]: c for c in copies}
    automatic = automatic_plan(_cards(by_id, list(by_id)), level)
    if automatic is None:
        raise NotFound("no_defense", "this player has no TerraKard defense")
    ids = [uuid.UUID(c.card_id) for c in automatic.cards]
    return {
        "plan_id": None,
        "version": None,
        "automatic": True,
        "plan": automatic.to_dict(),
        "lineages": _lineages(by_id, ids),
    }


def defenders(
    low: int, high: int, exclude: Sequence[uuid.UUID], limit: int, uow: CardsUnitOfWork
) -> list[dict[str, Any]]:
    """TerraKard players of a level in [low, high], for the arena (battle filters and
    orders them)."""
    return [
        {
            "player_id": p.player_id,
            "target_id": p.target_id,
            "level": p.level,
            "has_plan": p.active_plan_id is not None,
        }
        for p in uow.terrakard.defenders(low, high, exclude, limit)
    ]


def target(target_id: uuid.UUID, uow: CardsUnitOfWork) -> dict[str, Any]:
    """The player behind an arena target id (for battle only)."""
    found = uow.terrakard.by_target(target_id)
    if found is None:
        raise NotFound("target_not_found", "there is no such target")
    return {"player_id": found.player_id, "target_id": found.target_id}


def targets_of(player_ids: Sequence[uuid.UUID], uow: CardsUnitOfWork) -> list[dict[str, Any]]:
    """The arena ids of the given players (battle chose them), and whether a saved plan
    defends them (else the automatic plan). Players without a starting collection are
    left out."""
    found = uow.terrakard.players_by_ids(player_ids)
    return [
        {
            "player_id": p.player_id,
            "target_id": p.target_id,
            "has_plan": p.active_plan_id is not None,
        }
        for p in found
    ]


TRAINING = "training"


@_refusals
def training_plan(uow: CardsUnitOfWork) -> dict[str, Any]:
    """Ours: the tutorial's training plan, the automatic plan (at level 1) of the
    starting collection as published now; its cards are no one's copies (ids
    ``training-<definition id>``)."""
    chosen = starting_cards(uow.definitions.active(GAME))
    cards = [
        card_of(f"{TRAINING}-{d['id']}", d["name"], d["rarity"], d["attributes"]) for d in chosen
    ]
    plan = automatic_plan(cards, LOWEST_LEVEL)
    if plan is None:  # unreachable with the starting collection's numbers (config.py)
        raise ServiceUnavailable("starter_cards_unavailable", "no training plan can be made yet")
    return {"plan": plan.to_dict()}


DEMO = "demo"


@_refusals
def demo_defense(key: str, uow: CardsUnitOfWork) -> dict[str, Any]:
    """Ours: a demo defender's plan (games/terrakard/demo_defenders.py), chosen at its
    level from the catalogue as published now, in ``defense_for_attack``'s shape; its
    cards are no one's copies (ids ``demo-<definition id>``), each with its lineage so
    its knowledge question can be asked. NotFound ``no_defense`` for an unknown key or a
    catalogue that cannot make the plan."""
    defender = demo_defenders.by_key(key)
    definitions = {f"{DEMO}-{d['id']}": d for d in uow.definitions.active(GAME)}
    cards = [
        card_of(card_id, d["name"], d["rarity"], d["attributes"])
        for card_id, d in definitions.items()
    ]
    plan = None if defender is None else demo_defenders.demo_plan(defender, cards)
    if plan is None:
        raise NotFound("no_defense", "this demo defender has no defense")
    ids = [c.card_id for c in (*plan.rounds, plan.reserve)]
    return {
        "plan_id": None,
        "version": None,
        "automatic": False,  # a saved plan of its own, not a collection's automatic one
        "plan": plan.to_dict(),
        "lineages": {c: str(definitions[c]["lineage_id"]) for c in ids},
    }
