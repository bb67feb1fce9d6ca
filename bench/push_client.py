"""A WebSocket load client of the push channel (``/stream``): many players on one asyncio loop.

    python bench/push_client.py --url ws://127.0.0.1:18000/stream --connections 1000

Run by ``bench/push.py`` in a process of its own (it never shares a CPU loop with the
publisher it is timed against), and imported by ``bench/faults`` (:class:`Watcher`).
Each connection is one player: a development token minted here (subject
``<--subject><n>``, the environment's development-auth settings), the protocol of
``gateway/push/routes.py`` (``{"type": "auth", "token", "lastId"}`` first, then
``ready``, then ``{"id", "type", "data"}`` messages). The client offers
permessage-deflate, as browsers do.

It talks to its parent in JSON lines. On standard output:

* ``{"event": "connected", "open", "failed", "retries", "errors", "players", "seconds"}``
  once every connection has been tried (``CONNECT_TRIES`` times at most, 2 s apart, as
  an app would; ``players``: the player id of each open one);
* ``{"event": "checked", "open", "pong", "closed", "close_codes"}`` after ``check``;
* ``{"event": "report", "received": {matchId: [monotonic seconds, ...]}, "messages",
  "closed", "close_codes"}`` after ``report``, then it closes everything and exits.

On standard input: ``count`` (answered ``{"event": "count", "received"}``: the events
received so far), ``check`` (send ``{"type": "ping"}`` on every socket and count the
``pong`` answers, within ``--check-timeout``) and ``report``. Receipt times are
``time.monotonic()`` (CLOCK_MONOTONIC: the same clock in every process of the
machine), taken when the message is read off the socket.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    harness.reexec_in_venv()

import argparse
import asyncio
import contextlib
import json
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

HANDSHAKE_TIMEOUT = 60.0
RECONNECT_PAUSE = (0.2, 2.0)  # a watcher's first and longest pause between tries
CONNECT_TRIES = 3  # a refused or failed socket is tried again, as an app would


def raise_open_files(wanted: int) -> int:
    """Raise this process's open-file limit to ``wanted`` (the hard limit too, as root);
    the soft limit it got."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= wanted:
        return soft
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, max(hard, wanted)))
        return wanted
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def mint_tokens(subject: str, count: int, first: int = 0) -> list[str]:
    """Development tokens (an hour long) for ``<subject><first>`` ... with this
    environment's settings (DEV_AUTH, the audience and roles claim)."""
    from gateway.devauth import mint_token
    from shared.config import load_settings

    settings = load_settings()
    return [
        mint_token(
            f"{subject}{n}",
            audience=settings.auth0_audience,
            roles_claim=settings.auth0_roles_claim,
            ttl_seconds=3600,
        )
        for n in range(first, first + count)
    ]


async def open_socket(
    url: str, token: str, last_id: str | None = None
) -> tuple[Any, dict[str, Any]]:
    """A connected, authenticated socket and its ``ready`` message (ValueError if refused)."""
    from websockets.asyncio.client import connect

    ws = await connect(url, open_timeout=HANDSHAKE_TIMEOUT, ping_interval=None, max_queue=None)
    try:
        hello: dict[str, Any] = {"type": "auth", "token": token}
        if last_id is not None:
            hello["lastId"] = last_id
        await ws.send(json.dumps(hello))
        ready = json.loads(await asyncio.wait_for(ws.recv(), HANDSHAKE_TIMEOUT))
        if ready.get("type") != "ready":
            raise ValueError(f"refused: {ready}")
    except BaseException:
        await ws.close()
        raise
    return ws, ready


@dataclass
class Socket:
    """One player's socket and what it read."""

    ws: Any
    player_id: str
    received: dict[str, list[float]] = field(default_factory=dict)  # matchId -> times
    messages: int = 0
    pongs: int = 0
    close_code: int | None = None


async def read(socket: Socket) -> None:
    """Read until the socket closes: match ids and their receipt times, pongs."""
    from websockets.exceptions import ConnectionClosed

    try:
        async for raw in socket.ws:
            now = time.monotonic()
            message = json.loads(raw)
            kind = message.get("type")
            if kind == "pong":
                socket.pongs += 1
                continue
            socket.messages += 1
            match_id = (message.get("data") or {}).get("matchId")
            if match_id:
                socket.received.setdefault(match_id, []).append(now)
    except ConnectionClosed:
        pass
    socket.close_code = socket.ws.close_code if socket.ws.close_code is not None else -1


class Load:
    """``connections`` players, connected ``concurrency`` at a time."""

    def __init__(self, url: str, tokens: Sequence[str], concurrency: int) -> None:
        self.url = url
        self.tokens = tokens
        self.concurrency = concurrency
        self.sockets: list[Socket] = []
        self.errors: Counter[str] = Counter()
        self.retries = 0
        self._readers: list[asyncio.Task[None]] = []

    async def connect_all(self) -> None:
        gate = asyncio.Semaphore(self.concurrency)

        async def one(token: str) -> None:
            async with gate:
                for attempt in range(CONNECT_TRIES):
                    try:
                        ws, ready = await open_socket(self.url, token)
                        break
                    except Exception as exc:  # as an app would: try again, then give up
                        if attempt + 1 == CONNECT_TRIES:
                            self.errors[f"{type(exc).__name__}: {str(exc)[:120]}"] += 1
                            return
                        self.retries += 1
                        await asyncio.sleep(RECONNECT_PAUSE[1])
                socket = Socket(ws, str(ready["playerId"]))
                self.sockets.append(socket)
                self._readers.append(asyncio.create_task(read(socket)))

        await asyncio.gather(*(one(token) for token in self.tokens))

    def close_codes(self) -> dict[str, int]:
        return {
            str(code): n
            for code, n in Counter(s.close_code for s in self.sockets if s.close_code).items()
        }

    def open_count(self) -> int:
        return sum(1 for s in self.sockets if s.close_code is None)

    async def check(self, timeout: float) -> dict[str, Any]:
        """Ping every open socket; count the answers."""
        before = {id(s): s.pongs for s in self.sockets}
        live = [s for s in self.sockets if s.close_code is None]
        for socket in live:
            with contextlib.suppress(Exception):
                await socket.ws.send('{"type":"ping"}')
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(s.pongs > before[id(s)] or s.close_code is not None for s in live):
                break
            await asyncio.sleep(0.1)
        return {
            "event": "checked",
            "open": self.open_count(),
            "pong": sum(1 for s in live if s.pongs > before[id(s)]),
            "closed": len(self.sockets) - self.open_count(),
            "close_codes": self.close_codes(),
        }

    async def close_all(self) -> None:
        gate = asyncio.Semaphore(200)

        async def one(socket: Socket) -> None:
            async with gate:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(socket.ws.close(), 5)

        await asyncio.gather(*(one(s) for s in self.sockets))
        for task in self._readers:
            task.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)


