"""Readiness checks that a flood of probes cannot turn into load on the broker."""

from __future__ import annotations

from shared.readiness import BrokerLink, CachedCheck


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_check_runs_at_most_once_per_ttl():
    calls = []
    clock = Clock()
    check = CachedCheck(lambda: calls.append(1) or True, ttl=1.0, clock=clock)

    answers = [check() for _ in range(1000)]
    clock.now = 0.999
    answers.append(check())

    assert all(answers)
    assert len(calls) == 1
    clock.now = 1.0
    assert check() is True
    assert len(calls) == 2


def test_a_changed_answer_is_seen_after_the_ttl():
    state = {"ok": True}
    clock = Clock()
    check = CachedCheck(lambda: state["ok"], ttl=1.0, clock=clock)
    assert check() is True

    state["ok"] = False
    assert check() is True  # cached
    clock.now = 1.5
    assert check() is False


def test_a_check_that_raises_says_not_ready():
    def broken() -> bool:
        raise OSError("connection refused")

    assert CachedCheck(broken, ttl=1.0, clock=Clock())() is False


def test_callers_during_a_running_check_get_the_last_answer_without_waiting():
    clock = Clock()
    inner: list[bool] = []

    def slow() -> bool:
        inner.append(check())  # a second caller while the check runs
        return True

    check = CachedCheck(slow, ttl=1.0, clock=clock)

    assert check() is True
    assert inner == [False]  # nothing known yet: not ready, and no second check


class FakeChannel:
    def __init__(self, connection: FakeConnection) -> None:
        self.connection = connection

    def basic_qos(self, size: int, count: int, a_global: bool) -> None:
        if self.connection.broken:
            raise ConnectionResetError("gone")
        self.connection.round_trips += 1


class FakeConnection:
    def __init__(self) -> None:
        self.broken = False
        self.released = False
        self.round_trips = 0
        self.default_channel = FakeChannel(self)

    def release(self) -> None:
        self.released = True


def test_the_broker_link_keeps_one_connection_for_every_check():
    opened: list[FakeConnection] = []

    def connect(uri: str, timeout: float) -> FakeConnection:
        opened.append(FakeConnection())
        return opened[-1]

    link = BrokerLink("amqp://broker/", connect=connect)

    assert all(link.check() for _ in range(5))
    assert len(opened) == 1
    assert opened[0].round_trips == 5


def test_the_broker_link_reconnects_after_a_failure():
    opened: list[FakeConnection] = []
    refuse = {"now": False}

    def connect(uri: str, timeout: float) -> FakeConnection:
        if refuse["now"]:
            raise ConnectionRefusedError("down")
        opened.append(FakeConnection())
        return opened[-1]

    link = BrokerLink("amqp://broker/", connect=connect)
    assert link.check() is True

    opened[0].broken = True
    refuse["now"] = True
    assert link.check() is False
    assert opened[0].released
    assert link.check() is False  # still down: no connection

    refuse["now"] = False
    assert link.check() is True
    assert len(opened) == 2
