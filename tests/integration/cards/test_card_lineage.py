"""Issue 13, item 2: replacing canonical cards keeps the game playable (real stack).

Each test has canonical cards of its own - copies of the seed's Quillip, Voltiki,
Karrik, Field Kit and Reserve Focus under names with a random suffix - published
through authoring and configured (``games.quest.canonical``) in authoring, cards and
battle, so tests never touch the seeded catalogue the e2e tests use.
"""

import json
import uuid
from pathlib import Path

import pytest
import sqlalchemy as sa

from games.quest.canonical import CanonicalCards
from games.quest.cpu import CpuDeckNames
from services.cards import orm as cards_orm
from shared.clock import FixedClock
from shared.errors import Conflict
from shared.randomness import SeededRandomSource
from tests.helpers import wait_for
from tests.integration.authoring.test_lifecycle import ALICE, BOB, publish
from tests.integration.battle.support import T0
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

CATALOGUE = Path(__file__).parents[3] / "services/authoring/seed/quest_cards.json"
CANONICAL = ("Quillip", "Voltiki", "Karrik", "Field Kit", "Reserve Focus")
WIT_STARTERS = ("Inkwisp", "Glimmowl")  # with Quillip, the Wit starter set


def seed_body(name, renamed, **changes):
    entry = next(e for e in json.loads(CATALOGUE.read_text()) if e["body"]["name"] == name)
    return entry["kind"], {**entry["body"], "name": renamed, **changes}


@pytest.fixture(scope="module")
def cards_engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


@pytest.fixture
def names():
    suffix = random_suffix()
    return {n: f"{n} {suffix}" for n in (*CANONICAL, *WIT_STARTERS)}


@pytest.fixture
def game(start_service, rpc, names, cards_engine):
    """authoring, cards and battle with this test's canonical cards, all published."""
    canonical = CanonicalCards(
        starter_power_cards=(names["Field Kit"], names["Reserve Focus"]),
        cpu_creatures=(names["Quillip"], names["Voltiki"], names["Karrik"]),
        cpu_power_cards=(names["Field Kit"], names["Reserve Focus"]),
    )
    with cards_engine.begin() as conn:  # the Wit starter set is this test's alone
        definitions = cards_orm.card_definitions.c
        conn.execute(
            sa.update(cards_orm.card_definitions)
            .where(
                definitions.retired_at.is_(None), definitions.attributes.contains({"starter": True})
            )
            .values(retired_at=T0)
        )
    start_service("authoring", replacements={"canonical": canonical})
    start_service("cards", replacements={"canonical": canonical, "random": SeededRandomSource(3)})
    start_service(
        "battle",
        replacements={
            "cpu_deck": CpuDeckNames(canonical.cpu_creatures, canonical.cpu_power_cards),
            "clock": FixedClock(T0),
            "random": SeededRandomSource(7),
        },
    )
    cards = {}
    for name, renamed in names.items():
        kind, body = seed_body(name, renamed)
        cards[name] = publish_card(rpc, kind, body)
    return cards


def publish_card(rpc, kind, body, replaces=None):
    draft = rpc.authoring.create(actor=ALICE, kind=kind, game="quest", body=body, replaces=replaces)
    card = publish(rpc.authoring, draft)
    wait_for(lambda: in_catalogue(rpc, card["id"]))
    return card


def in_catalogue(rpc, definition_id):
    return any(d["id"] == definition_id for d in rpc.cards.catalogue(game="quest"))


def replace_card(rpc, original, **changes):
    kind = original["kind"]
    return publish_card(rpc, kind, {**original["body"], **changes}, replaces=original["id"])


def lineage_of(cards_engine, definition_ids):
    definitions = cards_orm.card_definitions.c
    with cards_engine.connect() as conn:
        rows = conn.execute(
            sa.select(definitions.id, definitions.lineage_id).where(
                definitions.id.in_([uuid.UUID(i) for i in definition_ids])
            )
        ).all()
    return {str(r.id): r.lineage_id for r in rows}


def a_starter_deck(rpc, affinity="Wit"):
    player = str(uuid.uuid4())
    starter = rpc.cards.choose_starter(player_id=player, affinity=affinity)["starter"]
    deck = rpc.cards.create_deck(
        player_id=player, name="Starter", cards=[c["id"] for c in starter["cards"]]
    )
    return player, starter, deck


