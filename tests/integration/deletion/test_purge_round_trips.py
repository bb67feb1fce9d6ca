"""A purge holds the player's gate for a few round trips, not one per table (issue 29).

The purge seals the player's gate first and keeps it until it commits; every write of
the player waits for it meanwhile, each with a worker of its service. Sent one
statement at a time, cards' purge was two dozen round trips, battle's a dozen after its
shared matches: on a busy process each one waits its turn in the event loop, and eight
deletions racing their players' writes held the gates for seconds, long enough for the
waiting writes to fill the workers and for the gateway to answer 503 ``service_timeout``
(tests/e2e/accounts/test_deletion_race_api.py). The seal and the deletes now go in one
pipeline; tests/integration/deletion/test_account_deletion.py checks that they still
leave nothing behind.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from services.battle import orm as battle_orm
from services.battle import purge as battle_purge
from services.cards import orm as cards_orm
from services.cards import purge as cards_purge
from shared import player_gate
from shared.db import Database, make_engine

pytestmark = pytest.mark.integration

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


class RoundTrips:
    """Statements sent one by one (through SQLAlchemy) and pipelines, while counting."""

    def __init__(self, engine, monkeypatch, modules):
        self.alone = 0
        self.pipelines = 0
        sa.event.listen(engine, "before_cursor_execute", self._statement)
        for module in modules:
            monkeypatch.setattr(module, "pipelined", self._pipelined(module.pipelined))

    def _statement(self, *args):
        self.alone += 1

    def _pipelined(self, pipelined):
        def counted(session, statements):
            self.pipelines += 1
            return pipelined(session, statements)

        return counted

    @property
    def total(self):
        return self.alone + self.pipelines


@pytest.fixture
def database(settings):
    made = []

    def database(service, orm):
        engine = make_engine(settings.database_url_for(service), pool_size=2)
        made.append(engine)
        return Database(engine, orm.plumbing, lambda: NOW)

    yield database
    for engine in made:
        engine.dispose()


def purge_counted(db, monkeypatch, modules, purge_player):
    player_id = uuid.uuid4()
    with db.transaction() as tx:
        tx.session.connection()  # the transaction's BEGIN is not the purge's
        counted = RoundTrips(db.engine, monkeypatch, modules)
        purge_player(tx.session, player_id, NOW)
    return counted


def test_cards_purge_seals_and_deletes_in_one_round_trip(database, monkeypatch):
    db = database("cards", cards_orm)
    counted = purge_counted(db, monkeypatch, [player_gate], cards_purge.purge_player)
    assert (counted.alone, counted.pipelines) == (0, 1)


def test_battle_purge_is_its_seal_and_one_round_trip_of_deletes(database, monkeypatch):
    db = database("battle", battle_orm)
    counted = purge_counted(db, monkeypatch, [player_gate, battle_purge], battle_purge.purge_player)
    assert (counted.alone, counted.pipelines) == (0, 2)
