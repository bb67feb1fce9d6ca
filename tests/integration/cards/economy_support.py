"""What the economy's integration tests share: a test economy (a fake game named
``chronovore`` whose copies a pack may grant, so no real card data is needed); the
fixtures that start the cards service with it are in ``conftest.py``."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from games.kit.collection import Assessment, CardPool, CollectionRules
from services.cards.economy import economy_from
from services.cards.games import CardGames

NOW = datetime(2026, 12, 2, 23, 0, tzinfo=UTC)
GAME = "chronovore"  # a name the RPC schemas accept; its rules here are the test's
RARITIES = ["Common", "Rare", "Epic"]

TEST_RULES = CollectionRules(
    game=GAME,
    card_kinds=frozenset({"test_unit"}),
    finishes=frozenset({"plain", "golden"}),
    sources=frozenset({"pack"}),
    card_attributes=lambda kind, snapshot: {},
    assess_deck=lambda ids, owned: Assessment(True, 0, ()),
    clean_deck_name=str.strip,
    max_decks_per_player=1,
    reward_pool=CardPool(frozenset({"test_unit"})),
    roll_reward=lambda correct, eligible, draws: [],
    default_finish="plain",
)

TEST_PACK = {
    "game": GAME,
    "kind": "test",
    "name": "Test Pack",
    "cards": 3,
    "rarities": RARITIES,
    "rarity_weights": {"Common": 6, "Rare": 3, "Epic": 1},
    "finish_weights": {"plain": 9, "golden": 1},
    "floor": "Rare",
    "extra": {"price": {"currency": "gold", "amount": 10}},
}
VICTORY_PACK = {**TEST_PACK, "kind": "victory", "name": "Victory Pack", "daily_group": "victory"}
del VICTORY_PACK["extra"]

TEST_ECONOMY = economy_from(
    {GAME: {"gold": {}, "fragments": {}, "tokens": {"daily_grant_limit": 10, "max_balance": 15}}},
    [TEST_PACK, VICTORY_PACK],
    {GAME: {"victory": 2}},
    games=CardGames([TEST_RULES]),
)


def player() -> str:
    return str(uuid.uuid4())


def key() -> str:
    return f"key-{uuid.uuid4().hex}"
