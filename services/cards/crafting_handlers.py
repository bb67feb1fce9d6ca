"""Shredding copies into a game's crafting currency and crafting copies from it
(Chronovore's Card Fragments; the numbers are the game's ``CraftingRules``).

Each is one transaction: the player's gate first (so one player's shreds and crafts
queue, and two crafts racing at the copy limit cannot both pass it), then the key (a
retry returns the stored answer, even for a copy shredded since), then the checks, then
the copy and the ledger entry together. The ledger's spend is one conditional UPDATE,
so the balance never goes below zero whatever runs at the same time.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from games.kit.collection import CollectionRules, CraftingRules
from games.kit.refusal import Refusal
from services.cards.economy import Economy
from services.cards.games import new_copies
from services.cards.ledger_handlers import GRANT, SPEND, LedgerChange, apply_change, entry_view
from services.cards.repository import CardsUnitOfWork
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput, NotFound, refusals_as

SHRED = "shred"
CRAFT = "craft"
CRAFT_SOURCE = "craft"  # the source_type of a crafted copy (its id: the craft's entry)
LEDGER_KEY_PREFIX = "crafting:"  # the ledger key of a shred's or craft's entry


@dataclass(frozen=True)
class Shred:
    player_id: uuid.UUID
    game: str
    copy_id: uuid.UUID
    idempotency_key: str


@dataclass(frozen=True)
class Craft:
    player_id: uuid.UUID
    game: str
    definition_id: uuid.UUID
    finish: str
    idempotency_key: str


def _crafting(economy: Economy, game: str) -> tuple[CollectionRules, CraftingRules]:
    rules = economy.games.rules(game)
    if rules.crafting is None:
        raise NotFound("crafting_not_offered", f"{game} cards are not shredded or crafted")
    return rules, rules.crafting


def crafting_prices(game: str, economy: Economy) -> dict[str, Any]:
    """The public table: per rarity and finish, what a shred gives and a craft costs,
    the copy limit, and how long a weakened card's shred pays its crafting cost."""
    rules, crafting = _crafting(economy, game)
    prices = []
    for rarity in crafting.rarities:
        row: list[dict[str, Any]] = []
        for finish in sorted(rules.finishes):
            try:
                craft = crafting.craft_cost(rarity, finish)
            except Refusal:  # a finish that is never crafted (Diamond) is not listed
                continue
            row.append(
                {
                    "rarity": rarity,
                    "finish": str(finish),
                    "shred": crafting.shred_value(rarity, finish, weakened=False),
                    "shred_weakened": crafting.shred_value(rarity, finish, weakened=True),
                    "craft": craft,
                    "copy_limit": crafting.copy_limit(rarity),
                }
            )
        prices += sorted(row, key=lambda price: int(price["craft"]))  # Plain first
    return {
        "game": game,
        "currency": crafting.currency,
        "weakened_days": crafting.weakened_refund.days,
        "prices": prices,
    }


def _view(entry: dict[str, Any], uow: CardsUnitOfWork, name: str, replayed: bool) -> dict[str, Any]:
    ledger_entry = uow.ledger.entry(entry["ledger_entry_id"])
    assert ledger_entry is not None  # written in the same transaction as the entry
    return {
        "id": entry["id"],
        "action": entry["action"],
        "game": entry["game"],
        "copy_id": entry["owned_card_id"],
        "definition_id": entry["definition_id"],
        "name": name,
        "rarity": entry["rarity"],
        "finish": entry["finish"],
        "fragments": entry["fragments"],
        "weakened": entry["weakened"],
        "entry": entry_view(ledger_entry, replayed),
        "created_at": entry["created_at"],
        "replayed": replayed,
    }


def _earlier(
    uow: CardsUnitOfWork, player_id: uuid.UUID, key: str, asked: tuple[Any, ...]
) -> dict[str, Any] | None:
    """The stored answer of this key, if it asked for the same thing (else 422)."""
    entry = uow.crafting.entry_by_key(player_id, key)
    if entry is None:
        return None
    if asked != tuple(entry[k] for k in ("action", "game", *_ASKED[entry["action"]])):
        raise InvalidInput(
            "idempotency_key_reused", "this idempotency key was used for another change"
        )
    name = uow.crafting.definition(entry["definition_id"])
    return _view(entry, uow, name["name"] if name else "", True)


_ASKED = {SHRED: ("owned_card_id",), CRAFT: ("definition_id", "finish")}


