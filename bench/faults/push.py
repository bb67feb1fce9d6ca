"""Players connected to the push channel through every fault, and the events owed to them.

``--watchers`` players each hold a WebSocket on ``/stream`` (``push_client.Watcher``,
all on one asyncio loop in a thread of this process) for the whole run: after any
close (the gateway SIGKILLed, a RabbitMQ restart) a watcher opens a new socket with
the last message id it saw, as the web client does. Meanwhile a publisher thread plays
the battle service's outbox relay: every ``PUBLISH_EVERY`` seconds a ``MatchUpdated``
seating the next watcher against the CPU (``bench/push.py``'s envelope, publisher and
declarations: confirmed, persistent, mandatory). A publish that fails (the broker
away) is tried again until confirmed, as an outbox row would be; only confirmed
events are owed. After the load, every watcher must have received each event owed to
it, once: lost, doubled (one message id twice, or an event's match twice without a
republish), and the ``resync`` answers (the gateway could not tell what was missed)
are counted per player.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from harness import HOST, BenchError

from faults.config import log

PUBLISH_EVERY = 0.1  # seconds between two events (10 a second, round robin)
CONNECT_TIMEOUT = 120.0
DELIVERY_TIMEOUT = 60.0  # seconds after the load for the last events to arrive
RETRY_PAUSE = 0.5


@dataclass
class PlayerCount:
    player_id: str
    expected: int
    received: int
    lost: int
    doubled: int
    reconnects: int
    resyncs: int


@dataclass
class PushOutcome:
    watchers: int
    published: int
    republished: int
    publish_failures: int
    players: list[PlayerCount] = field(default_factory=list)
    connect_errors: Counter[str] = field(default_factory=Counter)
    close_codes: Counter[int] = field(default_factory=Counter)
    waited_s: float = 0.0
    examples: list[str] = field(default_factory=list)

    @property
    def lost(self) -> int:
        return sum(p.lost for p in self.players)

    @property
    def doubled(self) -> int:
        return sum(p.doubled for p in self.players)

    @property
    def resyncs(self) -> int:
        return sum(p.resyncs for p in self.players)

    @property
    def clean(self) -> bool:
        return self.lost == 0 and self.doubled == 0 and self.resyncs == 0


class PushWatch:
    def __init__(self, port: int, amqp_uri: str, count: int) -> None:
        self._url = f"ws://{HOST}:{port}/stream"
        self._amqp_uri = amqp_uri
        self._count = count
        self.watchers: list[Any] = []
        self.owed: dict[str, set[str]] = {}  # player id -> match ids confirmed
        self.sent_at: dict[str, float] = {}  # match id -> time.time() when confirmed
        self.republished: set[str] = set()
        self.publish_failures = 0
        self.connect_errors: Counter[str] = Counter()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._halt_publishing = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self.t0 = time.time()  # the load's start (set by start_clock)

    def start_clock(self, wall: float) -> None:
        self.t0 = wall

    # -- the watchers -------------------------------------------------------------------

    def start(self) -> None:
        from push_client import Watcher, mint_tokens

        tokens = mint_tokens("auth0|faults-push-", self._count)
        self.watchers = [Watcher(self._url, t, self._connect_error) for t in tokens]
        started = threading.Event()
        thread = threading.Thread(target=self._run_loop, args=(started,), daemon=True)
        thread.start()
        self._threads.append(thread)
        started.wait(10)
        deadline = time.monotonic() + CONNECT_TIMEOUT
        while not all(w.connected.is_set() for w in self.watchers):
            if time.monotonic() > deadline:
                raise BenchError(f"push watchers not connected after {CONNECT_TIMEOUT:.0f}s")
            time.sleep(0.2)
        log(f"{self._count} players connected to the push channel ({self._url})")
        publisher = threading.Thread(target=self._publish_loop, daemon=True)
        publisher.start()
        self._threads.append(publisher)

    def _connect_error(self, text: str) -> None:
        self.connect_errors[text] += 1

    def _run_loop(self, started: threading.Event) -> None:
        async def main() -> None:
            self._loop = asyncio.get_running_loop()
            self._stop = asyncio.Event()
            started.set()
            await asyncio.gather(*(w.run(self._stop) for w in self.watchers))

        asyncio.run(main())

    def open_sockets(self) -> int:
        return sum(1 for w in self.watchers if w.connected.is_set())

    # -- the publisher ------------------------------------------------------------------

    def _publish_loop(self) -> None:
        from push import RelayPublisher, match_updated

        publisher: RelayPublisher | None = None
        n = 0
        while not self._halt_publishing.is_set():
            watcher = self.watchers[n % len(self.watchers)]
            n += 1
            match_id, message = match_updated(watcher.player_id, datetime.now(UTC))
            tries = 0
            while not self._halt_publishing.is_set():
                tries += 1
                try:
                    if publisher is None:
                        publisher = RelayPublisher(self._amqp_uri)
                    publisher.publish(message)
                except Exception:  # the broker is away: the same event again, later
                    self.publish_failures += 1
                    publisher = None
                    time.sleep(RETRY_PAUSE)
                    continue
                with self._lock:
                    self.owed.setdefault(watcher.player_id, set()).add(match_id)
                    self.sent_at[match_id] = time.time()
                    if tries > 1:
                        self.republished.add(match_id)
                break
            time.sleep(PUBLISH_EVERY)

    # -- the end ------------------------------------------------------------------------

    def finish(self) -> PushOutcome:
        """Stop publishing, wait for what is owed (at most DELIVERY_TIMEOUT), count."""
        self._halt_publishing.set()
        self._threads[1].join(30)
        t0 = time.monotonic()
        while time.monotonic() - t0 < DELIVERY_TIMEOUT:
            with self._lock:
                missing = sum(
                    1
                    for w in self.watchers
                    for m in self.owed.get(w.player_id, ())
                    if m not in w.match_ids
                )
            if not missing:
                break
            time.sleep(0.5)
        waited = time.monotonic() - t0
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
        self._threads[0].join(15)
        outcome = PushOutcome(
            watchers=len(self.watchers),
            published=sum(len(v) for v in self.owed.values()),
            republished=len(self.republished),
            publish_failures=self.publish_failures,
            connect_errors=self.connect_errors,
            waited_s=waited,
        )
        for w in self.watchers:
            owed = self.owed.get(w.player_id, set())
            # a message whose id came again, or an event (match id) under two ids
            # without a republish: each counted once
            again = {i for i, n in w.ids.items() if n > 1}
            twice = {m for m, n in w.match_ids.items() if n > 1 and m not in self.republished}
            doubled = len(
                {m for _, _, i, m in w.log if i in again or (m in twice and m is not None)}
            )
            for at, socket, message_id, match_id in w.log:
                if (message_id in again or match_id in twice) and len(outcome.examples) < 12:
                    outcome.examples.append(
                        f"doubled: player {w.player_id[:8]} socket {socket} id {message_id} "
                        f"match {str(match_id)[:8]} at {at - self.t0:.1f}s "
                        f"(confirmed at {self.sent_at.get(str(match_id), 0) - self.t0:.1f}s)"
                    )
            for m in owed - w.match_ids.keys():
                outcome.examples.append(
                    f"lost: player {w.player_id[:8]} match {m[:8]} confirmed at "
                    f"{self.sent_at.get(m, 0) - self.t0:.1f}s; last ids it got: "
                    + ", ".join(f"{i}@{t - self.t0:.1f}s" for t, _, i, _ in w.log[-3:])
                )
            outcome.players.append(
                PlayerCount(
                    w.player_id,
                    expected=len(owed),
                    received=sum(1 for m in owed if m in w.match_ids),
                    lost=sum(1 for m in owed if m not in w.match_ids),
                    doubled=doubled,
                    reconnects=w.reconnects,
                    resyncs=w.resyncs,
                )
            )
            outcome.close_codes.update(w.close_codes)
        return outcome

    def halt(self) -> None:
        """Stop everything at once (a failed run)."""
        self._halt_publishing.set()
        if self._loop is not None and self._stop is not None:
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._stop.set)
