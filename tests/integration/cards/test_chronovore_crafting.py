"""Chronovore's Card Fragments and Gold in the cards service, over RPC and RabbitMQ on
real PostgreSQL (rules/chronovore.txt, "Shredding and crafting", "Gold"): shreds and
crafts by rarity and finish, the copy limit under racing crafts, the weakened refund on
a moved clock, idempotent keys; Gold per finished match once, the daily bonus across a
UTC midnight."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from services.cards import orm
from shared.clock import FixedClock
from shared.errors import Conflict, InvalidInput, NotFound
from shared.events import MATCH_FINISHED, new_event
from shared.randomness import SeededRandomSource
from tests.helpers import publish_event, wait_for
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

GAME = "chronovore"
NOW = datetime(2026, 12, 3, 22, 30, tzinfo=UTC)


@pytest.fixture
def clock():
    return FixedClock(NOW)


@pytest.fixture
def cards(start_service, rpc, clock):
    start_service("cards", replacements={"clock": clock, "random": SeededRandomSource(3)})
    return rpc.cards


@pytest.fixture(scope="module")
def engine(settings):
    engine = sa.create_engine(settings.database_url_for("cards"))
    yield engine
    engine.dispose()


def definition(rarity, lineage_id=None, published_at=NOW, **snapshot):
    name = f"Crafted {random_suffix()}"
    body = {"name": name, "card_class": "neutral", "rarity": rarity, "attack": 1, "health": 1}
    return {
        "id": uuid.uuid4(),
        "lineage_id": lineage_id or uuid.uuid4(),
        "game": GAME,
        "kind": "monster",
        "name": name,
        "rarity": rarity,
        "attributes": {"card_class": "neutral", "name": name},
        "version": 1,
        "snapshot": {**body, "rewards": [{"type": "coins", "amount": 1}], **snapshot},
        "published_at": published_at,
        "retired_at": None,
    }


def publish(engine, *rows):
    with engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), [dict(r) for r in rows])
    return rows[0] if len(rows) == 1 else rows


def give(engine, who, card, finish="plain", count=1):
    copies = [
        {
            "id": uuid.uuid4(),
            "player_id": uuid.UUID(who),
            "definition_id": card["id"],
            "source_type": "pack",
            "source_id": uuid.uuid4(),
            "finish": finish,
            "acquired_at": NOW,
        }
        for _ in range(count)
    ]
    with engine.begin() as conn:
        conn.execute(sa.insert(orm.owned_cards), copies)
    return [str(c["id"]) for c in copies]


def player():
    return str(uuid.uuid4())


def key():
    return f"k-{uuid.uuid4().hex}"


def fragments(cards, who):
    return cards.balance(player_id=who, game=GAME)["balances"]["fragments"]


def shred(cards, who, copy_id, idempotency_key=None):
    return cards.shred_copy(
        player_id=who, game=GAME, copy_id=copy_id, idempotency_key=idempotency_key or key()
    )


def craft(cards, who, card, finish="plain", idempotency_key=None):
    return cards.craft_copy(
        player_id=who,
        game=GAME,
        definition_id=str(card["id"]),
        finish=finish,
        idempotency_key=idempotency_key or key(),
    )


def grant_fragments(cards, who, amount):
    cards.grant(player_id=who, game=GAME, currency="fragments", amount=amount, reason="t",
                idempotency_key=key())  # fmt: skip


def copies_of(engine, who, card):
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(orm.owned_cards.c.finish)
            .join(
                orm.card_definitions, orm.card_definitions.c.id == orm.owned_cards.c.definition_id
            )
            .where(
                orm.owned_cards.c.player_id == uuid.UUID(who),
                orm.card_definitions.c.lineage_id == card["lineage_id"],
            )
        ).all()
    return sorted(row.finish for row in rows)


# -- shredding ------------------------------------------------------------------------------


def test_shredding_plain_and_golden_copies_by_rarity_and_never_a_diamond(cards, engine):
    who = player()
    rare, mythic = publish(engine, definition("rare"), definition("mythic"))
    [plain] = give(engine, who, rare)
    [golden] = give(engine, who, mythic, "golden")
    [diamond] = give(engine, who, mythic, "diamond")
    shredded = shred(cards, who, plain)
    assert (shredded["fragments"], shredded["entry"]["balance_after"]) == (16, 16)
    assert (shredded["action"], shredded["finish"], shredded["weakened"]) == (
        "shred",
        "plain",
        False,
    )
    assert shred(cards, who, golden)["fragments"] == 256 * 4
    with pytest.raises(InvalidInput) as refused:
        shred(cards, who, diamond)
    assert refused.value.code == "finish_not_craftable"
    assert fragments(cards, who) == 16 + 1024
    assert copies_of(engine, who, rare) == [] and copies_of(engine, who, mythic) == ["diamond"]


def test_a_retried_shred_returns_the_first_answer_and_shreds_once(cards, engine):
    who, same = player(), key()
    common = publish(engine, definition("common"))
    first_copy, second_copy = give(engine, who, common, count=2)
    first = shred(cards, who, first_copy, same)
    again = shred(cards, who, first_copy, same)
    assert again["replayed"] is True and again["id"] == first["id"]
    assert again["entry"]["id"] == first["entry"]["id"]
    assert fragments(cards, who) == 1
    with pytest.raises(InvalidInput) as refused:
        shred(cards, who, second_copy, same)  # the key again, for another copy
    assert refused.value.code == "idempotency_key_reused"
    with pytest.raises(NotFound) as refused:
        shred(cards, who, first_copy)  # gone
    assert refused.value.code == "copy_not_found"
    with pytest.raises(NotFound):
        shred(cards, player(), second_copy)  # another player's copy is not found
    assert copies_of(engine, who, common) == ["plain"]


def test_a_copy_in_a_saved_deck_is_not_shredded(cards, engine):
    who = player()
    common = publish(engine, definition("common"))
    [copy] = give(engine, who, common)
    deck = cards.create_deck(player_id=who, game=GAME, name="Keep", cards=[copy])
    with pytest.raises(Conflict) as refused:
        shred(cards, who, copy)
    assert refused.value.code == "copy_in_deck"
    assert refused.value.details == {"decks": [deck["id"]]}
    assert fragments(cards, who) == 0 and copies_of(engine, who, common) == ["plain"]


def test_for_seven_days_after_a_weakening_a_shred_returns_the_crafting_cost(cards, engine, clock):
    who = player()
    original = definition("epic", published_at=NOW - timedelta(days=30))
    original["retired_at"] = NOW
    weakened = definition("epic", original["lineage_id"], NOW, weakening=True)
    weakened["version"] = 2
    publish(engine, original, weakened)
    plain_old, plain_new, after = give(engine, who, original) + give(engine, who, weakened, count=2)
    [golden] = give(engine, who, original, "golden")
    assert shred(cards, who, plain_old)["weakened"] is True and fragments(cards, who) == 320
    assert shred(cards, who, golden)["fragments"] == 4 * 320
    clock.advance(days=7, seconds=-1)
    entry = shred(cards, who, plain_new)
    assert (entry["fragments"], entry["weakened"]) == (320, True)
    clock.advance(seconds=1)  # 7 days after the weakening: an ordinary shred again
    entry = shred(cards, who, after)
    assert (entry["fragments"], entry["weakened"]) == (64, False)


# -- crafting -------------------------------------------------------------------------------


def test_crafting_spends_fragments_for_a_copy_or_nothing_changes(cards, engine):
    who = player()
    uncommon = publish(engine, definition("uncommon"))
    grant_fragments(cards, who, 99)
    golden = craft(cards, who, uncommon, "golden")
    assert (golden["fragments"], golden["entry"]["balance_after"]) == (80, 19)
    with pytest.raises(Conflict) as refused:
        craft(cards, who, uncommon, "plain")  # 20
    assert refused.value.code == "insufficient_funds"
    assert fragments(cards, who) == 19 and copies_of(engine, who, uncommon) == ["golden"]
    grant_fragments(cards, who, 1)
    plain = craft(cards, who, uncommon, "plain")
    assert (plain["action"], plain["entry"]["balance_after"]) == ("craft", 0)
    collection = cards.player_collection(player_id=who, game=GAME)
    owned = {c["id"] for d in collection["definitions"] for c in d["copies"]}
    assert {plain["copy_id"], golden["copy_id"]} <= owned
    with pytest.raises(InvalidInput) as refused:
        craft(cards, who, uncommon, "diamond")
    assert refused.value.code == "finish_not_craftable"


def test_a_retried_craft_makes_one_copy(cards, engine):
    who, same = player(), key()
    common = publish(engine, definition("common"))
    grant_fragments(cards, who, 50)
    first = craft(cards, who, common, idempotency_key=same)
    again = craft(cards, who, common, idempotency_key=same)
    assert again["replayed"] is True and again["copy_id"] == first["copy_id"]
    assert fragments(cards, who) == 45 and copies_of(engine, who, common) == ["plain"]
    with pytest.raises(InvalidInput) as refused:
        craft(cards, who, common, "golden", idempotency_key=same)
    assert refused.value.code == "idempotency_key_reused"


def test_crafting_stops_at_the_copy_limit_counting_every_finish_and_version(cards, engine):
    who = player()
    old = definition("rare", published_at=NOW - timedelta(days=1))
    old["retired_at"] = NOW
    rare = definition("rare", old["lineage_id"])
    publish(engine, old, rare)
    give(engine, who, old, "diamond")  # an older version, a Diamond copy: both count
    grant_fragments(cards, who, 1000)
    craft(cards, who, rare, "golden")  # 2 of 2
    with pytest.raises(Conflict) as refused:
        craft(cards, who, rare)
    assert refused.value.code == "craft_copy_limit"
    assert refused.value.details == {"limit": 2, "held": 2}
    with pytest.raises(Conflict) as refused:
        craft(cards, who, old)  # a replaced version is not crafted
    assert refused.value.code == "card_not_craftable"
    assert refused.value.details == {"active_id": str(rare["id"])}
    with pytest.raises(NotFound) as refused:
        cards.craft_copy(player_id=who, game=GAME, definition_id=str(uuid.uuid4()),
                         finish="plain", idempotency_key=key())  # fmt: skip
    assert refused.value.code == "definition_not_found"
    assert fragments(cards, who) == 1000 - 320


def outcomes(replies):
    found = []
    for reply in replies:
        try:
            found.append(reply.result()["copy_id"])
        except (Conflict, NotFound) as exc:
            found.append(exc.code)
    return found


def test_crafts_racing_at_the_copy_limit_make_exactly_the_missing_copy(cards, engine):
    who = player()
    common = publish(engine, definition("common"))
    give(engine, who, common, "golden", count=3)  # 3 of 4
    grant_fragments(cards, who, 100)
    replies = [
        cards.craft_copy.call_async(
            player_id=who,
            game=GAME,
            definition_id=str(common["id"]),
            finish="plain",
            idempotency_key=key(),
        )
        for _ in range(6)
    ]
    found = outcomes(replies)
    assert found.count("craft_copy_limit") == 5 and len(set(found)) == 2
    assert fragments(cards, who) == 95
    assert copies_of(engine, who, common) == ["golden", "golden", "golden", "plain"]


def test_shreds_racing_on_one_copy_shred_it_once(cards, engine):
    who = player()
    epic = publish(engine, definition("epic"))
    [copy] = give(engine, who, epic)
    replies = [
        cards.shred_copy.call_async(player_id=who, game=GAME, copy_id=copy, idempotency_key=key())
        for _ in range(5)
    ]
    found = outcomes(replies)
    assert found.count(copy) == 1 and found.count("copy_not_found") == 4
    assert fragments(cards, who) == 64


# -- Gold ----------------------------------------------------------------------------------


def finished(seats, mode="pvp", at=NOW, match_id=None):
    return new_event(
        MATCH_FINISHED,
        {
            "match_id": match_id or uuid.uuid4(),
            "game": GAME,
            "mode": mode,
            "seats": [
                {"seat": f"s{i}", "kind": kind, "player_id": who, "result": result}
                for i, (kind, who, result) in enumerate(seats)
            ],
            "finished_at": at,
        },
        at,
    )


def gold(cards, who):
    return cards.balance(player_id=who, game=GAME)["balances"]["gold"]


def gold_history(cards, who):
    items = cards.ledger_history(player_id=who, game=GAME, currency="gold")["items"]
    return [item["amount"] for item in reversed(items)]


def test_gold_for_matches_against_players_with_the_days_first_five_across_midnight(cards, settings):
    me, rival = player(), player()
    before_midnight = datetime(2026, 12, 3, 23, 59, 59, tzinfo=UTC)
    results = ["win", "loss", "draw", "win", "loss", "win"]
    for played, result in enumerate(results, 1):  # six games on the 3rd, to 23:59:59
        other = {"win": "loss", "loss": "win", "draw": "draw"}[result]
        event = finished([("player", me, result), ("player", rival, other)], at=before_midnight)
        publish_event(settings, event)
        # one at a time: the day's order is the order the cards service learns of them
        wait_for(lambda played=played: len(gold_history(cards, rival)) == played)
    assert gold_history(cards, me) == [3 + 5, 1 + 4, 2 + 3, 3 + 2, 1 + 1, 3]
    assert gold_history(cards, rival) == [1 + 5, 3 + 4, 2 + 3, 1 + 2, 3 + 1, 1]
    midnight = before_midnight + timedelta(seconds=1)  # the 4th: the bonus again
    publish_event(
        settings, finished([("player", me, "loss"), ("player", rival, "win")], at=midnight)
    )
    wait_for(lambda: len(gold_history(cards, me)) == 7)
    assert gold_history(cards, me)[-1] == 1 + 5 and gold_history(cards, rival)[-1] == 3 + 5


def test_gold_once_per_match_for_the_computer_and_nothing_for_leaving(cards, settings):
    me, rival = player(), player()
    match_id = uuid.uuid4()
    won = finished([("player", me, "win"), ("cpu", None, "loss")], "cpu", match_id=match_id)
    publish_event(settings, won)
    publish_event(settings, won)  # a redelivery
    # the same match again under another event id: still once
    publish_event(settings, finished([("player", me, "win"), ("cpu", None, "loss")], "cpu",
                                     match_id=match_id))  # fmt: skip
    publish_event(settings, finished([("player", me, "left"), ("cpu", None, "win")], "cpu"))
    # leaving a match against a player: the leaver gets nothing and counts no game; the
    # other player gets a win with the day's first bonus
    publish_event(settings, finished([("player", me, "left"), ("player", rival, "win")]))
    publish_event(settings, finished([("player", me, "loss"), ("cpu", None, "win")], "cpu"))
    wait_for(lambda: gold(cards, me) == 2 and gold(cards, rival) == 8)
    publish_event(settings, finished([("player", me, "win"), ("player", rival, "loss")]))
    wait_for(lambda: gold(cards, me) == 2 + 3 + 5)  # the leaver's first completed game
    assert gold_history(cards, me) == [1, 1, 8] and gold_history(cards, rival) == [8, 1 + 4]
