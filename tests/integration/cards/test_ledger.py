"""The currency ledger over RPC on real PostgreSQL: balances, idempotent grants and
spends, never negative under concurrent spends, per-UTC-day limits, history pages."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from services.cards import orm
from services.cards.purge import purge_player
from shared.errors import Conflict, Forbidden, InvalidInput
from tests.integration.cards.economy_support import GAME, NOW, key, player

pytestmark = pytest.mark.integration


def grant(cards, who, amount, currency="gold", idempotency_key=None, reason="test"):
    return cards.grant(
        player_id=who,
        game=GAME,
        currency=currency,
        amount=amount,
        reason=reason,
        idempotency_key=idempotency_key or key(),
    )


def spend(cards, who, amount, currency="gold", idempotency_key=None):
    return cards.spend(
        player_id=who,
        game=GAME,
        currency=currency,
        amount=amount,
        reason="shop",
        idempotency_key=idempotency_key or key(),
    )


def spend_async(cards, who, amount, idempotency_key):
    return cards.spend.call_async(
        player_id=who,
        game=GAME,
        currency="gold",
        amount=amount,
        reason="shop",
        idempotency_key=idempotency_key,
    )


def test_every_currency_of_the_game_has_a_balance_from_zero(economy_cards):
    who = player()
    assert economy_cards.balance(player_id=who, game=GAME)["balances"] == {
        "fragments": 0,
        "gold": 0,
        "tokens": 0,
    }
    entry = grant(economy_cards, who, 12)
    assert (entry["kind"], entry["amount"], entry["balance_after"]) == ("grant", 12, 12)
    assert economy_cards.balance(player_id=who, game=GAME)["balances"]["gold"] == 12


def test_a_retried_grant_returns_the_first_entry_and_grants_once(economy_cards):
    who, same = player(), key()
    first = grant(economy_cards, who, 5, idempotency_key=same)
    again = grant(economy_cards, who, 5, idempotency_key=same)
    assert again["id"] == first["id"] and again["replayed"] is True
    assert economy_cards.balance(player_id=who, game=GAME)["balances"]["gold"] == 5
    with pytest.raises(InvalidInput) as refused:
        grant(economy_cards, who, 6, idempotency_key=same)
    assert refused.value.code == "idempotency_key_reused"


def test_a_spend_beyond_the_balance_is_refused_and_changes_nothing(economy_cards, economy_engine):
    who = player()
    grant(economy_cards, who, 9)
    with pytest.raises(Conflict) as refused:
        spend(economy_cards, who, 10)
    assert refused.value.code == "insufficient_funds"
    assert refused.value.details == {"balance": 9, "needed": 10}
    assert spend(economy_cards, who, 9)["balance_after"] == 0
    assert len(economy_cards.ledger_history(player_id=who, game=GAME)["items"]) == 2


def test_concurrent_spends_never_take_a_balance_below_zero(economy_cards):
    who = player()
    grant(economy_cards, who, 100)
    # Ten requests in flight at once, served by the service's concurrent workers.
    replies = [spend_async(economy_cards, who, 30, key()) for _ in range(10)]
    results = []
    for reply in replies:
        try:
            results.append(reply.result()["balance_after"])
        except Conflict as exc:
            results.append(exc.code)
    assert sorted(r for r in results if isinstance(r, int)) == [10, 40, 70]
    assert results.count("insufficient_funds") == 7
    assert economy_cards.balance(player_id=who, game=GAME)["balances"]["gold"] == 10


def test_one_key_spent_concurrently_spends_once(economy_cards):
    who, same = player(), key()
    grant(economy_cards, who, 50)
    replies = [spend_async(economy_cards, who, 20, same) for _ in range(5)]
    entries = [reply.result() for reply in replies]
    assert len({e["id"] for e in entries}) == 1
    assert economy_cards.balance(player_id=who, game=GAME)["balances"]["gold"] == 30


def test_a_daily_grant_limit_counts_per_utc_day(economy_cards, economy_clock):
    who = player()
    grant(economy_cards, who, 6, currency="tokens")
    with pytest.raises(Conflict) as refused:
        grant(economy_cards, who, 5, currency="tokens")
    assert refused.value.code == "daily_limit_reached"
    assert refused.value.details == {"limit": 10, "used": 6, "day": "2026-12-02"}
    grant(economy_cards, who, 4, currency="tokens")  # exactly the limit
    economy_clock.advance(hours=1)  # 00:00 UTC: a new day
    assert grant(economy_cards, who, 5, currency="tokens")["balance_after"] == 15


def test_the_maximum_balance_is_refused_with_its_own_code(economy_cards, economy_clock):
    who = player()
    grant(economy_cards, who, 10, currency="tokens")
    economy_clock.advance(days=1)
    grant(economy_cards, who, 5, currency="tokens")
    with pytest.raises(Conflict) as refused:
        grant(economy_cards, who, 1, currency="tokens")
    assert refused.value.code == "balance_limit_reached"


def test_an_unknown_currency_is_invalid(economy_cards):
    with pytest.raises(InvalidInput) as refused:
        grant(economy_cards, player(), 1, currency="diamonds")
    assert refused.value.code == "unknown_currency"


def test_history_is_newest_first_a_page_at_a_time(economy_cards):
    who = player()
    for amount in range(1, 6):
        grant(economy_cards, who, amount)
    grant(economy_cards, who, 1, currency="fragments")
    seen, cursor = [], None
    while True:
        page = economy_cards.ledger_history(
            player_id=who, game=GAME, currency="gold", cursor=cursor, limit=2
        )
        seen += [entry["amount"] for entry in page["items"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert seen == [5, 4, 3, 2, 1]
    assert len(economy_cards.ledger_history(player_id=who, game=GAME)["items"]) == 6
    with pytest.raises(InvalidInput) as refused:
        economy_cards.ledger_history(player_id=who, game=GAME, cursor="not-a-cursor")
    assert refused.value.code == "invalid_cursor"


def test_a_purged_player_s_ledger_is_gone_and_no_grant_reaches_them(economy_cards, economy_engine):
    who = player()
    grant(economy_cards, who, 3)
    with economy_engine.begin() as conn, sa.orm.Session(bind=conn) as session:
        purge_player(session, who, NOW)
        session.flush()
    with economy_engine.connect() as conn:
        for table in (orm.ledger_entries, orm.currency_balances):
            count = conn.execute(
                sa.select(sa.func.count()).select_from(table).where(table.c.player_id == who)
            ).scalar_one()
            assert count == 0, table.name
    with pytest.raises(Forbidden) as refused:
        grant(economy_cards, who, 1)
    assert refused.value.code == "account_locked"
