"""Fixtures of the economy's tests: the cards service with the test economy and a moved
clock, the cards database, published definitions of the test game."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa

from services.cards import orm
from shared.clock import FixedClock
from shared.randomness import SeededRandomSource
from tests.integration.cards.economy_support import GAME, NOW, RARITIES, TEST_ECONOMY
from tests.random_refs import random_suffix


@pytest.fixture
def economy_clock():
    return FixedClock(NOW)


@pytest.fixture
def economy_cards(start_service, rpc, economy_clock):
    start_service(
        "cards",
        replacements={
            "economy": TEST_ECONOMY,
            "clock": economy_clock,
            "random": SeededRandomSource(5),
        },
    )
    return rpc.cards


@pytest.fixture(scope="session")
def economy_engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


@pytest.fixture(scope="session")
def test_unit_cards(economy_engine):
    """Two published definitions of each rarity of the test game's ``test_unit`` kind
    (once a run: the pool a test pack draws from is exactly these)."""
    rows = [
        {
            "id": uuid.uuid4(),
            "lineage_id": uuid.uuid4(),
            "game": GAME,
            "kind": "test_unit",
            "name": f"Unit {random_suffix()}",
            "rarity": rarity,
            "attributes": {},
            "version": 1,
            "snapshot": {},
            "published_at": NOW,
        }
        for rarity in RARITIES
        for _ in range(2)
    ]
    with economy_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), rows)
    return rows
