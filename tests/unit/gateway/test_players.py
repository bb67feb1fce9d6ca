"""Leases on active players: when the gateway may skip asking accounts, and when not."""

import asyncio
import functools

import pytest

from gateway.players import PlayerLeases


def sync(test):
    """Run an ``async`` test on a fresh event loop (the leases are awaited by the gateway)."""

    @functools.wraps(test)
    def run(*args, **kwargs):
        return asyncio.run(test(*args, **kwargs))

    return run


ACTIVE = {"id": "p1", "status": "active", "registered_now": True, "points": 0}
LOCKED = {"id": "p1", "status": "locked", "registered_now": False, "points": 0}


class Clock:
    def __init__(self):
        self.now = 100.0
        self.slept = []

    def __call__(self):
        return self.now

    async def sleep(self, seconds):
        self.slept.append(seconds)
        self.now += seconds


class Accounts:
    """accounts.me as the gateway sees it; ``during`` runs while the call is in flight."""

    def __init__(self, clock, answer=ACTIVE, takes=0.0):
        self.clock, self.answer, self.takes, self.calls = clock, answer, takes, 0

    async def __call__(self):
        self.calls += 1
        self.clock.now += self.takes
        return dict(self.answer)


@pytest.fixture
def clock():
    return Clock()


def leases(clock, seconds=1.0, **kwargs):
    return PlayerLeases(seconds, now=clock, sleep=clock.sleep, **kwargs)


@sync
async def test_an_active_answer_is_reused_until_the_lease_ends(clock):
    players, accounts = leases(clock), Accounts(clock)
    first = await players.active_player("s", accounts)
    clock.now += 0.7
    again = await players.active_player("s", accounts)
    assert accounts.calls == 1
    assert first["registered_now"] is True  # the registering request says so
    assert again == {**ACTIVE, "registered_now": False}  # a leased copy never does
    clock.now += 0.3  # exactly at the end (and nobody renewed): the lease is over
    await players.active_player("s", accounts)
    assert accounts.calls == 2


@sync
async def test_in_the_last_quarter_one_request_renews_while_the_others_use_the_lease(clock):
    players, accounts = leases(clock), Accounts(clock)
    await players.active_player("s", accounts)  # leased until 101.0
    clock.now = 100.74
    await players.active_player("s", accounts)
    assert accounts.calls == 1  # not yet the last quarter
    clock.now = 100.75
    during_renewal = []

    async def renewing():
        # Other requests arriving while the renewal is in flight use the old lease.
        during_renewal.append(await players.active_player("s", accounts))
        during_renewal.append(await players.active_player("s", accounts))
        return await accounts()

    await players.active_player("s", renewing)
    assert accounts.calls == 2 and len(during_renewal) == 2
    clock.now = 101.49  # the renewal, sent at 100.75, lasts until 101.75
    await players.active_player("s", accounts)
    assert accounts.calls == 2


@sync
async def test_a_renewal_that_finds_the_account_locked_ends_the_lease(clock):
    players, accounts = leases(clock), Accounts(clock)
    await players.active_player("s", accounts)
    clock.now = 100.9
    accounts.answer = LOCKED
    assert (await players.active_player("s", accounts))["status"] == "locked"
    assert (await players.active_player("s", accounts))["status"] == "locked"
    assert accounts.calls == 3


@sync
async def test_the_lease_runs_from_when_the_call_was_sent_not_answered(clock):
    players, accounts = leases(clock), Accounts(clock, takes=0.4)
    await players.active_player("s", accounts)  # sent at 100.0, answered at 100.4
    clock.now = 100.74
    await players.active_player("s", accounts)
    assert accounts.calls == 1
    clock.now = 100.75  # the last quarter of a lease from 100.0 (not from 100.4)
    await players.active_player("s", accounts)
    assert accounts.calls == 2


@sync
async def test_a_locked_answer_is_never_remembered(clock):
    players, accounts = leases(clock), Accounts(clock, answer=LOCKED)
    assert (await players.active_player("s", accounts))["status"] == "locked"
    await players.active_player("s", accounts)
    assert accounts.calls == 2


@sync
async def test_a_failed_call_is_not_remembered(clock):
    players = leases(clock)

    async def failing():
        raise RuntimeError("accounts unavailable")

    with pytest.raises(RuntimeError):
        await players.active_player("s", failing)
    accounts = Accounts(clock)
    await players.active_player("s", accounts)
    assert accounts.calls == 1


@sync
async def test_subjects_have_their_own_leases(clock):
    players, accounts = leases(clock), Accounts(clock)
    await players.active_player("a", accounts)
    await players.active_player("b", accounts)
    await players.active_player("a", accounts)
    assert accounts.calls == 2


@sync
async def test_a_lease_of_zero_asks_every_time(clock):
    players, accounts = leases(clock, seconds=0), Accounts(clock)
    for _ in range(3):
        await players.active_player("s", accounts)
    assert accounts.calls == 3
    await players.outlast("s")
    assert clock.slept == []


@sync
async def test_outlast_forgets_here_and_waits_out_every_other_lease(clock):
    here, elsewhere = leases(clock), leases(clock)
    accounts = Accounts(clock)
    await here.active_player("s", accounts)
    await elsewhere.active_player("s", accounts)  # another replica, leased at the same time
    accounts.answer = LOCKED  # the lock commits now
    await here.outlast("s")
    assert clock.slept == [1.0]
    assert (await here.active_player("s", accounts))["status"] == "locked"
    assert (await elsewhere.active_player("s", accounts))["status"] == "locked"


@sync
async def test_a_lease_granted_while_the_lock_commits_ends_before_the_deletion_answers(clock):
    """Accounts read the row just before the lock; the answer comes back after it."""
    players = leases(clock)
    in_flight = Accounts(clock, takes=0.3)
    await players.active_player("s", in_flight)  # sent at 100.0, row read active, lock at 100.1
    await players.outlast("s")  # the deletion's answer from accounts arrived at 100.3
    accounts = Accounts(clock, answer=LOCKED)
    assert (await players.active_player("s", accounts))["status"] == "locked"


@sync
async def test_the_number_of_leases_is_bounded(clock):
    players, accounts = leases(clock, max_players=2), Accounts(clock)
    for sub in ("a", "b", "c"):
        await players.active_player(sub, accounts)
    await players.active_player("a", accounts)  # the oldest was dropped
    assert accounts.calls == 4
    await players.active_player("c", accounts)
    assert accounts.calls == 4


def test_a_negative_lease_is_refused():
    with pytest.raises(ValueError):
        PlayerLeases(-1)
