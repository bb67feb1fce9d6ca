"""Leases on active players: when the gateway may skip asking accounts, and when not."""

import asyncio
import functools

import pytest

from gateway.players import PlayerLeases
from gateway.push.watch import MAX_UNREAD_TICKS, StreamWatch
from shared.errors import ServiceUnavailable


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
    await players.outlast("s", clock.now)
    assert clock.slept == []


@sync
async def test_outlast_forgets_here_and_waits_out_every_other_lease(clock):
    here, elsewhere = leases(clock), leases(clock)
    accounts = Accounts(clock)
    await here.active_player("s", accounts)
    await elsewhere.active_player("s", accounts)  # another replica, leased at the same time
    accounts.answer = LOCKED  # the lock commits now
    await here.outlast("s", clock.now)
    assert clock.slept == [1.0]
    assert (await here.active_player("s", accounts))["status"] == "locked"
    assert (await elsewhere.active_player("s", accounts))["status"] == "locked"


@sync
async def test_a_lease_granted_while_the_lock_commits_ends_before_the_deletion_answers(clock):
    """Accounts read the row just before the lock; the answer comes back after it."""
    players = leases(clock)
    in_flight = Accounts(clock, takes=0.3)
    await players.active_player("s", in_flight)  # sent at 100.0, row read active, lock at 100.1
    await players.outlast("s", 100.0)  # the deletion's answer from accounts arrived at 100.3
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
    with pytest.raises(ValueError):
        PlayerLeases(1, trust_seconds=-1)


class Stream:
    """The push stream as replicas read it: one log; each replica has read up to a point."""

    def __init__(self, clock):
        self.clock = clock
        self.log = []  # (kind, body)
        self.replicas = []

    def join(self, **kwargs):
        watch = StreamWatch(now=self.clock)
        players = leases(
            self.clock, trust_seconds=300, caught_up_at=lambda: watch.caught_up_at, **kwargs
        )
        replica = {"watch": watch, "players": players, "read": 0, "reading": True}
        self.replicas.append(replica)
        return replica

    async def announce(self, sub):
        self.log.append(("revocation", {"sub": sub}))
        self.deliver()

    def tick(self):
        for replica in self.replicas:
            self.log.append(("tick", replica["watch"].next_tick()))

    def deliver(self):
        """Every replica still reading reads the log to its end."""
        for replica in self.replicas:
            if not replica["reading"]:
                continue
            for kind, body in self.log[replica["read"] :]:
                if kind == "tick":
                    replica["watch"].read_tick(body)
                else:
                    replica["players"].revoke(body["sub"])
            replica["read"] = len(self.log)


@sync
async def test_a_replica_caught_up_with_the_stream_trusts_a_lease_for_long(clock):
    stream = Stream(clock)
    players, accounts = stream.join()["players"], Accounts(clock)
    await players.active_player("s", accounts)
    for _ in range(100):  # 100 s of ticks, each read back
        clock.now += 1.0
        stream.tick()
        stream.deliver()
        await players.active_player("s", accounts)
    assert accounts.calls == 1


@sync
async def test_a_replica_behind_the_stream_falls_back_to_the_short_lease(clock):
    stream = Stream(clock)
    replica = stream.join()
    players, accounts = replica["players"], Accounts(clock)
    await players.active_player("s", accounts)
    stream.tick()
    stream.deliver()  # caught up at 100.0
    clock.now = 100.5
    await players.active_player("s", accounts)
    assert accounts.calls == 1
    replica["reading"] = False  # its consumer stalls: ticks are sent, none read back
    clock.now = 101.01
    stream.tick()
    await players.active_player("s", accounts)
    assert accounts.calls == 2  # neither lease holds: asked again


@sync
async def test_a_revocation_read_ends_the_lease_and_an_answer_in_flight_is_not_kept(clock):
    stream = Stream(clock)
    players = stream.join()["players"]
    await players.active_player("s", Accounts(clock))
    players.revoke("s")
    accounts = Accounts(clock)

    async def answered_before_the_lock_read_after_the_revocation():
        players.revoke("s")  # read from the stream while the call was in flight
        return await accounts()

    clock.now += 0.1
    await players.active_player("s", answered_before_the_lock_read_after_the_revocation)
    await players.active_player("s", accounts)
    assert accounts.calls == 2  # the in-flight answer was not leased


@sync
async def test_deletion_answers_once_read_back_and_then_every_replica_refuses(clock):
    stream = Stream(clock)
    here, elsewhere, stalled = stream.join(), stream.join(), stream.join()
    accounts = Accounts(clock)
    for replica in (here, elsewhere, stalled):
        await replica["players"].active_player("s", accounts)
    stream.tick()
    stream.deliver()
    clock.now += 10.0  # long leases, trusted everywhere
    stream.tick()
    stream.deliver()
    stalled["reading"] = False  # this one will never read the revocation
    asked_at = clock.now
    accounts.answer = LOCKED  # the lock commits
    await here["players"].outlast("s", asked_at, stream.announce)
    assert clock.slept == [1.0]  # read back at once, then one short lease
    for replica in (here, elsewhere, stalled):
        answer = await replica["players"].active_player("s", accounts)
        assert answer["status"] == "locked"


@sync
async def test_a_revocation_read_before_outlast_is_enough(clock):
    stream = Stream(clock)
    players = stream.join()["players"]
    asked_at = clock.now
    players.revoke("s")  # accounts' AccountDeletionRequested came through the relay first
    announced = []

    async def announce(sub):
        announced.append(sub)

    await players.outlast("s", asked_at, announce)
    assert announced == [] and clock.slept == [1.0]


@sync
async def test_a_deletion_not_read_back_is_a_503_and_answers_nothing(clock):
    players = leases(clock, trust_seconds=300, confirm_seconds=0.01)

    async def lost(sub):
        """The broker took the revocation nowhere (and the relay's event is late)."""

    with pytest.raises(ServiceUnavailable) as refused:
        await players.outlast("s", clock.now, lost)
    assert refused.value.code == "deletion_unconfirmed"
    assert clock.slept == []


def test_a_watch_is_caught_up_only_by_its_own_ticks_and_at_their_send_time():
    clock = Clock()
    watch, other = StreamWatch(now=clock), StreamWatch(now=clock)
    first = watch.next_tick()
    clock.now += 5
    second = watch.next_tick()
    assert watch.caught_up_at is None
    assert not watch.read_tick(other.next_tick())
    assert not watch.read_tick({"replica": watch.replica, "sequence": "1"})
    assert watch.read_tick(second) and watch.caught_up_at == 105.0
    assert not watch.read_tick(first)  # older than one read: dropped, never moves back
    assert watch.caught_up_at == 105.0


def test_ticks_never_read_back_are_bounded():
    watch = StreamWatch(now=Clock())
    ticks = [watch.next_tick() for _ in range(MAX_UNREAD_TICKS + 10)]
    assert not watch.read_tick(ticks[0])
    assert watch.read_tick(ticks[-1])


@sync
async def test_a_current_player_is_served_by_the_short_lease_only(clock):
    stream = Stream(clock)
    players, accounts = stream.join()["players"], Accounts(clock)
    await players.active_player("s", accounts)
    clock.now += 5.0
    stream.tick()
    stream.deliver()
    await players.active_player("s", accounts)  # the gate: the long lease
    assert accounts.calls == 1
    await players.active_player("s", accounts, current=True)  # GET /me: its points
    assert accounts.calls == 2
    await players.active_player("s", accounts, current=True)  # leased again, short
    assert accounts.calls == 2
