"""The pack inventory over RPC on real PostgreSQL: public odds, idempotent grants and
purchases, openings persisted with their copies and fair roll, one opening per pack."""

from __future__ import annotations

import uuid
from fractions import Fraction

import pytest
import sqlalchemy as sa

from services.cards import orm
from shared.errors import Conflict, InvalidInput, NotFound
from tests.integration.cards.economy_support import GAME, key, player

pytestmark = pytest.mark.integration


def grant_packs(cards, who, quantity=1, kind="test", idempotency_key=None, pay=False):
    return cards.grant_packs(
        player_id=who,
        game=GAME,
        kind=kind,
        quantity=quantity,
        source_type="test",
        source_id="test-source",
        idempotency_key=idempotency_key or key(),
        pay=pay,
    )


def test_the_odds_of_every_pack_kind_are_public(economy_cards):
    odds = {kind["kind"]: kind for kind in economy_cards.pack_odds(game=GAME)}
    assert set(odds) == {"test", "victory"}
    test = odds["test"]
    assert test["rarity_weights"] == {"Common": 6, "Rare": 3, "Epic": 1}
    assert test["finish_odds"] == {"plain": "9/10", "golden": "1/10"}
    assert test["price"] == {"currency": "gold", "amount": 10}
    # floor Rare: a slot is Common only if the floor did not lift it
    assert test["slot_rarity_odds"][0]["Common"] == str(
        Fraction(6, 10) * (1 - Fraction(36, 100) / 3)
    )


def test_a_grant_is_idempotent_and_fills_the_inventory(economy_cards):
    who, same = player(), key()
    first = grant_packs(economy_cards, who, 3, idempotency_key=same)
    again = grant_packs(economy_cards, who, 3, idempotency_key=same)
    assert again["packs"] == first["packs"] and again["replayed"] is True
    inventory = economy_cards.pack_inventory(player_id=who, game=GAME)
    assert inventory["counts"] == {"test": 3}
    assert {p["id"] for p in inventory["packs"]} == set(first["packs"])
    with pytest.raises(InvalidInput) as refused:
        grant_packs(economy_cards, who, 2, idempotency_key=same)
    assert refused.value.code == "idempotency_key_reused"


def test_buying_spends_the_whole_price_together_or_grants_nothing(economy_cards):
    who = player()
    economy_cards.grant(
        player_id=who, game=GAME, currency="gold", amount=25, reason="t", idempotency_key=key()
    )
    with pytest.raises(Conflict) as refused:
        grant_packs(economy_cards, who, 3, pay=True)  # 30 Gold
    assert refused.value.code == "insufficient_funds"
    assert economy_cards.pack_inventory(player_id=who, game=GAME)["counts"] == {}
    bought = grant_packs(economy_cards, who, 2, pay=True)
    assert (bought["payment"]["amount"], bought["payment"]["balance_after"]) == (20, 5)
    with pytest.raises(InvalidInput) as refused:
        grant_packs(economy_cards, who, 1, kind="victory", pay=True)
    assert refused.value.code == "pack_not_for_sale"


def test_a_daily_group_limits_packs_per_utc_day(economy_cards, economy_clock):
    who = player()
    grant_packs(economy_cards, who, 2, kind="victory")
    with pytest.raises(Conflict) as refused:
        grant_packs(economy_cards, who, 1, kind="victory")
    assert refused.value.code == "daily_limit_reached"
    economy_clock.advance(hours=1)
    grant_packs(economy_cards, who, 1, kind="victory")


def stored_opening(economy_engine, pack_id):
    with economy_engine.connect() as conn:
        opening = conn.execute(
            sa.select(orm.pack_openings).where(orm.pack_openings.c.pack_id == uuid.UUID(pack_id))
        ).one()
        copies = conn.execute(
            sa.select(orm.owned_cards).where(
                orm.owned_cards.c.source_type == "pack",
                orm.owned_cards.c.source_id == uuid.UUID(pack_id),
            )
        ).all()
        roll = conn.execute(
            sa.select(orm.fair_rolls).where(orm.fair_rolls.c.source_id == pack_id)
        ).one()
    return opening, copies, roll


