"""Migrations cards 0006 and accounts 0004 carry existing rows over when cards, decks and
progression become keyed by game: the rows as today's code writes them, upgraded."""

import uuid
from dataclasses import replace
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa
from alembic import command

from shared.migrations import alembic_config, drop_database, upgrade
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

T0 = datetime(2026, 11, 1, tzinfo=UTC)


@pytest.fixture
def own(settings):
    own = replace(settings, database_prefix=f"{settings.database_prefix}_g{random_suffix()}")
    yield own
    for service in ("cards", "accounts"):
        drop_database(own, service)


def _insert(conn, sql, **values):
    conn.execute(sa.text(sql), values)


def test_cards_0006_moves_quest_attributes_keys_decks_by_game_and_finishes_copies(own):
    upgrade(own, "cards", "0005")
    engine = sa.create_engine(own.database_url_for("cards"))
    creature, power, player, copy, deck = (uuid.uuid4() for _ in range(5))
    with engine.begin() as conn:
        definition = (
            "INSERT INTO card_definitions (id, lineage_id, game, kind, name, rarity, affinity, "
            "reward_eligible, evolved, starter, version, snapshot, published_at) VALUES "
            "(:id, :id, 'quest', :kind, :name, 'Common', :affinity, :eligible, false, :starter, "
            "1, '{}', :at)"
        )
        _insert(
            conn,
            definition,
            id=creature,
            kind="creature",
            name="Quillip",
            affinity="Wit",
            eligible=True,
            starter=True,
            at=T0,
        )
        _insert(
            conn,
            definition,
            id=power,
            kind="power_card",
            name="Field Kit",
            affinity=None,
            eligible=False,
            starter=False,
            at=T0,
        )
        _insert(
            conn,
            "INSERT INTO owned_cards (id, player_id, definition_id, source_type, source_id, "
            "acquired_at) VALUES (:id, :player, :definition, 'starter', :player, :at)",
            id=copy,
            player=player,
            definition=creature,
            at=T0,
        )
        _insert(
            conn,
            "INSERT INTO decks (id, player_id, name, version, created_at, updated_at) "
            "VALUES (:id, :player, 'Morning walk', 1, :at, :at)",
            id=deck,
            player=player,
            at=T0,
        )
        _insert(
            conn,
            "INSERT INTO deck_cards (deck_id, position, owned_card_id) VALUES (:deck, 0, :copy)",
            deck=deck,
            copy=copy,
        )

    upgrade(own, "cards")
    with engine.begin() as conn:
        attributes = dict(
            conn.execute(sa.text("SELECT id, attributes FROM card_definitions")).all()
        )
        columns = {
            row.column_name
            for row in conn.execute(
                sa.text(
                    "SELECT column_name FROM information_schema.columns "
                    "WHERE table_name = 'card_definitions'"
                )
            )
        }
        copies = conn.execute(sa.text("SELECT id, finish, source_type FROM owned_cards")).all()
        decks = conn.execute(sa.text("SELECT id, game FROM decks")).all()
        deck_cards = conn.execute(sa.text("SELECT deck_id, owned_card_id FROM deck_cards")).all()
        # Sources are open now: a pack (another game's source) is a row like any other.
        _insert(
            conn,
            "INSERT INTO owned_cards (id, player_id, definition_id, source_type, source_id, "
            "acquired_at) VALUES (:id, :player, :definition, 'pack', :player, :at)",
            id=uuid.uuid4(),
            player=player,
            definition=power,
            at=T0,
        )
    engine.dispose()

    assert attributes == {
        creature: {"affinity": "Wit", "reward_eligible": True, "evolved": False, "starter": True},
        power: {"affinity": None, "reward_eligible": False, "evolved": False, "starter": False},
    }
    assert not columns & {"affinity", "reward_eligible", "evolved", "starter"}
    assert copies == [(copy, "standard", "starter")]
    assert decks == [(deck, "quest")]
    assert deck_cards == [(deck, copy)]


def test_cards_0006_downgrades_quest_rows_back_to_their_columns(own):
    upgrade(own, "cards", "0005")
    engine = sa.create_engine(own.database_url_for("cards"))
    creature = uuid.uuid4()
    with engine.begin() as conn:
        _insert(
            conn,
            "INSERT INTO card_definitions (id, lineage_id, game, kind, name, rarity, affinity, "
            "reward_eligible, evolved, starter, version, snapshot, published_at) VALUES "
            "(:id, :id, 'quest', 'creature', 'Karrik', 'Rare', 'Grit', true, true, false, 1, "
            "'{}', :at)",
            id=creature,
            at=T0,
        )
    upgrade(own, "cards")
    command.downgrade(alembic_config(own, "cards"), "0005")
    with engine.connect() as conn:
        row = conn.execute(
            sa.text("SELECT affinity, reward_eligible, evolved, starter FROM card_definitions")
        ).one()
    engine.dispose()
    assert tuple(row) == ("Grit", True, True, False)


def test_accounts_0004_gives_existing_progression_entries_the_game_quest(own):
    upgrade(own, "accounts", "0003")
    engine = sa.create_engine(own.database_url_for("accounts"))
    player, attempt = uuid.uuid4(), uuid.uuid4()
    with engine.begin() as conn:
        _insert(
            conn,
            "INSERT INTO players (id, auth0_sub, status, registered_at, points) "
            "VALUES (:id, :sub, 'active', :at, 40)",
            id=player,
            sub=f"auth0|{random_suffix()}",
            at=T0,
        )
        _insert(
            conn,
            "INSERT INTO progression_entries (player_id, source_type, source_id, points, "
            "reason, correct_count, occurred_at, recorded_at) VALUES "
            "(:player, 'attempt', :attempt, 40, 'challenge_answers', 4, :at, :at)",
            player=player,
            attempt=attempt,
            at=T0,
        )
    upgrade(own, "accounts")
    with engine.connect() as conn:
        rows = conn.execute(
            sa.text("SELECT source_id, game, points FROM progression_entries")
        ).all()
        default = conn.execute(
            sa.text(
                "SELECT column_default FROM information_schema.columns "
                "WHERE table_name = 'progression_entries' AND column_name = 'game'"
            )
        ).scalar()
    engine.dispose()
    assert rows == [(attempt, "quest", 40)]
    assert default is None  # from now on every entry names its game
