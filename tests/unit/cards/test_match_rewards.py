"""Gold for a finished match (services/cards/match_reward_handlers.py) over fakes: who
plays against a player, seats without a player, purged players, other games, once per
message and once per match."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from services.cards.economy import load_economy
from services.cards.match_reward_handlers import award_match
from services.cards.repository import CardsUnitOfWork
from shared.clock import FixedClock
from shared.events import MATCH_FINISHED, new_event
from shared.testing import FakePlayerGate
from tests.unit.shared.test_handlers_accounts_cards import FakeInbox

AT = datetime(2026, 12, 5, 12, tzinfo=UTC)
ECONOMY = load_economy()


class FakeLedger:
    def __init__(self) -> None:
        self.entries: dict[tuple[Any, str], dict[str, Any]] = {}
        self.counters: dict[tuple[Any, ...], int] = {}

    def entry_by_key(self, player_id, key):
        return self.entries.get((player_id, key))

    def bump(self, player_id, game, counter, day):
        found = self.counters.get((player_id, game, counter, day), 0) + 1
        self.counters[(player_id, game, counter, day)] = found
        return found

    def add(self, player_id, game, currency, amount, at, max_balance):
        return sum(e["delta"] for (p, _), e in self.entries.items() if p == player_id) + amount

    def add_entry(self, entry):
        self.entries[(entry["player_id"], entry["idempotency_key"])] = entry
        return entry

    def gold(self, player_id) -> list[int]:
        return [e["delta"] for (p, _), e in self.entries.items() if p == player_id]


def uow(ledger: FakeLedger, gate: FakePlayerGate) -> CardsUnitOfWork:
    fields: dict[str, Any] = dict.fromkeys(CardsUnitOfWork.__dataclass_fields__)
    fields.update(inbox=FakeInbox(), ledger=ledger, players=gate)
    return CardsUnitOfWork(**fields)


def finished(seats, game="chronovore", mode="pvp", match_id=None):
    data = {
        "match_id": match_id or uuid.uuid4(),
        "game": game,
        "mode": mode,
        "seats": [
            {"seat": f"s{i}", "kind": kind, "player_id": who, "result": result}
            for i, (kind, who, result) in enumerate(seats)
        ],
        "finished_at": AT,
    }
    return new_event(MATCH_FINISHED, data, AT)


def test_each_seated_player_gets_the_award_of_their_side_once():
    ledger, me, rival = FakeLedger(), uuid.uuid4(), uuid.uuid4()
    work = uow(ledger, FakePlayerGate())
    event = finished([("player", me, "win"), ("player", rival, "loss")])
    assert award_match(event, work, ECONOMY, FixedClock(AT)) == 2
    assert award_match(event, work, ECONOMY, FixedClock(AT)) == 0  # the same message
    again = finished([("player", me, "win"), ("player", rival, "loss")],
                     match_id=event.data["match_id"])  # fmt: skip
    assert award_match(again, work, ECONOMY, FixedClock(AT)) == 0  # the same match
    assert (ledger.gold(me), ledger.gold(rival)) == ([3 + 5], [1 + 5])


def test_a_computer_or_plan_opponent_is_no_player_and_leaving_pays_nothing():
    ledger, me = FakeLedger(), uuid.uuid4()
    work = uow(ledger, FakePlayerGate())
    cpu = finished([("player", me, "draw"), ("cpu", None, "draw")], mode="cpu")
    plan = finished([("player", me, "win"), ("plan", uuid.uuid4(), "loss")], mode="attack")
    left = finished([("player", me, "left"), ("player", uuid.uuid4(), "win")])
    for event in (cpu, plan, left):
        award_match(event, work, ECONOMY, FixedClock(AT))
    assert ledger.gold(me) == [1, 1]  # no daily bonus; nothing for leaving
    assert not [k for k in ledger.counters if k[0] == me]  # no game counted for me...
    back = finished([("player", me, "loss"), ("player", uuid.uuid4(), "win")])
    award_match(back, work, ECONOMY, FixedClock(AT))
    assert ledger.gold(me)[-1] == 1 + 5  # ...so this is the day's first


def test_purged_players_empty_seats_and_games_without_gold_get_nothing():
    ledger, purged, kept = FakeLedger(), uuid.uuid4(), uuid.uuid4()
    work = uow(ledger, FakePlayerGate(purged={purged}))
    award_match(finished([("player", purged, "win"), ("player", kept, "loss")]), work,
                ECONOMY, FixedClock(AT))  # fmt: skip
    award_match(finished([("player", None, "win"), ("player", kept, "loss")]), work,
                ECONOMY, FixedClock(AT))  # fmt: skip
    quest = finished([("player", kept, "victory"), ("cpu", None, "defeat")], game="quest")
    assert award_match(quest, work, ECONOMY, FixedClock(AT)) == 0
    assert ledger.gold(purged) == [] and ledger.gold(kept) == [1 + 5, 1 + 4]
