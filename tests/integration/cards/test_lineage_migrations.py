"""Migrations authoring 0006 and cards 0005 carry existing cards over: a lineage keeps its newest
published version."""

import uuid
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from shared.migrations import drop_database, upgrade
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

T0 = datetime(2026, 11, 1, tzinfo=UTC)


def three_rows(engine, insert):
    """An original and its newer replacement (one lineage), and a card alone -> their ids."""
    lineage, newer, alone = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    with engine.begin() as conn:
        for id_, lineage_id, at in (
            (lineage, lineage, T0),
            (newer, lineage, T0 + timedelta(days=1)),
            (alone, alone, T0),
        ):
            conn.execute(sa.text(insert), {"id": id_, "lineage": lineage_id, "at": at})
    return lineage, newer, alone


@pytest.fixture
def own(settings):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_m{random_suffix()}")
    yield own
    for service in ("authoring", "cards"):
        drop_database(own, service)


def test_authoring_retires_the_older_published_versions_of_a_card_lineage(own):
    upgrade(own, "authoring", "0004")
    engine = sa.create_engine(own.database_url_for("authoring"))
    lineage, newer, alone = three_rows(
        engine,
        "INSERT INTO content (id, lineage_id, game, kind, state, version, body, created_by, "
        "created_at, updated_at, published_at) VALUES "
        "(:id, :lineage, 'quest', 'power_card', 'published', 4, '{}', 'a', :at, :at, :at)",
    )
    upgrade(own, "authoring")
    with engine.connect() as conn:
        states = dict(conn.execute(sa.text("SELECT id, state FROM content")).all())
        audit = conn.execute(sa.text("SELECT content_id, action, reason FROM content_audit")).all()
    engine.dispose()
    assert states == {lineage: "retired", newer: "published", alone: "published"}
    assert audit == [(lineage, "supersede", f"superseded by {newer}")]


def test_cards_keeps_one_active_version_per_lineage(own):
    upgrade(own, "cards", "0004")
    engine = sa.create_engine(own.database_url_for("cards"))
    lineage, newer, alone = three_rows(
        engine,
        "INSERT INTO card_definitions (id, lineage_id, game, kind, name, rarity, "
        "reward_eligible, evolved, starter, version, snapshot, published_at) VALUES "
        "(:id, :lineage, 'quest', 'power_card', 'Kit', 'Common', true, false, true, 4, '{}', :at)",
    )
    upgrade(own, "cards")
    with engine.connect() as conn:
        retired = dict(conn.execute(sa.text("SELECT id, retired_at FROM card_definitions")).all())
    engine.dispose()
    assert retired == {lineage: T0 + timedelta(days=1), newer: None, alone: None}
