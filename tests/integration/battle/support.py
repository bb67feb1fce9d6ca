"""Fixtures for the battle integration tests (no tests here).

Card definitions go straight into the cards database with the seed catalogue's
bodies under names of their own (so they never clash with the published seed);
the CPU deck provider is swapped for those names. Time is a FixedClock; the
sweeper's timer is left out of the container unless a test asks for it, so a
deadline test never races it.
"""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from nameko.testing.services import replace_dependencies, restrict_entrypoints
from nameko.timer import Timer

from deckyard.registry import service_class
from games.quest.cpu import CpuDeckNames
from services.battle import orm as battle_orm
from services.cards import orm as cards_orm
from shared.clock import FixedClock
from shared.randomness import SeededRandomSource
from tests.random_refs import random_suffix

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CATALOGUE = Path(__file__).parents[3] / "services/authoring/seed/quest_cards.json"
PLAYER_CARDS = ("Quillip", "Inkwisp", "Glimmowl", "Field Kit", "Reserve Focus")
OTHER_CREATURES = ("Pebblup", "Burrowk", "Mossjaw")


def _bodies():
    entries = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return {e["body"]["name"]: e for e in entries}


def definition_rows(names, suffix):
    """Published definitions with the seed bodies of ``names``, renamed ``<name> <suffix>``."""
    bodies = _bodies()
    rows = {}
    for name in names:
        entry = bodies[name]
        body = {**entry["body"], "name": f"{name} {suffix}"}
        rows[name] = {
            "id": uuid.uuid4(),
            "lineage_id": uuid.uuid4(),
            "game": "quest",
            "kind": entry["kind"],
            "name": body["name"],
            "rarity": body["rarity"],
            "attributes": {
                "affinity": body.get("affinity"),
                "reward_eligible": False,
                "evolved": False,
                "starter": False,
            },
            "version": 1,
            "snapshot": body,
            "published_at": T0,
        }
    return rows


@pytest.fixture(scope="module")
def cards_engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def battle_engine(settings):
    engine = sa.create_engine(settings.database_url_for("battle"))
    yield engine
    engine.dispose()


@pytest.fixture(scope="module")
def catalogue(cards_engine):
    """This module's definitions: the player's (a Wit starter and three Grit Creatures)
    and the CPU deck's (Quillip, Voltiki, Karrik, Field Kit, Reserve Focus)."""
    suffix = random_suffix()
    player = definition_rows((*PLAYER_CARDS, *OTHER_CREATURES), f"P{suffix}")
    cpu = definition_rows(
        ("Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus"), f"C{suffix}"
    )
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(cards_orm.card_definitions), [*player.values(), *cpu.values()])
    names = CpuDeckNames(
        creatures=tuple(cpu[n]["name"] for n in ("Quillip", "Voltiki", "Karrik")),
        power_cards=tuple(cpu[n]["name"] for n in ("Field Kit", "Reserve Focus")),
    )
    return {"player": player, "cpu": cpu, "cpu_names": names}


def give(cards_engine, catalogue, player_id, names):
    """New owned copies of this module's player definitions -> their ids, in order."""
    rows = [
        {
            "id": uuid.uuid4(),
            "player_id": uuid.UUID(str(player_id)),
            "definition_id": catalogue["player"][name]["id"],
            "source_type": "reward",
            "source_id": uuid.uuid4(),
            "acquired_at": T0,
        }
        for name in names
    ]
    with cards_engine.begin() as conn:
        conn.execute(sa.insert(cards_orm.owned_cards), rows)
    return [str(r["id"]) for r in rows]


def player_with_deck(rpc, cards_engine, catalogue, player_id=None):
    """A player (a random id unless given) with one legal saved deck -> (player id, deck)."""
    player_id = str(player_id or uuid.uuid4())
    copies = give(cards_engine, catalogue, player_id, PLAYER_CARDS)
    deck = rpc.cards.create_deck(player_id=player_id, name="Battle", cards=copies)
    return player_id, deck


@pytest.fixture
def clock():
    return FixedClock(T0)


@pytest.fixture
def start_battle(container_factory, settings, start_service, clock, catalogue):
    """Start cards and battle (FixedClock, seeded random, this module's CPU deck)."""

    def start(with_timer=False):
        start_service("cards")
        container = container_factory(
            service_class("battle"), settings.nameko_config(WEB_SERVER_ADDRESS="127.0.0.1:0")
        )
        replace_dependencies(
            container, clock=clock, random=SeededRandomSource(7), cpu_deck=catalogue["cpu_names"]
        )
        if not with_timer:
            keep = {e.method_name for e in container.entrypoints if not isinstance(e, Timer)}
            restrict_entrypoints(container, *keep)
        container.start()
        return container

    return start


@pytest.fixture
def battle(start_battle, rpc):
    start_battle()
    return rpc.battle


def match_row(battle_engine, match_id):
    with battle_engine.connect() as conn:
        return (
            conn.execute(sa.select(battle_orm.matches).where(battle_orm.matches.c.id == match_id))
            .mappings()
            .one()
        )


def action_rows(battle_engine, match_id):
    actions = battle_orm.match_actions
    with battle_engine.connect() as conn:
        return (
            conn.execute(
                sa.select(actions).where(actions.c.match_id == match_id).order_by(actions.c.seq)
            )
            .mappings()
            .all()
        )


def seat_rows(battle_engine, match_id):
    """(seat, kind, player_id, ref_id, result, one_active) of a match's seats, in order."""
    seats = battle_orm.match_seats
    with battle_engine.connect() as conn:
        return [
            tuple(r)
            for r in conn.execute(
                sa.select(
                    seats.c.seat,
                    seats.c.kind,
                    seats.c.player_id,
                    seats.c.ref_id,
                    seats.c.result,
                    seats.c.one_active,
                )
                .where(seats.c.match_id == match_id)
                .order_by(seats.c.position)
            )
        ]


def finished_events(battle_engine, match_id):
    outbox = battle_orm.plumbing.outbox
    with battle_engine.connect() as conn:
        return (
            conn.execute(
                sa.select(outbox).where(
                    outbox.c.routing_key == "MatchFinished",
                    outbox.c.payload["data"]["match_id"].astext == str(match_id),
                )
            )
            .mappings()
            .all()
        )


def stored(battle_engine, match_id):
    """Everything a refused request must leave as it was: the row and the log."""
    row = dict(match_row(battle_engine, match_id))
    return row, [dict(r) for r in action_rows(battle_engine, match_id)]


def playable(view):
    """The legal actions of a view, forfeit excepted."""
    return [a for a in view["legal_actions"] if a["kind"] != "forfeit"]
