"""Provably fair rolls end to end on real PostgreSQL (issue 22): a player's Quest
rewards and pack openings recomputed from the exported history after rotation, tampered
records refused, nothing secret in any answer, retries that take no nonce."""

from __future__ import annotations

import copy
import json
import uuid

import pytest
import sqlalchemy as sa

from deckyard.verify import verify_file
from games.kit.fair import verify_history
from services.cards import orm
from services.cards.repository import unit_of_work
from services.cards.reward_handlers import grant_reward
from shared.clock import FixedClock
from shared.db import Database, make_engine
from shared.errors import Conflict, InvalidInput
from shared.randomness import SeededRandomSource
from tests.integration.cards.economy_support import GAME, NOW, key
from tests.integration.cards.test_rewards import completed, definition

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def cards_db(settings):
    engine = make_engine(settings.database_url_for("cards"), pool_size=2)
    yield Database(engine, orm.plumbing, lambda: NOW)
    engine.dispose()


@pytest.fixture(scope="module")
def quest_rewards(economy_engine):
    """Committed reward-eligible Quest definitions of every rarity."""
    rows = [definition(r) for r in ("Common", "Rare", "Epic", "Legendary")]
    with economy_engine.begin() as conn:
        conn.execute(sa.insert(orm.card_definitions), rows)
    return rows


def reward(cards_db, player_id, correct=5, attempt_id=None):
    event = completed(correct, attempt_id=attempt_id, player_id=player_id)
    with unit_of_work(cards_db) as uow:
        return grant_reward(event, uow, SeededRandomSource(3), FixedClock(NOW))


def open_one(cards, player_id):
    granted = cards.grant_packs(
        player_id=player_id,
        game=GAME,
        kind="test",
        quantity=1,
        source_type="test",
        source_id="fairness",
        idempotency_key=key(),
    )
    return cards.open_pack(player_id=player_id, pack_id=granted["packs"][0], idempotency_key=key())


def export(cards, player_id):
    rolls, cursor = [], None
    while True:
        page = cards.roll_history(player_id=player_id, cursor=cursor, limit=3)
        rolls += page["items"]
        cursor = page["next"]
        if cursor is None:
            return rolls


def active_seed(economy_engine, player_id):
    with economy_engine.connect() as conn:
        return conn.execute(
            sa.select(orm.fair_seeds.c.server_seed).where(
                orm.fair_seeds.c.player_id == player_id, orm.fair_seeds.c.revealed_at.is_(None)
            )
        ).scalar_one()


def test_every_roll_recomputes_after_rotation_and_tampering_is_named(
    economy_cards, economy_engine, cards_db, quest_rewards, test_unit_cards, tmp_path
):
    player_id = uuid.uuid4()
    who = str(player_id)
    before = economy_cards.fairness(player_id=who)
    assert before["nonce"] == 0 and len(before["server_seed_hash"]) == 64
    attempt = uuid.uuid4()
    assert reward(cards_db, player_id, attempt_id=attempt)
    assert not reward(cards_db, player_id, attempt_id=attempt)  # a re-sent completion
    assert economy_cards.fairness(player_id=who)["nonce"] == 1  # ...took no nonce
    assert reward(cards_db, player_id, correct=2)  # no card: no draw, no nonce
    open_one(economy_cards, who)
    economy_cards.set_client_seed(player_id=who, client_seed="my.own-seed_1")
    reward(cards_db, player_id, correct=4)
    open_one(economy_cards, who)
    assert economy_cards.fairness(player_id=who)["nonce"] == 4

    rotated = economy_cards.rotate_seed(player_id=who)
    assert rotated["revealed"]["server_seed_hash"] == before["server_seed_hash"]
    assert rotated["revealed"]["rolls"] == 4
    assert rotated["active"]["nonce"] == 0
    assert rotated["active"]["client_seed"] == "my.own-seed_1"
    open_one(economy_cards, who)  # under the new seed: still secret

    rolls = export(economy_cards, who)
    assert [r["nonce"] for r in rolls] == [0, 3, 2, 1, 0]  # newest first
    assert [r["client_seed"] for r in rolls[1:3]] == ["my.own-seed_1"] * 2
    verdicts = verify_history(rolls)
    assert [v.status for v in verdicts] == ["pending", "ok", "ok", "ok", "ok"]

    path = tmp_path / "history.json"
    path.write_text(json.dumps({"items": rolls}))
    assert verify_file(path, out=(tmp_path / "out.txt").open("w")) == 0

    tampered = copy.deepcopy(rolls)
    draw = tampered[1]["draws"][0]
    draw["outcome"] = next(o for o in draw["options"] if o != draw["outcome"])
    tampered[2]["server_seed"] = "00" * 32
    tampered[3]["nonce"] = 2  # a nonce moved onto another roll's
    path.write_text(json.dumps(tampered))
    report = tmp_path / "report.txt"
    with report.open("w") as out:
        assert verify_file(path, out=out) == 1
    lines = report.read_text().splitlines()
    assert any("roll nonce 3" in line and "draw 0" in line for line in lines)
    assert any("roll nonce 2" in line and "server seed does not match" in line for line in lines)
    assert any("roll nonce 2" in line and "already used" in line for line in lines)
    assert lines[-1].startswith("5 rolls: 1 verified, 3 failed, 1 pending")


