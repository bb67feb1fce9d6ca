"""Unopened packs: the public odds, granting (or buying) packs, the inventory, opening.

An opening is provably fair (fairness_handlers.PlayerDraws) and persisted, cards,
rarities and finishes, in the transaction that creates the owned copies, before it is
returned. The same idempotency key returns the same opening; of two openings of one
pack, exactly one happens (the player's gate, then a conditional UPDATE of the pack).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.kit.collection import CardPool, FinishCaps
from games.kit.packs import PackCard, PackKind, public_odds
from games.kit.packs import open_pack as draw_pack
from services.cards.economy import Economy
from services.cards.fairness_handlers import PlayerDraws
from services.cards.games import new_copies
from services.cards.ledger_handlers import (
    GRANT,
    SPEND,
    LedgerChange,
    apply_change,
    entry_view,
    utc_day,
)
from services.cards.repository import CardsUnitOfWork
from services.cards.views import card_faces, with_face
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput, NotFound, ServiceUnavailable
from shared.randomness import RandomSource

PACK_SOURCE = "pack"
SALE_KEY_PREFIX = "packsale:"  # the ledger key of a pack sold back, kept apart from others


@dataclass(frozen=True)
class GrantPacks:
    player_id: uuid.UUID
    game: str
    kind: str
    quantity: int
    source_type: str  # what earned them: "starter", "attack", "defense", "shop"...
    source_id: str
    idempotency_key: str
    pay: bool = False  # bought: the kind's price times the quantity, spent together


@dataclass(frozen=True)
class SellPack:
    player_id: uuid.UUID
    pack_id: uuid.UUID
    idempotency_key: str
    game: str | None = None  # as OpenPack's


@dataclass(frozen=True)
class OpenPack:
    player_id: uuid.UUID
    pack_id: uuid.UUID
    idempotency_key: str
    game: str | None = None  # the game the caller expects (the API's path): another is unknown


def pack_odds(game: str, economy: Economy) -> list[dict[str, Any]]:
    """Every pack kind of a game with its odds (public: no sign-in)."""
    return [public_odds(kind) for kind in economy.packs_of(game)]


def _grant_view(
    grant: Mapping[str, Any], packs: list[dict[str, Any]], payment: Any, replayed: bool
) -> dict[str, Any]:
    return {
        "id": grant["id"],
        "game": grant["game"],
        "kind": grant["kind"],
        "quantity": grant["quantity"],
        "source": {"type": grant["source_type"], "id": grant["source_id"]},
        "packs": [pack["id"] for pack in packs],
        "payment": entry_view(payment, replayed) if payment else None,
        "granted_at": grant["granted_at"],
        "replayed": replayed,
    }


def _payment(cmd: GrantPacks, kind: PackKind) -> LedgerChange:
    price = kind.extra.get("price")
    if not isinstance(price, Mapping):
        raise InvalidInput("pack_not_for_sale", f"a {kind.name} cannot be bought")
    return LedgerChange(
        cmd.player_id,
        cmd.game,
        str(price["currency"]),
        int(price["amount"]) * cmd.quantity,
        f"buy {kind.kind} pack",
        f"packs:{cmd.idempotency_key}",  # the grant's key, kept apart from ledger keys
    )


def grant_packs(
    cmd: GrantPacks, uow: CardsUnitOfWork, economy: Economy, clock: Clock
) -> dict[str, Any]:
    """Add ``quantity`` unopened packs, paid for first when ``pay``; once per key."""
    kind = economy.pack(cmd.game, cmd.kind)
    uow.players.admit(cmd.player_id)
    earlier = uow.packs.grant_by_key(cmd.player_id, cmd.idempotency_key)
    if earlier is not None:
        asked = (cmd.game, cmd.kind, cmd.quantity, cmd.source_type, cmd.source_id)
        kept = tuple(earlier[k] for k in ("game", "kind", "quantity", "source_type", "source_id"))
        if asked != kept:
            raise InvalidInput(
                "idempotency_key_reused", "this idempotency key was used for another grant"
            )
        payment = (
            uow.ledger.entry(earlier["ledger_entry_id"]) if earlier["ledger_entry_id"] else None
        )
        return _grant_view(earlier, uow.packs.of_grant(earlier["id"]), payment, True)
    now = clock.now()
    payment = None
    if cmd.pay:
        _require_capped_room(cmd, kind, uow, economy)
        change = _payment(cmd, kind)
        rules = economy.currency(change.game, change.currency)
        payment, _ = apply_change(change, SPEND, uow.ledger, rules, now)
    _within_daily_pack_limit(cmd, kind, uow, economy, now)
    grant: dict[str, Any] = {
        "id": uuid.uuid4(),
        "player_id": cmd.player_id,
        "game": cmd.game,
        "kind": cmd.kind,
        "quantity": cmd.quantity,
        "source_type": cmd.source_type,
        "source_id": cmd.source_id,
        "idempotency_key": cmd.idempotency_key,
        "ledger_entry_id": payment["id"] if payment else None,
        "granted_at": now,
    }
    uow.packs.add_grant(grant, sorted(uuid.uuid4() for _ in range(cmd.quantity)))
    return _grant_view(grant, uow.packs.of_grant(grant["id"]), payment, False)


def _capped_only(kind: PackKind, finish: str) -> bool:
    return set(kind.finish_weights) == {finish}


def _require_capped_room(
    cmd: GrantPacks, kind: PackKind, uow: CardsUnitOfWork, economy: Economy
) -> None:
    """A pack made only of a capped finish (Chronovore's Diamond pack) is sold while the
    player has room for ``pack_room`` more copies of that finish, counting what the
    unopened ones (and the earlier packs of this purchase) already promise."""
    rules = economy.games.rules(cmd.game)
    caps = rules.finish_caps
    if caps is None or not _capped_only(kind, caps.finish):
        return
    pool = uow.definitions.pool(cmd.game, CardPool(kind.card_kinds or rules.card_kinds))
    held = uow.crafting.held_of_finish(cmd.player_id, cmd.game, caps.finish)
    capped_kinds = [k.kind for k in economy.packs_of(cmd.game) if _capped_only(k, caps.finish)]
    promised = uow.packs.unopened_count(cmd.player_id, cmd.game, capped_kinds) * kind.cards
    room = caps.room(pool, held) - promised
    needed = caps.pack_room + kind.cards * (cmd.quantity - 1)
    if room < needed:
        raise Conflict(
            "pack_room_too_small",
            f"a {kind.name} is sold while you have room for {caps.pack_room} more "
            f"{caps.finish} copies under the deck limits (unopened ones count): room for "
            f"{max(room, 0)}, {needed} needed",
            {"room": max(room, 0), "needed": needed},
        )


def _within_daily_pack_limit(
    cmd: GrantPacks, kind: PackKind, uow: CardsUnitOfWork, economy: Economy, now: Any
) -> None:
    if kind.daily_group is None:
        return
    limit = economy.pack_daily_limits.get((cmd.game, kind.daily_group))
    if limit is None:
        return
    counter = f"packs:{kind.daily_group}"
    day = utc_day(now)
    if not uow.ledger.count(cmd.player_id, cmd.game, counter, day, cmd.quantity, limit):
        raise Conflict(
            "daily_limit_reached",
            f"at most {limit} {kind.daily_group} packs a UTC day",
            {"limit": limit, "used": uow.ledger.used(cmd.player_id, cmd.game, counter, day)},
        )


def inventory(
    player_id: uuid.UUID, game: str, uow: CardsUnitOfWork, economy: Economy
) -> dict[str, Any]:
    """The player's unopened packs of a game, oldest first, and how many of each kind."""
    unopened = uow.packs.unopened(player_id, game)
    counts: dict[str, int] = {}
    for pack in unopened:
        counts[pack["kind"]] = counts.get(pack["kind"], 0) + 1
    names = {kind.kind: kind.name for kind in economy.packs_of(game)}
    return {
        "game": game,
        "counts": counts,
        "packs": [
            {
                "id": pack["id"],
                "kind": pack["kind"],
                "name": names.get(pack["kind"], pack["kind"]),
                "granted_at": pack["granted_at"],
            }
            for pack in unopened
        ],
    }


def _opening_view(
    opening: Mapping[str, Any],
    roll: Mapping[str, Any] | None,
    replayed: bool,
    uow: CardsUnitOfWork,
    economy: Economy,
) -> dict[str, Any]:
    """The opening as its player sees it, each card with its face (a Chronovore card's
    keywords with their definitions, read now: a replay shows them too)."""
    cards = opening["cards"]
    faces = card_faces(economy.games.rules(opening["game"]), uow.definitions, cards)
    return {
        "pack_id": opening["pack_id"],
        "game": opening["game"],
        "kind": opening["kind"],
        "opened_at": opening["opened_at"],
        "cards": [with_face(card, faces) for card in cards],
        "roll": dict(roll) if roll else None,
        "replayed": replayed,
    }


def _stored_receipt(uow: CardsUnitOfWork, pack_id: uuid.UUID) -> dict[str, Any] | None:
    roll = uow.fairness.roll_of(PACK_SOURCE, str(pack_id))
    if roll is None:
        return None
    return {k: roll[k] for k in ("server_seed_hash", "client_seed", "nonce", "purpose")}


def _settle_caps(
    player_id: uuid.UUID,
    game: str,
    kind: PackKind,
    drawn: list[PackCard],
    pool: Mapping[str, Any],
    caps: FinishCaps,
    uow: CardsUnitOfWork,
    draws: PlayerDraws,
) -> list[PackCard]:
    """The game's caps on a finish (games/chronovore/diamonds.py), with the upgrades it
    owes the player kept for later packs."""
    held = uow.crafting.held_of_finish(player_id, game, caps.finish)
    owed = uow.crafting.owed(player_id, game, caps.finish)
    settled, still_owed = caps.settle(kind, drawn, pool, held, owed, draws)
    if still_owed != owed:
        uow.crafting.set_owed(player_id, game, caps.finish, still_owed)
    return settled


def sell_pack(
    cmd: SellPack, uow: CardsUnitOfWork, economy: Economy, clock: Clock
) -> dict[str, Any]:
    """Sell an unopened pack back for its full price, when its kind says so (Chronovore's
    Diamond pack: "An unopened Diamond pack can be sold back for its full Gold price").
    Of an opening and a sale of one pack, exactly one happens."""
    uow.players.admit(cmd.player_id)
    ledger_key = SALE_KEY_PREFIX + cmd.idempotency_key
    earlier = uow.ledger.entry_by_key(cmd.player_id, ledger_key)
    if earlier is not None:
        sold = uow.packs.sold_by(earlier["id"])
        if sold is None or sold["id"] != cmd.pack_id:
            raise InvalidInput("idempotency_key_reused", "this idempotency key sold another pack")
        if cmd.game not in (None, sold["game"]):
            raise NotFound("pack_not_found", "no such pack in your inventory")
        return _sale_view(sold, earlier, True)
    pack = uow.packs.get(cmd.player_id, cmd.pack_id)
    if pack is None or cmd.game not in (None, pack["game"]):
        raise NotFound("pack_not_found", "no such pack in your inventory")
    kind = economy.pack(pack["game"], pack["kind"])
    price = kind.extra.get("price")
    if not kind.extra.get("sell_back") or not isinstance(price, Mapping):
        raise InvalidInput("pack_not_sellable", f"a {kind.name} cannot be sold back")
    if pack["opened_at"] is not None or pack["sold_at"] is not None:
        raise Conflict("pack_already_opened", "this pack has already been opened or sold")
    now = clock.now()
    change = LedgerChange(cmd.player_id, pack["game"], str(price["currency"]),
                          int(price["amount"]), f"sell {kind.kind} pack", ledger_key)  # fmt: skip
    rules = economy.currency(change.game, change.currency)
    refund, _ = apply_change(change, GRANT, uow.ledger, rules, now)
    if not uow.packs.sell(cmd.pack_id, now, refund["id"]):
        raise Conflict("pack_already_opened", "this pack has already been opened or sold")
    return _sale_view({**pack, "sold_at": now}, refund, False)


def _sale_view(
    pack: Mapping[str, Any], refund: Mapping[str, Any], replayed: bool
) -> dict[str, Any]:
    return {
        "pack_id": pack["id"],
        "game": pack["game"],
        "kind": pack["kind"],
        "sold_at": pack["sold_at"],
        "refund": entry_view(dict(refund), replayed),
        "replayed": replayed,
    }


def open_pack(
    cmd: OpenPack, uow: CardsUnitOfWork, economy: Economy, rng: RandomSource, clock: Clock
) -> dict[str, Any]:
    uow.players.admit(cmd.player_id)
    earlier = uow.packs.opening_by_key(cmd.player_id, cmd.idempotency_key)
    if earlier is not None:
        if earlier["pack_id"] != cmd.pack_id:
            raise InvalidInput("idempotency_key_reused", "this idempotency key opened another pack")
        if cmd.game not in (None, earlier["game"]):
            raise NotFound("pack_not_found", "no such pack in your inventory")
        return _opening_view(earlier, _stored_receipt(uow, cmd.pack_id), True, uow, economy)
    pack = uow.packs.get(cmd.player_id, cmd.pack_id)
    if pack is None or cmd.game not in (None, pack["game"]):
        raise NotFound("pack_not_found", "no such pack in your inventory")
    kind = economy.pack(pack["game"], pack["kind"])
    rules = economy.games.rules(pack["game"])
    pool = uow.definitions.pool(pack["game"], CardPool(kind.card_kinds or rules.card_kinds))
    missing = sorted(r for r in kind.needed_rarities() if not pool.get(r))
    if missing:
        # The odds are public: never open with a rarity quietly missing.
        raise ServiceUnavailable(
            "pack_pool_incomplete",
            "this pack cannot be opened until its game publishes cards of every rarity",
            {"missing_rarities": missing},
        )
    now = clock.now()
    if not uow.packs.claim(cmd.pack_id, now):
        raise Conflict("pack_already_opened", "this pack has already been opened")
    draws = PlayerDraws(cmd.player_id, kind.purpose, uow.fairness, rng, clock)
    drawn = draw_pack(kind, pool, draws, label=lambda definition: str(definition["id"]))
    if rules.finish_caps is not None:
        drawn = _settle_caps(cmd.player_id, pack["game"], kind, drawn, pool, rules.finish_caps,
                             uow, draws)  # fmt: skip
    copies = [
        new_copies(
            rules,
            cmd.player_id,
            [card.definition["id"]],
            (PACK_SOURCE, cmd.pack_id),
            now,
            finish=card.finish,
        )[0]
        for card in drawn
    ]
    uow.owned.add_all(copies)
    roll_id = draws.record(PACK_SOURCE, cmd.pack_id)
    opening = {
        "pack_id": cmd.pack_id,
        "player_id": cmd.player_id,
        "game": pack["game"],
        "kind": pack["kind"],
        "idempotency_key": cmd.idempotency_key,
        "roll_id": roll_id,
        "cards": [
            {
                "owned_card_id": str(copy.id),
                "definition_id": str(card.definition["id"]),
                "name": card.definition["name"],
                "kind": card.definition["kind"],
                "rarity": card.rarity,
                "finish": card.finish,
            }
            for copy, card in zip(copies, drawn, strict=True)
        ],
        "opened_at": now,
    }
    uow.packs.add_opening(opening)
    return _opening_view(opening, draws.receipt(), False, uow, economy)
