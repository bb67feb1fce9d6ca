"""Reading the push stream (shared/push.py) into the hub: events become player messages.

Each replica reads the whole stream from ``PUSH_WINDOW`` ago, so right after a start
it can answer reconnecting clients too. An offset at or below the last one read is a
redelivery (the robust connection consumes again from its first offset after a
broker restart) and is skipped. What a player is told (``messages_for``) is built
from the event's own fields, each player only of their own: never a hidden card, an
answer key, or the CPU's hand (none of these is in an event); a client reads the
rest through its own views.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import aio_pika
from aio_pika.abc import AbstractIncomingMessage

from gateway.players import PlayerLeases
from gateway.push.hub import ACCOUNT_CLOSED, PushHub, PushMessage
from gateway.push.watch import REVOCATION, TICK, StreamWatch
from gateway.rpc import RECONNECT_SECONDS
from shared.errors import InvalidInput
from shared.events import CONTRACTS, EventContract, contract_for, read_event
from shared.push import PUSH_QUEUE, PUSH_QUEUE_ARGUMENTS, PUSH_WINDOW

log = logging.getLogger(__name__)

PREFETCH = 1000  # a stream consumer must set one; acknowledged in batches below it
ACK_EVERY = 200
READ_BACK_SECONDS = 10.0
MIN_TICK_SECONDS = 0.05
PUBLISH_SECONDS = 5.0  # a publish not confirmed by then failed

Messages = list[tuple[list[str], str, dict[str, Any]]]  # (player ids, type, data)


def messages_for(contract: EventContract, data: dict[str, Any]) -> Messages:
    """The push messages an event makes: to whom, what type, what data."""
    name = contract.name
    if name == "MatchUpdated":
        # One message per player and event (the event's offset is its id): "your turn"
        # to a seat the match now waits for, "updated" to the others, each with the
        # version that seat sees; none to a seat that may not see this change (another
        # seat's Chronovore row before its lock).
        common = {
            "match_id": str(data["match_id"]),
            "game": data["game"],
            "mode": data["mode"],
            "status": data["status"],
            "deadline": _iso(data["deadline"]),
        }
        waited = set(data["to_act"])
        return [
            (
                [str(seat["player_id"])],
                "match.your_turn" if seat["seat"] in waited else "match.updated",
                {**common, "version": seat["version"]},
            )
            for seat in data["seats"]
            if seat["kind"] == "player" and seat["player_id"] and seat["told"]
        ]
    if name == "InvitationUpdated":
        data_out = {
            "invitation_id": str(data["invitation_id"]),
            "game": data["game"],
            "status": data["status"],
            "match_id": None if data["match_id"] is None else str(data["match_id"]),
            "expires_at": _iso(data["expires_at"]),
        }
        players = [str(data["from_player_id"]), str(data["to_player_id"])]
        return [([player], "invitation.updated", data_out) for player in players]
    if name == "MatchFinished":
        return [
            (
                [str(seat["player_id"])],
                # A saved plan's owner is told its defense ended (TerraKard's report).
                "match.finished" if seat["kind"] == "player" else "match.defended",
                {
                    "match_id": str(data["match_id"]),
                    "game": data["game"],
                    "mode": data["mode"],
                    "result": seat["result"],
                    "finished_at": _iso(data["finished_at"]),
                },
            )
            for seat in data["seats"]
            if seat["kind"] in ("player", "plan") and seat["player_id"]
        ]
    if name == "AttemptCompleted":
        return [
            (
                [str(data["player_id"])],
                "attempt.completed",
                {
                    "attempt_id": str(data["attempt_id"]),
                    "event_id": str(data["event_id"]),
                    "game": data["game"],
                    "correct_count": data["correct_count"],
                    "completed_at": _iso(data["completed_at"]),
                },
            )
        ]
    if name == "RewardGranted":
        cards = [
            {
                "owned_card_id": str(c["owned_card_id"]),
                "definition_id": str(c["definition_id"]),
                "name": c["name"],
                "rarity": c["rarity"],
                "finish": c["finish"],
            }
            for c in data["cards"]
        ]
        return [
            (
                [str(data["player_id"])],
                "reward.granted",
                {
                    "attempt_id": str(data["attempt_id"]),
                    "game": data["game"],
                    "cards": cards,
                    "granted_at": _iso(data["granted_at"]),
                },
            )
        ]
    return []


def _iso(value: Any) -> str | None:
    return value.isoformat() if isinstance(value, datetime) else value


class EventStream:
    def __init__(
        self,
        amqp_uri: str,
        hub: PushHub,
        leases: PlayerLeases,
        watch: StreamWatch | None = None,
        window_start: Callable[[], datetime] = lambda: datetime.now(UTC) - PUSH_WINDOW,
    ) -> None:
        self.amqp_uri = amqp_uri
        self.hub = hub
        self.leases = leases
        self.watch = watch or StreamWatch()
        self._window_start = window_start
        self._connection: aio_pika.abc.AbstractRobustConnection | None = None
        self._publishing: aio_pika.abc.AbstractChannel | None = None
        self._ticking: asyncio.Task[None] | None = None
        self._caught_up = asyncio.Event()
        self._unacked = 0
        self.read_count = 0

    async def start(self) -> None:
        self._connection = await aio_pika.connect_robust(
            self.amqp_uri,
            reconnect_interval=RECONNECT_SECONDS,
            client_properties={"connection_name": "gateway push"},
        )
        channel = await self._connection.channel()
        await channel.set_qos(prefetch_count=PREFETCH)
        queue = await channel.declare_queue(
            PUSH_QUEUE,
            durable=True,
            arguments=dict(PUSH_QUEUE_ARGUMENTS),  # type: ignore[arg-type]
        )
        for contract in {c.name: c for c in CONTRACTS.values() if c.gateway}.values():
            exchange = await channel.declare_exchange(
                contract.exchange, aio_pika.ExchangeType.TOPIC, durable=True
            )
            await queue.bind(exchange, routing_key=contract.name)
        self._publishing = await self._connection.channel(publisher_confirms=True)
        await queue.consume(self._received, arguments={"x-stream-offset": self._window_start()})
        self._ticking = asyncio.create_task(self._tick_forever())
        await self._read_back()

    async def _read_back(self) -> None:
        """Serve only once the window is read back (a tick of ours, published after the
        start, is read), so a client reconnecting to a gateway that has just started is
        not told to resync for what the gateway was about to read. At most
        ``READ_BACK_SECONDS``."""
        try:
            await asyncio.wait_for(self._caught_up.wait(), READ_BACK_SECONDS)
        except TimeoutError:
            log.warning("push stream: still reading back after %.0f s; serving", READ_BACK_SECONDS)

    async def stop(self) -> None:
        if self._ticking is not None:
            self._ticking.cancel()
        if self._connection is not None:
            await self._connection.close()

    async def _tick_forever(self) -> None:
        interval = max(self.leases.lease_seconds / 4, MIN_TICK_SECONDS)
        while True:
            try:
                await self._publish(TICK, self.watch.next_tick())
            except Exception:  # the broker is away: no tick comes back, leases go short
                log.debug("push stream: a tick was not published", exc_info=True)
            await asyncio.sleep(interval)

    async def announce_revocation(self, sub: str) -> None:
        """Tell every replica (this one too) that ``sub``'s account was locked. Not
        published (the broker away): logged; accounts' ``AccountDeletionRequested`` reaches
        the stream through its outbox as well, and the caller waits for either."""
        try:
            await self._publish(REVOCATION, {"sub": sub})
        except Exception:
            log.warning("push stream: a revocation was not published", exc_info=True)

    async def _publish(self, kind: str, body: dict[str, object]) -> None:
        if self._publishing is None:
            raise RuntimeError("the push stream is not started")
        message = aio_pika.Message(
            json.dumps(body).encode(), type=kind, content_type="application/json"
        )
        await self._publishing.default_exchange.publish(
            message, routing_key=PUSH_QUEUE, mandatory=True, timeout=PUBLISH_SECONDS
        )

    async def _received(self, message: AbstractIncomingMessage) -> None:
        # aio-pika runs each delivery in a task of its own: everything up to the hub is
        # done before the first await, so the tasks cannot overtake each other (an ack
        # awaited first let a later offset through, and the earlier one was then taken
        # for a redelivery and dropped: bench/faults found one lost, some doubled).
        self._read(message)
        self._unacked += 1
        if self._unacked >= ACK_EVERY:  # a stream keeps its messages: acks are credit
            self._unacked = 0
            await message.ack(multiple=True)

    def _read(self, message: AbstractIncomingMessage) -> None:
        offset = (message.headers or {}).get("x-stream-offset")
        if not isinstance(offset, int) or (
            self.hub.last_id is not None and offset <= self.hub.last_id
        ):
            return  # a redelivery after a reconnect: read already
        self.hub.read(offset)
        if message.type in (TICK, REVOCATION):
            self._read_own(message.type, message.body)
            return
        self.read_count += 1
        contract = contract_for(message.exchange or "", message.routing_key or "")
        if contract is None or not contract.gateway:
            return
        try:
            event = read_event(contract, json.loads(message.body))
        except (ValueError, InvalidInput):
            log.warning("push stream: unreadable %s at offset %s", contract.name, offset)
            return
        if contract.name == "AccountDeletionRequested":
            player_id = str(event.data["player_id"])
            self.leases.revoke(event.data["auth0_sub"])
            self.hub.close_player(player_id, ACCOUNT_CLOSED)
            self.hub.forget_player(player_id)
            return
        for players, kind, data in messages_for(contract, dict(event.data)):
            self.hub.publish(players, PushMessage(offset, kind, data))

    def _read_own(self, kind: str, raw: bytes) -> None:
        try:
            body = json.loads(raw)
        except ValueError:
            return
        if not isinstance(body, dict):
            return
        if kind == TICK:
            if self.watch.read_tick(body):
                self._caught_up.set()
        elif isinstance(body.get("sub"), str):
            self.leases.revoke(body["sub"])
