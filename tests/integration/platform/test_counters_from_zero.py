"""The inbox's consumers start at 0 duplicates: read from the service's own
``processed_messages`` (a duplicate is always of a message its consumer applied)."""

from __future__ import annotations

import uuid

import pytest
import sqlalchemy as sa
from prometheus_client import REGISTRY

from services.cards import orm as cards_orm
from shared.clock import SystemClock
from shared.db import Database, make_engine
from shared.metrics import measure_inbox

pytestmark = pytest.mark.integration


def test_every_consumer_of_the_inbox_is_counted_from_zero(settings):
    engine = make_engine(settings.database_url_for("cards"), pool_size=1)
    database = Database(engine, cards_orm.plumbing, now=SystemClock().now)
    table = cards_orm.plumbing.processed_messages
    consumers = [f"cards.zero_{uuid.uuid4().hex[:8]}_{n}" for n in range(3)]
    rows = [
        {"consumer": c, "message_id": uuid.uuid4(), "processed_at": sa.func.now()}
        for c in consumers
        for _ in range(2)
    ]
    try:
        with engine.begin() as conn:
            for row in rows:
                conn.execute(sa.insert(table).values(row))
            every = conn.execute(sa.select(table.c.consumer).distinct()).scalars().all()
        assert (
            REGISTRY.get_sample_value("deckyard_inbox_duplicates_total", {"consumer": consumers[0]})
            is None
        )
        measure_inbox("cards", database)
        for consumer in every:  # the loose index scan misses none
            assert (
                REGISTRY.get_sample_value("deckyard_inbox_duplicates_total", {"consumer": consumer})
                is not None
            ), consumer
        for consumer in consumers:
            assert (
                REGISTRY.get_sample_value("deckyard_inbox_duplicates_total", {"consumer": consumer})
                == 0
            )
    finally:
        with engine.begin() as conn:
            conn.execute(sa.delete(table).where(table.c.consumer.in_(consumers)))
        engine.dispose()