def shred(cmd: Shred, uow: CardsUnitOfWork, economy: Economy, clock: Clock) -> dict[str, Any]:
    """Remove one Plain or Golden copy and add its fragments (its crafting cost for 7
    days after the card was weakened). A copy in a saved deck is refused (409
    ``copy_in_deck``): take it out of the deck first."""
    _, crafting = _crafting(economy, cmd.game)
    uow.players.admit(cmd.player_id)
    earlier = _earlier(uow, cmd.player_id, cmd.idempotency_key, (SHRED, cmd.game, cmd.copy_id))
    if earlier is not None:
        return earlier
    copy = uow.owned.of_player_by_ids(cmd.player_id, [cmd.copy_id]).get(cmd.copy_id)
    if copy is None or copy["game"] != cmd.game:
        raise NotFound("copy_not_found", "no such copy in your collection")
    now = clock.now()
    weakened = uow.crafting.weakened(copy["lineage_id"], now - crafting.weakened_refund, now)
    with refusals_as(InvalidInput):
        fragments = crafting.shred_value(copy["rarity"], copy["finish"], weakened)
    holding = uow.crafting.decks_holding(cmd.copy_id)
    if holding:
        raise Conflict(
            "copy_in_deck",
            "this copy is in a saved deck: take it out of the deck before shredding it",
            {"decks": [str(deck) for deck in holding]},
        )
    uow.crafting.remove_copy(cmd.player_id, cmd.copy_id)
    change = LedgerChange(
        cmd.player_id,
        cmd.game,
        crafting.currency,
        fragments,
        "shred",
        LEDGER_KEY_PREFIX + cmd.idempotency_key,
    )
    currency = economy.currency(cmd.game, crafting.currency)
    ledger_entry, _ = apply_change(change, GRANT, uow.ledger, currency, now)
    entry = {
        **_record(cmd, SHRED, cmd.copy_id, copy["definition_id"], ledger_entry["id"], now),
        "finish": copy["finish"],
        "rarity": copy["rarity"],
        "fragments": fragments,
        "weakened": weakened,
    }
    uow.crafting.add_entry(entry)
    return _view(entry, uow, copy["name"], False)


def craft(cmd: Craft, uow: CardsUnitOfWork, economy: Economy, clock: Clock) -> dict[str, Any]:
    """Spend fragments for one new Plain or Golden copy of a card's current version,
    while the player holds fewer copies of the card (every finish, every version) than
    its copy limit."""
    rules, crafting = _crafting(economy, cmd.game)
    uow.players.admit(cmd.player_id)
    asked = (CRAFT, cmd.game, cmd.definition_id, cmd.finish)
    earlier = _earlier(uow, cmd.player_id, cmd.idempotency_key, asked)
    if earlier is not None:
        return earlier
    definition = uow.crafting.definition(cmd.definition_id)
    if definition is None or definition["game"] != cmd.game:
        raise NotFound("definition_not_found", "no such card")
    if definition["retired_at"] is not None:
        active = uow.crafting.active_version(definition["lineage_id"])
        raise Conflict(
            "card_not_craftable",
            "this version of the card was replaced or retired: craft its current version",
            {"active_id": str(active) if active else None},
        )
    with refusals_as(InvalidInput):
        cost = crafting.craft_cost(definition["rarity"], cmd.finish)
    held = uow.crafting.copies_of_card(cmd.player_id, definition["lineage_id"])
    limit = crafting.copy_limit(definition["rarity"])
    if held >= limit:
        raise Conflict(
            "craft_copy_limit",
            f"you hold {held} copies of this card (every finish); crafting stops at {limit}",
            {"limit": limit, "held": held},
        )
    now = clock.now()
    change = LedgerChange(
        cmd.player_id,
        cmd.game,
        crafting.currency,
        cost,
        "craft",
        LEDGER_KEY_PREFIX + cmd.idempotency_key,
    )
    currency = economy.currency(cmd.game, crafting.currency)
    ledger_entry, _ = apply_change(change, SPEND, uow.ledger, currency, now)
    entry_id = uuid.uuid4()
    [copy] = new_copies(
        rules, cmd.player_id, [cmd.definition_id], (CRAFT_SOURCE, entry_id), now, cmd.finish
    )
    uow.owned.add_all([copy])
    entry = {
        **_record(cmd, CRAFT, copy.id, cmd.definition_id, ledger_entry["id"], now),
        "id": entry_id,
        "finish": cmd.finish,
        "rarity": definition["rarity"],
        "fragments": cost,
        "weakened": False,
    }
    uow.crafting.add_entry(entry)
    return _view(entry, uow, definition["name"], False)


def _record(
    cmd: Shred | Craft,
    action: str,
    copy_id: uuid.UUID,
    definition_id: uuid.UUID,
    ledger_entry_id: uuid.UUID,
    now: datetime,
) -> dict[str, Any]:
    return {
        "id": uuid.uuid4(),
        "player_id": cmd.player_id,
        "game": cmd.game,
        "action": action,
        "owned_card_id": copy_id,
        "definition_id": definition_id,
        "ledger_entry_id": ledger_entry_id,
        "idempotency_key": cmd.idempotency_key,
        "created_at": now,
    }