def test_a_replacement_of_a_starter_power_card_takes_its_place_at_once(rpc, game, names):
    original = game["Field Kit"]
    replacement = replace_card(rpc, original, effects=[{"type": "heal", "amount": 25}])

    catalogue = [d for d in rpc.cards.catalogue(game="quest") if d["name"] == names["Field Kit"]]
    assert [d["id"] for d in catalogue] == [replacement["id"]]  # one Field Kit, the new one
    _, starter, _ = a_starter_deck(rpc)
    granted = {c["definition_id"] for c in starter["cards"]}
    assert replacement["id"] in granted and original["id"] not in granted
    superseded = rpc.authoring.get(content_id=original["id"])
    assert superseded["state"] == "retired"
    assert rpc.authoring.audit(content_id=original["id"])[-1]["action"] == "supersede"


def test_while_a_starter_creature_is_replaced_every_grant_holds_three_distinct_creatures(
    rpc, game, cards_engine
):
    original = game["Inkwisp"]
    replacement = replace_card(rpc, original, hp=original["body"]["hp"] + 5)

    for _ in range(12):
        _, starter, _ = a_starter_deck(rpc)
        creatures = [c["definition_id"] for c in starter["cards"] if c["kind"] == "creature"]
        assert len(set(lineage_of(cards_engine, creatures).values())) == 3
        assert original["id"] not in creatures
    assert replacement["lineageId"] == original["lineageId"]


def test_a_renamed_replacement_keeps_starter_grants_and_cpu_battles_playable(rpc, game, names):
    original = game["Field Kit"]
    plus = replace_card(rpc, original, name=f"{names['Field Kit']} Plus")

    try:  # the next step; the replacement has already retired it
        rpc.authoring.transition(
            actor=BOB,
            content_id=original["id"],
            to="retired",
            expected_version=rpc.authoring.get(content_id=original["id"])["version"],
        )
    except Conflict as exc:
        assert exc.code == "retired_is_final"
    assert rpc.authoring.get(content_id=original["id"])["state"] == "retired"
    player, starter, deck = a_starter_deck(rpc)
    assert plus["id"] in {c["definition_id"] for c in starter["cards"]}
    match = rpc.battle.start_match(player_id=player, deck_id=deck["id"])
    assert match["status"] == "active"
    cpu_powers = rpc.cards.active_definitions_named(
        game="quest", kind="power_card", names=[names["Field Kit"], names["Reserve Focus"]]
    )
    assert plus["id"] in {d["id"] for d in cpu_powers}

    # The name belongs to the lineage: a later version may take it back, no other card.
    back = replace_card(rpc, plus, name=names["Field Kit"])
    assert back["lineageId"] == original["lineageId"]
    with pytest.raises(Conflict) as caught:
        rpc.authoring.create(
            actor=ALICE,
            kind="power_card",
            game="quest",
            body={**plus["body"], "name": names["Field Kit"].upper()},
        )
    assert caught.value.code == "duplicate_name"


def test_a_card_the_cpu_deck_or_starter_set_needs_is_only_retired_by_its_replacement(
    rpc, game, names
):
    karrik = game["Karrik"]
    with pytest.raises(Conflict) as caught:
        rpc.authoring.transition(
            actor=BOB, content_id=karrik["id"], to="retired", expected_version=karrik["version"]
        )
    assert caught.value.code == "card_in_use"
    assert caught.value.details == {"dependents": ["CPU deck"]}
    field_kit = game["Field Kit"]
    with pytest.raises(Conflict) as caught:
        rpc.authoring.transition(
            actor=BOB,
            content_id=field_kit["id"],
            to="retired",
            expected_version=field_kit["version"],
        )
    assert caught.value.details == {"dependents": ["starter set", "CPU deck"]}

    new_karrik = replace_card(rpc, karrik, hp=karrik["body"]["hp"] + 10)
    player, _, deck = a_starter_deck(rpc)
    assert rpc.battle.start_match(player_id=player, deck_id=deck["id"])["status"] == "active"
    cpu_creatures = rpc.cards.active_definitions_named(
        game="quest", kind="creature", names=[names["Karrik"]]
    )
    assert [d["id"] for d in cpu_creatures] == [new_karrik["id"]]
