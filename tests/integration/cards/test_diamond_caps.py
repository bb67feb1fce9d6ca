"""Chronovore's Diamond caps on real PostgreSQL (rules/chronovore.txt, "Diamond copies"):
never more Diamond copies of a card than a legal deck holds; an extra becomes Golden and
a later Golden card upgrades; a Diamond pack's extra is another Diamond card; the shop
sells a Diamond pack only while 5 more fit (unopened ones count); an unopened Diamond
pack sells back for its full price.

The real handlers and queries run inside one transaction in which the set is exactly
the cards a test describes (every other definition hidden), rolled back at the end.
"""

from __future__ import annotations

import uuid
from collections import Counter
from datetime import UTC, datetime

import pytest
import sqlalchemy as sa

from games.chronovore.content import COPY_LIMIT
from services.cards import orm
from services.cards import pack_handlers as packs
from services.cards.economy import economy_from, load_economy
from services.cards.ledger_handlers import GRANT, LedgerChange, change
from shared.clock import FixedClock
from shared.errors import Conflict, InvalidInput
from shared.randomness import SeededRandomSource
from tests.integration.cards import test_rewards
from tests.random_refs import random_suffix

pytestmark = pytest.mark.integration

GAME = "chronovore"
NOW = datetime(2026, 12, 4, 9, 0, tzinfo=UTC)
REAL = load_economy()
ALL_COMMON = {"common": 1}
# Test kinds over the real Chronovore rules: every card Common; "overflow" always draws
# Diamond but can give Golden (an ordinary pack's overflow), "gilded" is all Golden.
TEST_KINDS = [
    {"game": GAME, "kind": kind, "name": kind, "cards": 5, "rarities": ["common"],
     "rarity_weights": ALL_COMMON, "finish_weights": finishes}
    for kind, finishes in (("overflow", {"golden": 0, "diamond": 1}), ("gilded", {"golden": 1}))
]  # fmt: skip
TEST = economy_from({GAME: {"gold": {}, "fragments": {}}}, TEST_KINDS)


cards_db = test_rewards.cards_db  # the cards database (fixture)


def definition(rarity):
    name = f"Gem {random_suffix()}"
    body = {"name": name, "card_class": "neutral", "rarity": rarity, "attack": 1, "health": 1}
    return {
        "id": uuid.uuid4(),
        "lineage_id": uuid.uuid4(),
        "game": GAME,
        "kind": "monster",
        "name": name,
        "rarity": rarity,
        "attributes": {"card_class": "neutral", "name": "Gem"},
        "version": 1,
        "snapshot": {**body, "rewards": [{"type": "coins", "amount": 1}]},
        "published_at": NOW,
    }


only_these = test_rewards.only_these_definitions  # the set is exactly these; rolled back


class Player:
    def __init__(self, uow, economy):
        self.id, self.uow, self.economy = uuid.uuid4(), uow, economy
        self.clock, self.rng = FixedClock(NOW), SeededRandomSource(11)

    def grant(self, kind, quantity=1, pay=False, key=None):
        cmd = packs.GrantPacks(self.id, GAME, kind, quantity, "test", "t",
                               key or uuid.uuid4().hex, pay)  # fmt: skip
        return packs.grant_packs(cmd, self.uow, self.economy, self.clock)

    def open(self, pack_id):
        cmd = packs.OpenPack(self.id, pack_id, uuid.uuid4().hex, GAME)
        return packs.open_pack(cmd, self.uow, self.economy, self.rng, self.clock)

    def open_new(self, kind):
        return [card for pack in self.grant(kind)["packs"] for card in self.open(pack)["cards"]]

    def sell(self, pack_id, key=None):
        cmd = packs.SellPack(self.id, pack_id, key or uuid.uuid4().hex, GAME)
        return packs.sell_pack(cmd, self.uow, self.economy, self.clock)

    def gold(self, amount):
        cmd = LedgerChange(self.id, GAME, "gold", amount, "test", uuid.uuid4().hex)
        change(cmd, GRANT, self.uow.ledger, self.uow.players, self.economy, self.clock)

    def balance(self):
        return self.uow.ledger.balances(self.id, GAME).get("gold", 0)

    def diamonds(self):
        return self.uow.crafting.held_of_finish(self.id, GAME, "diamond")

    def owed(self):
        return self.uow.crafting.owed(self.id, GAME, "diamond")


def test_an_extra_diamond_becomes_golden_and_the_next_golden_card_upgrades(cards_db):
    first, second = definition("common"), definition("common")
    with only_these(cards_db, [first, second]) as (uow, session):
        me = Player(uow, TEST)
        cards = [c for _ in range(3) for c in me.open_new("overflow")]  # 15 Diamond draws
        finishes = Counter(c["finish"] for c in cards)
        assert finishes == {"diamond": 8, "golden": 7}  # 2 cards x 4, the rest Golden
        assert set(me.diamonds().values()) == {4} and me.owed() == 7
        # no room anywhere: Golden cards stay Golden, the debt waits
        assert {c["finish"] for c in me.open_new("gilded")} == {"golden"} and me.owed() == 7
        # a new card of the set has room for 4: its Golden cards upgrade, paying the debt
        third = definition("common")
        session.execute(sa.insert(orm.card_definitions).values(**third))
        drawn = [c for _ in range(3) for c in me.open_new("gilded")]
        upgraded = [c for c in drawn if c["finish"] == "diamond"]
        of_third = [c for c in drawn if c["definition_id"] == str(third["id"])]
        assert len(upgraded) == min(4, len(of_third)) > 0
        assert {c["definition_id"] for c in upgraded} == {str(third["id"])}
        assert me.owed() == 7 - len(upgraded)
        assert max(me.diamonds().values()) == 4


