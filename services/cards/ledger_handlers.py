"""The currency ledger's use cases: balance, grant, spend, history (docs/economy.md).

Every write passes the player's gate first (shared/player_gate.py), then finds its
idempotency key: a retry gets the first answer and changes nothing. A spend is one
conditional UPDATE of the balance row in the transaction that appends its entry, so no
interleaving of spends can take a balance below zero. Limits are the currency's
configuration (``Economy``), counted per UTC day.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from services.cards.economy import CurrencyRules, Economy
from services.cards.ledger_store import SqlLedger
from services.cards.pages import DEFAULT_PAGE, after, page
from shared.clock import Clock
from shared.errors import Conflict, InvalidInput
from shared.player_gate import PlayerGate

GRANT = "grant"
SPEND = "spend"


@dataclass(frozen=True)
class LedgerChange:
    """A grant or a spend of ``amount`` (> 0) of one currency, under a key of the caller."""

    player_id: uuid.UUID
    game: str
    currency: str
    amount: int
    reason: str
    idempotency_key: str


def entry_view(entry: dict[str, Any], replayed: bool = False) -> dict[str, Any]:
    return {
        "id": entry["id"],
        "game": entry["game"],
        "currency": entry["currency"],
        "kind": GRANT if entry["delta"] > 0 else SPEND,
        "amount": abs(entry["delta"]),
        "balance_after": entry["balance_after"],
        "reason": entry["reason"],
        "idempotency_key": entry["idempotency_key"],
        "created_at": entry["created_at"],
        "replayed": replayed,
    }


def utc_day(now: datetime) -> Any:
    return now.astimezone(UTC).date()


def _earlier(ledger: SqlLedger, cmd: LedgerChange, delta: int) -> dict[str, Any] | None:
    """The entry this key already made, if it asked for the same change; a key used for
    another change is refused (422, as the API's idempotency rule)."""
    entry = ledger.entry_by_key(cmd.player_id, cmd.idempotency_key)
    if entry is None:
        return None
    if (entry["game"], entry["currency"], entry["delta"]) != (cmd.game, cmd.currency, delta):
        raise InvalidInput(
            "idempotency_key_reused", "this idempotency key was used for another change"
        )
    return entry


def _within_daily_limit(
    ledger: SqlLedger, cmd: LedgerChange, direction: str, limit: int | None, now: datetime
) -> None:
    if limit is None:
        return
    counter = f"{direction}:{cmd.currency}"
    day = utc_day(now)
    if not ledger.count(cmd.player_id, cmd.game, counter, day, cmd.amount, limit):
        raise Conflict(
            "daily_limit_reached",
            f"this would pass the daily {direction} limit of {cmd.currency} ({limit})",
            {
                "limit": limit,
                "used": ledger.used(cmd.player_id, cmd.game, counter, day),
                "day": day.isoformat(),
            },
        )


def apply_change(
    cmd: LedgerChange,
    direction: str,
    ledger: SqlLedger,
    rules: CurrencyRules,
    now: datetime,
) -> tuple[dict[str, Any], bool]:
    """The entry of a grant or spend, and whether it was made now (False: a retry).

    The caller has passed the player's gate in this transaction."""
    delta = cmd.amount if direction == GRANT else -cmd.amount
    earlier = _earlier(ledger, cmd, delta)
    if earlier is not None:
        return earlier, False
    if direction == GRANT:
        _within_daily_limit(ledger, cmd, GRANT, rules.daily_grant_limit, now)
        balance = ledger.add(
            cmd.player_id, cmd.game, cmd.currency, cmd.amount, now, rules.max_balance
        )
        if balance is None:
            raise Conflict(
                "balance_limit_reached",
                f"a balance of {cmd.currency} is at most {rules.max_balance}",
                {"max_balance": rules.max_balance},
            )
    else:
        _within_daily_limit(ledger, cmd, SPEND, rules.daily_spend_limit, now)
        balance = ledger.take(cmd.player_id, cmd.game, cmd.currency, cmd.amount, now)
        if balance is None:
            held = ledger.balances(cmd.player_id, cmd.game).get(cmd.currency, 0)
            raise Conflict(
                "insufficient_funds",
                f"not enough {cmd.currency}: {held} held, {cmd.amount} needed",
                {"balance": held, "needed": cmd.amount},
            )
    entry = ledger.add_entry(
        {
            "id": uuid.uuid4(),
            "player_id": cmd.player_id,
            "game": cmd.game,
            "currency": cmd.currency,
            "delta": delta,
            "balance_after": balance,
            "reason": cmd.reason,
            "idempotency_key": cmd.idempotency_key,
            "created_at": now,
        }
    )
    return entry, True


def change(
    cmd: LedgerChange,
    direction: str,
    ledger: SqlLedger,
    players: PlayerGate,
    economy: Economy,
    clock: Clock,
) -> dict[str, Any]:
    """Grant or spend, once per key; the entry as the player sees it."""
    rules = economy.currency(cmd.game, cmd.currency)
    players.admit(cmd.player_id)
    entry, made = apply_change(cmd, direction, ledger, rules, clock.now())
    return entry_view(entry, replayed=not made)


def balance(player_id: uuid.UUID, game: str, ledger: SqlLedger, economy: Economy) -> dict[str, Any]:
    """Every currency of the game, 0 for one never granted."""
    held = ledger.balances(player_id, game)
    return {
        "game": game,
        "balances": {currency: held.get(currency, 0) for currency in economy.currencies_of(game)},
    }


def history(
    player_id: uuid.UUID,
    game: str,
    currency: str | None,
    cursor: str | None,
    ledger: SqlLedger,
    economy: Economy,
    limit: int = DEFAULT_PAGE,
) -> dict[str, Any]:
    """The entries, newest first, a page at a time."""
    if currency is not None:
        economy.currency(game, currency)
    rows = ledger.entries(player_id, game, currency, after(cursor), limit + 1)
    return page(rows, limit, lambda row: row["seq"], entry_view)