def emit(payload: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(payload, separators=(",", ":")) + "\n")
    sys.stdout.flush()


async def serve(args: argparse.Namespace) -> None:
    loop = asyncio.get_running_loop()
    t0 = time.monotonic()
    tokens = mint_tokens(args.subject, args.connections)
    load = Load(args.url, tokens, args.concurrency)
    await load.connect_all()
    emit(
        {
            "event": "connected",
            "open": load.open_count(),
            "failed": sum(load.errors.values()),
            "retries": load.retries,
            "errors": dict(load.errors.most_common(5)),
            "players": [s.player_id for s in load.sockets],
            "seconds": round(time.monotonic() - t0, 2),
        }
    )
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        command = line.strip()
        if command == "check":
            emit(await load.check(args.check_timeout))
        elif command == "count":
            emit({"event": "count", "received": sum(len(s.received) for s in load.sockets)})
        elif command in ("report", ""):  # "" is the parent gone: report and leave
            received: dict[str, list[float]] = {}
            for socket in load.sockets:
                received.update(socket.received)
            emit(
                {
                    "event": "report",
                    "received": received,
                    "messages": sum(s.messages for s in load.sockets),
                    "closed": len(load.sockets) - load.open_count(),
                    "close_codes": load.close_codes(),
                }
            )
            await load.close_all()
            return


# -- a reconnecting client (bench/faults) --------------------------------------------------


class Watcher:
    """One player who stays connected: reconnects after any close with the last id it
    saw, and keeps every message id and match id it got.

    ``resyncs`` counts the times the gateway answered a reconnect with ``resync`` (it
    could not tell what was missed), ``reconnects`` the sockets opened after the first.
    """

    def __init__(self, url: str, token: str, on_error: Callable[[str], None]) -> None:
        self.url = url
        self.token = token
        self.player_id = ""
        self.last_id: str | None = None
        self.ids: Counter[str] = Counter()  # message id -> times received
        self.match_ids: Counter[str] = Counter()  # data.matchId -> times received
        self.reconnects = 0
        self.resyncs = 0
        self.close_codes: Counter[int] = Counter()
        # (time.time(), socket number, message id, match id) of every message, in order
        self.log: list[tuple[float, int, str, str | None]] = []
        self.connected = asyncio.Event()
        self._on_error = on_error

    async def run(self, stop: asyncio.Event) -> None:
        from websockets.exceptions import ConnectionClosed

        pause = RECONNECT_PAUSE[0]
        first = True
        while not stop.is_set():
            try:
                ws, ready = await open_socket(self.url, self.token, self.last_id)
            except Exception as exc:  # the gateway is away: try again
                self._on_error(f"connect: {type(exc).__name__}")
                await _sleep_or_stop(stop, pause)
                pause = min(pause * 2, RECONNECT_PAUSE[1])
                continue
            pause = RECONNECT_PAUSE[0]
            self.player_id = str(ready["playerId"])
            self.reconnects += 0 if first else 1
            first = False
            self.connected.set()
            closer = asyncio.create_task(_close_on(stop, ws))
            try:
                async for raw in ws:
                    message = json.loads(raw)
                    if message.get("type") == "resync":
                        self.resyncs += 1
                    if "id" in message:
                        self.ids[message["id"]] += 1
                        self.last_id = message["id"]
                        match_id = (message.get("data") or {}).get("matchId")
                        if match_id:
                            self.match_ids[match_id] += 1
                        self.log.append((time.time(), self.reconnects, message["id"], match_id))
            except ConnectionClosed:
                pass
            finally:
                closer.cancel()
            self.close_codes[ws.close_code if ws.close_code is not None else -1] += 1


async def _sleep_or_stop(stop: asyncio.Event, seconds: float) -> None:
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), seconds)


async def _close_on(stop: asyncio.Event, ws: Any) -> None:
    await stop.wait()
    await ws.close()


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True, help="ws://host:port/stream")
    parser.add_argument("--connections", type=int, default=1000, help="players, one socket each")
    parser.add_argument("--subject", default="auth0|push-", help="token subject prefix")
    parser.add_argument("--concurrency", type=int, default=64, help="handshakes at a time")
    parser.add_argument(
        "--check-timeout", type=float, default=30.0, help="seconds for every pong after check"
    )
    args = parser.parse_args(argv)
    if not (1 <= args.connections <= 100_000 and 1 <= args.concurrency <= 1000):
        parser.error("--connections must be in 1..100000 and --concurrency in 1..1000")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    raise_open_files(args.connections + 1024)
    import uvloop

    uvloop.run(serve(args))
    return 0


if __name__ == "__main__":
    sys.exit(main())