def one_of_each_rarity():
    return [definition(rarity) for rarity in COPY_LIMIT]  # room 4+3+2+1+1 = 11


def test_the_diamond_pack_is_sold_while_five_more_fit_counting_unopened_ones(cards_db):
    cards = one_of_each_rarity()
    with only_these(cards_db, cards) as (uow, _):
        me = Player(uow, REAL)
        me.gold(6000)
        me.grant("diamond", pay=True)  # room 11
        me.grant("diamond", pay=True)  # room 11 - 5 promised = 6
        with pytest.raises(Conflict) as refused:
            me.grant("diamond", pay=True)  # 11 - 10 = 1
        assert refused.value.code == "pack_room_too_small"
        assert refused.value.details == {"room": 1, "needed": 5}
        assert me.balance() == 2000
        opened = [c for p in packs.inventory(me.id, GAME, uow, REAL)["packs"]
                  for c in me.open(p["id"])["cards"]]  # fmt: skip
        assert len(opened) == 10 and {c["finish"] for c in opened} == {"diamond"}
        held = me.diamonds()  # never more Diamond copies of a card than a deck holds
        assert all(held.get(d["lineage_id"], 0) <= COPY_LIMIT[d["rarity"]] for d in cards)
        assert sum(held.values()) == 10 and me.owed() == 0
        with pytest.raises(Conflict):
            me.grant("diamond", pay=True)  # 1 left
        assert me.balance() == 2000


def test_a_quantity_of_diamond_packs_needs_room_for_every_one(cards_db):
    with only_these(cards_db, one_of_each_rarity()) as (uow, _):
        me = Player(uow, REAL)
        me.gold(6000)
        with pytest.raises(Conflict) as refused:
            me.grant("diamond", quantity=3, pay=True)  # 5 + 5 + 5 > 11
        assert refused.value.details == {"room": 11, "needed": 15}
        assert me.grant("diamond", quantity=2, pay=True)["payment"]["balance_after"] == 2000


def give_diamonds(session, who, card, count):
    session.execute(
        sa.insert(orm.owned_cards),
        [{"id": uuid.uuid4(), "player_id": who, "definition_id": card["id"],
          "source_type": "pack", "source_id": uuid.uuid4(), "finish": "diamond",
          "acquired_at": NOW} for _ in range(count)],
    )  # fmt: skip


def test_a_diamond_packs_extra_is_another_diamond_card_with_room(cards_db):
    cards = one_of_each_rarity()
    common = cards[0]
    with only_these(cards_db, cards) as (uow, session):
        me = Player(uow, REAL)
        give_diamonds(session, me.id, common, 4)  # the Common is full: room 3+2+1+1 = 7
        opened = me.open_new("diamond")
        assert {c["finish"] for c in opened} == {"diamond"}
        assert str(common["id"]) not in {c["definition_id"] for c in opened}
        held = me.diamonds()
        assert all(held.get(d["lineage_id"], 0) <= COPY_LIMIT[d["rarity"]] for d in cards)
        assert sum(held.values()) == 4 + 5 and me.owed() == 0


def test_a_diamond_pack_with_no_room_left_gives_golden_and_owes_the_upgrades(cards_db):
    cards = one_of_each_rarity()
    with only_these(cards_db, cards) as (uow, session):
        me = Player(uow, REAL)
        for card in cards[:-2]:
            give_diamonds(session, me.id, card, COPY_LIMIT[card["rarity"]])
        # room 2 (the Epic and the Mythic): a granted pack (not sold) still keeps the caps
        opened = me.open_new("diamond")
        assert Counter(c["finish"] for c in opened) == {"diamond": 2, "golden": 3}
        assert {c["rarity"] for c in opened if c["finish"] == "diamond"} == {"epic", "mythic"}
        assert me.owed() == 3 and sum(me.diamonds().values()) == 4 + 3 + 2 + 1 + 1


def test_an_unopened_diamond_pack_sells_back_for_its_full_price_once(cards_db):
    with only_these(cards_db, one_of_each_rarity()) as (uow, _):
        me = Player(uow, REAL)
        me.gold(2000)
        [bought] = me.grant("diamond", pay=True)["packs"]
        [granted, opened] = me.grant("diamond", quantity=2)["packs"]
        sale = me.sell(bought, key="sell-1")
        assert (sale["refund"]["amount"], sale["refund"]["balance_after"]) == (2000, 2000)
        again = me.sell(bought, key="sell-1")
        assert again["replayed"] is True and again["refund"]["id"] == sale["refund"]["id"]
        assert me.balance() == 2000
        with pytest.raises(InvalidInput) as refused:
            me.sell(granted, key="sell-1")  # the key of another sale
        assert refused.value.code == "idempotency_key_reused"
        with pytest.raises(Conflict) as refused:
            me.sell(bought)  # sold already
        assert refused.value.code == "pack_already_opened"
        with pytest.raises(Conflict) as refused:
            me.open(bought)  # a sold pack is not opened
        assert refused.value.code == "pack_already_opened"
        me.open(opened)
        with pytest.raises(Conflict):
            me.sell(opened)  # an opened one is not sold
        assert me.sell(granted)["refund"]["balance_after"] == 4000  # any unopened one
        assert packs.inventory(me.id, GAME, uow, REAL)["counts"] == {}
        [core] = me.grant("core")["packs"]
        with pytest.raises(InvalidInput) as refused:
            me.sell(core)
        assert refused.value.code == "pack_not_sellable"
