"""What a gateway replica reports to battle of its push connections (gateway/push/
presence.py): absolute counts per player changed, a failed report sent again with the
counts of that moment, and a last report at shutdown."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from gateway.push.hub import PushHub
from gateway.push.presence import PresenceReporter


class Battle:
    def __init__(self, failures: int = 0) -> None:
        self.reports: list[dict[str, Any]] = []
        self.failures = failures

    async def call(self, service: str, method: str, **kwargs: Any) -> None:
        assert (service, method) == ("battle", "push_presence")
        if self.failures:
            self.failures -= 1
            raise ConnectionError("broker away")
        self.reports.append(kwargs)


def test_counts_are_absolute_per_player_and_changes_only():
    async def run() -> None:
        hub, battle = PushHub(), Battle()
        reporter = PresenceReporter(hub, battle.call, replica_id="r1", lease_seconds=45)
        one = hub.connect("p1")
        hub.connect("p1")
        hub.connect("p2")
        await reporter.flush()
        assert battle.reports[-1] == {
            "replica_id": "r1",
            "players": {"p1": 2, "p2": 1},
            "lease_seconds": 45,
        }
        assert one is not None
        hub.disconnect(one)
        await reporter.flush()
        assert battle.reports[-1]["players"] == {"p1": 1}
        await reporter.flush()  # a heartbeat: the lease only
        assert battle.reports[-1]["players"] == {}

    asyncio.run(run())


def test_a_failed_report_is_sent_again_with_the_counts_of_then():
    async def run() -> None:
        hub, battle = PushHub(), Battle(failures=1)
        reporter = PresenceReporter(hub, battle.call, replica_id="r1")
        connection = hub.connect("p1")
        with pytest.raises(ConnectionError):
            await reporter.flush()
        assert connection is not None
        hub.disconnect(connection)  # closed meanwhile
        await reporter.flush()
        assert battle.reports == [{"replica_id": "r1", "players": {"p1": 0}, "lease_seconds": 45.0}]

    asyncio.run(run())


def test_the_running_task_reports_a_change_and_the_last_report_at_stop():
    async def run() -> None:
        hub, battle = PushHub(), Battle()
        reporter = PresenceReporter(hub, battle.call, replica_id="r1", heartbeat_seconds=60)
        await reporter.start()
        connection = hub.connect("p1")
        while not battle.reports:
            await asyncio.sleep(0.01)
        assert battle.reports[0]["players"] == {"p1": 1}
        assert connection is not None
        await hub.close_all()
        hub.disconnect(connection)  # its writer's finally, at shutdown
        await reporter.stop()
        assert battle.reports[-1]["players"] == {"p1": 0}

    asyncio.run(run())