def test_an_opening_is_persisted_with_its_copies_and_roll_and_a_retry_returns_it(
    economy_cards, economy_engine, test_unit_cards
):
    who, same = player(), key()
    [pack_id] = grant_packs(economy_cards, who)["packs"]
    opened = economy_cards.open_pack(player_id=who, pack_id=pack_id, idempotency_key=same)
    published = {str(row["id"]): row for row in test_unit_cards}
    assert len(opened["cards"]) == 3
    for card in opened["cards"]:
        assert published[card["definition_id"]]["rarity"] == card["rarity"]
        assert card["finish"] in {"plain", "golden"}
    assert any(card["rarity"] != "Common" for card in opened["cards"])  # the Rare floor
    assert opened["roll"]["nonce"] == 0 and opened["roll"]["purpose"] == "chronovore.pack.test"

    opening, copies, roll = stored_opening(economy_engine, pack_id)
    assert opening.cards == opened["cards"]
    assert sorted((str(c.id), c.finish) for c in copies) == sorted(
        (c["owned_card_id"], c["finish"]) for c in opened["cards"]
    )
    assert roll.nonce == 0 and len(roll.draws) >= 9

    again = economy_cards.open_pack(player_id=who, pack_id=pack_id, idempotency_key=same)
    assert again["cards"] == opened["cards"] and again["replayed"] is True
    assert again["roll"] == opened["roll"]
    assert economy_cards.fairness(player_id=who)["nonce"] == 1  # the retry took no nonce
    with pytest.raises(Conflict) as refused:
        economy_cards.open_pack(player_id=who, pack_id=pack_id, idempotency_key=key())
    assert refused.value.code == "pack_already_opened"
    assert economy_cards.pack_inventory(player_id=who, game=GAME)["counts"] == {}


def test_of_concurrent_openings_of_one_pack_exactly_one_wins(
    economy_cards, economy_engine, test_unit_cards
):
    who = player()
    [pack_id] = grant_packs(economy_cards, who)["packs"]
    replies = [
        economy_cards.open_pack.call_async(player_id=who, pack_id=pack_id, idempotency_key=key())
        for _ in range(6)
    ]
    won, lost = [], []
    for reply in replies:
        try:
            won.append(reply.result())
        except Conflict as exc:
            lost.append(exc.code)
    assert len(won) == 1 and lost == ["pack_already_opened"] * 5
    _, copies, _ = stored_opening(economy_engine, pack_id)
    assert len(copies) == 3


def test_someone_else_s_pack_is_not_found(economy_cards, test_unit_cards):
    [pack_id] = grant_packs(economy_cards, player())["packs"]
    with pytest.raises(NotFound) as refused:
        economy_cards.open_pack(player_id=player(), pack_id=pack_id, idempotency_key=key())
    assert refused.value.code == "pack_not_found"


def test_a_pack_asked_for_under_another_game_is_not_found_and_stays_unopened(
    economy_cards, test_unit_cards
):
    who, same = player(), key()
    [pack_id] = grant_packs(economy_cards, who)["packs"]
    with pytest.raises(NotFound) as refused:
        economy_cards.open_pack(
            player_id=who, pack_id=pack_id, idempotency_key=same, game="terrakard"
        )
    assert refused.value.code == "pack_not_found"
    assert economy_cards.pack_inventory(player_id=who, game=GAME)["counts"] == {"test": 1}
    opened = economy_cards.open_pack(
        player_id=who, pack_id=pack_id, idempotency_key=same, game=GAME
    )
    with pytest.raises(NotFound):  # its retry under another game: still unknown there
        economy_cards.open_pack(
            player_id=who, pack_id=pack_id, idempotency_key=same, game="terrakard"
        )
    again = economy_cards.open_pack(player_id=who, pack_id=pack_id, idempotency_key=same)
    assert again["cards"] == opened["cards"]