def test_no_answer_ever_carries_the_active_server_seed(
    economy_cards, economy_engine, test_unit_cards
):
    who = str(uuid.uuid4())
    answers = [
        economy_cards.fairness(player_id=who),
        open_one(economy_cards, who),
        economy_cards.set_client_seed(player_id=who, client_seed="abc"),
        open_one(economy_cards, who),
        economy_cards.roll_history(player_id=who),
    ]
    secret = active_seed(economy_engine, who)
    assert secret not in json.dumps(answers)
    rotated = economy_cards.rotate_seed(player_id=who)
    assert rotated["revealed"]["server_seed"] == secret  # due now, and only now
    new_secret = active_seed(economy_engine, who)
    later = [rotated, open_one(economy_cards, who), economy_cards.roll_history(player_id=who)]
    assert secret in json.dumps(later) and new_secret not in json.dumps(later)


def test_a_client_seed_outside_its_alphabet_is_refused(economy_cards):
    with pytest.raises(InvalidInput) as refused:
        economy_cards.set_client_seed(player_id=str(uuid.uuid4()), client_seed="a:b")
    assert refused.value.code == "invalid_client_seed"


def test_a_fair_choice_for_another_service_is_stored_once_per_source(economy_cards):
    """Battle's terrain roll (cards ``fair_choice``): stored before it is answered; the
    same source again answers the stored roll and takes no nonce; another player's or
    another purpose's roll under that source is refused."""
    who, source = str(uuid.uuid4()), str(uuid.uuid4())
    ask = {
        "purpose": "terrakard.terrain",
        "key": "terrain",
        "source_type": "attack",
        "source_id": source,
        "options": ["Fog", "CERN laboratory", "Grand Stadium"],
    }
    first = economy_cards.fair_choice(player_id=who, **ask)
    assert first["outcome"] in ask["options"] and first["roll"]["nonce"] == 0
    assert economy_cards.fair_choice(player_id=who, **ask) == first
    assert economy_cards.fairness(player_id=who)["nonce"] == 1  # the repeat took none
    [roll] = economy_cards.roll_history(player_id=who)["items"]
    assert roll["source"] == {"type": "attack", "id": source}
    assert roll["draws"] == [
        {"key": "terrain", "options": ask["options"], "weights": [1, 1, 1],
         "outcome": first["outcome"]}
    ]  # fmt: skip
    with pytest.raises(Conflict) as refused:
        economy_cards.fair_choice(player_id=str(uuid.uuid4()), **ask)
    assert refused.value.code == "roll_source_taken"
    with pytest.raises(InvalidInput) as refused_purpose:
        economy_cards.fair_choice(player_id=who, **{**ask, "purpose": "Bad:Purpose"})
    assert refused_purpose.value.code == "invalid_purpose"
    economy_cards.rotate_seed(player_id=who)
    [revealed] = economy_cards.roll_history(player_id=who)["items"]
    assert [v.status for v in verify_history([revealed])] == ["ok"]
