"""Who is connected, what each player was sent lately, and delivering to them.

Every message has an id, the offset of its event in the push stream (shared/push.py):
the same on every gateway replica and increasing, so a client that reconnects, to
this replica or another, says the last id it saw and gets what came after it. A
replica keeps the last ``buffer_per_player`` messages of each player (for the
stream's window); when it cannot know everything after that id (the id is older
than what it read, or than what it dropped of that player), the client is told to
refetch instead (``resync``), never given a gap silently.

Limits: ``max_per_player`` connections per player (a new one beyond it is refused),
``max_connections`` per replica, and ``queue_per_connection`` messages waiting per
connection: a consumer that falls that far behind is dropped (its socket closed with
``SLOW_CONSUMER``) rather than buffered without bound; it reconnects with its last id.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

# WebSocket close codes (4000-4999 are the application's), also sent in an SSE "close".
TOKEN_EXPIRED = 4001
ACCOUNT_CLOSED = 4003
AUTH_TIMEOUT = 4004
SLOW_CONSUMER = 4008
TOO_MANY_CONNECTIONS = 4029
SHUTTING_DOWN = 1012  # RFC 6455 "service restart": reconnect


@dataclass(frozen=True)
class PushMessage:
    id: int
    type: str
    data: dict[str, Any]

    def wire(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "data": self.data}


@dataclass(eq=False)
class Connection:
    """One client's socket (or SSE response): a bounded queue its writer drains."""

    player_id: str
    queue: asyncio.Queue[PushMessage | int] = field(
        default_factory=lambda: asyncio.Queue(maxsize=256)
    )
    closed: int | None = None  # the close code, once closed

    def offer(self, message: PushMessage) -> bool:
        if self.closed is not None:
            return False
        try:
            self.queue.put_nowait(message)
            return True
        except asyncio.QueueFull:
            self.close(SLOW_CONSUMER)
            return False

    def close(self, code: int) -> None:
        """Ask the writer to close with ``code``; whatever waits is dropped."""
        if self.closed is None:
            self.closed = code
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queue.put_nowait(code)


class PushHub:
    def __init__(
        self,
        buffer_per_player: int = 100,
        max_players_buffered: int = 200_000,
        max_per_player: int = 5,
        max_connections: int = 20_000,
        queue_per_connection: int = 256,
    ) -> None:
        self.buffer_per_player = buffer_per_player
        self.max_players_buffered = max_players_buffered
        self.max_per_player = max_per_player
        self.max_connections = max_connections
        self.queue_per_connection = queue_per_connection
        self._connections: dict[str, set[Connection]] = {}
        self._buffers: OrderedDict[str, deque[PushMessage]] = OrderedDict()
        self._dropped: dict[str, int] = {}  # the newest id dropped from a player's buffer
        self.horizon: int | None = None  # ids up to this one were never read here
        self.last_id: int | None = None
        self.count = 0
        self.delivered = 0
        self.slow_dropped = 0
        # Told of every connection opened or closed (presence.py reports them to battle).
        self.on_change: Callable[[str], None] = lambda player_id: None

    # -- connections ------------------------------------------------------------------------

    def connect(self, player_id: str) -> Connection | None:
        """A new connection for ``player_id``, or None over a limit."""
        mine = self._connections.setdefault(player_id, set())
        if len(mine) >= self.max_per_player or self.count >= self.max_connections:
            if not mine:
                del self._connections[player_id]
            return None
        connection = Connection(player_id, asyncio.Queue(maxsize=self.queue_per_connection))
        mine.add(connection)
        self.count += 1
        self.on_change(player_id)
        return connection

    def disconnect(self, connection: Connection) -> None:
        mine = self._connections.get(connection.player_id)
        if mine is not None and connection in mine:
            mine.discard(connection)
            self.count -= 1
            if not mine:
                del self._connections[connection.player_id]
            self.on_change(connection.player_id)

    def connections_of(self, player_id: str) -> int:
        return len(self._connections.get(player_id, ()))

    def close_player(self, player_id: str, code: int) -> None:
        for connection in list(self._connections.get(player_id, ())):
            connection.close(code)

    async def close_all(self, code: int = SHUTTING_DOWN) -> None:
        for connections in list(self._connections.values()):
            for connection in list(connections):
                connection.close(code)
        await asyncio.sleep(0)  # let the writers send their close frames

    # -- messages ---------------------------------------------------------------------------

    def read(self, offset: int) -> None:
        """The stream delivered ``offset`` (for a player or not): ids are known from here."""
        if self.horizon is None:
            self.horizon = offset - 1
        self.last_id = offset

    def publish(self, player_ids: Iterable[str], message: PushMessage) -> None:
        """Keep ``message`` for each player, and send it to their connections."""
        for player_id in player_ids:
            self._keep(player_id, message)
            for connection in list(self._connections.get(player_id, ())):
                if connection.offer(message):
                    self.delivered += 1
                else:
                    self.slow_dropped += 1
                    self.disconnect(connection)

    def forget_player(self, player_id: str) -> None:
        """A deleted account: nothing of it stays here."""
        self._buffers.pop(player_id, None)
        self._dropped.pop(player_id, None)

    def missed(self, player_id: str, last_id: int) -> list[PushMessage] | None:
        """What ``player_id`` was sent after ``last_id``, or None if this replica cannot
        know all of it (the client must refetch)."""
        floor = max(self.horizon if self.horizon is not None else 1 << 62, 0)
        floor = max(floor, self._dropped.get(player_id, -1))
        if last_id < floor:
            return None
        if self.last_id is not None and last_id > self.last_id:
            return None  # an id from the future: not one of ours
        return [m for m in self._buffers.get(player_id, ()) if m.id > last_id]

    def _keep(self, player_id: str, message: PushMessage) -> None:
        buffer = self._buffers.get(player_id)
        if buffer is None:
            buffer = self._buffers[player_id] = deque()
            while len(self._buffers) > self.max_players_buffered:
                evicted, old = self._buffers.popitem(last=False)
                if old:
                    self._dropped[evicted] = old[-1].id
        else:
            self._buffers.move_to_end(player_id)
        buffer.append(message)
        if len(buffer) > self.buffer_per_player:
            self._dropped[player_id] = buffer.popleft().id
