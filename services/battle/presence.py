"""Who is connected to the push channel, and live Quest matches of players who are not
(docs/quest-pvp.md, "Reconnect", ours).

The gateway replicas report (``report``) how many push connections (WebSocket or SSE)
each of their players has open, as absolute numbers: a repeated or retried report
changes nothing. Each replica sends its reports one at a time, so they arrive in order.
Every report renews the replica's lease; a replica that stops renewing (a crash, a
partition) has its players counted as disconnected from its last renewal once the lease
runs out, so no replica leaves a player "connected" for ever.

Two clocks, on purpose: the lease is the liveness of a process, in real time
(``real_now``); every time the game rule reads (when the last connection closed, the
last renewal) is battle's injected clock (``now``), the one the match deadlines use.

The rule (``disconnected``): a player is connected while some replica with a running
lease reports at least one connection of theirs. Otherwise they are disconnected since
the latest moment they were known connected: the last close reported, or the last
renewal of a replica that vanished with their connection open; never before the
match's start (ours: a match's start counts as a connection, so a player who has not
opened a push connection since it started has 90 seconds from the start).
The sweeper (``end_disconnected``) ends the live match of a player disconnected for
90 seconds (exactly 90 counts, as every deadline) as that player's forfeit,
``finishReason: "disconnected"``, both players told through push.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import and_, case, delete, or_, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.orm import Session

from services.battle import handlers
from services.battle.games import quest
from services.battle.host import SeatKind, Status
from services.battle.orm import match_seats, matches, purged_players, push_presence, push_replicas
from services.battle.purge import player_gate
from services.battle.repository import BattleUnitOfWork, SqlMatches
from services.battle.terrakard_store import SqlArena
from shared.db import Database
from shared.player_gate import player_digest

# Ours (docs/quest-pvp.md): how long a disconnected player of a live match may take to
# come back before the match ends as their forfeit.
RECONNECT_WINDOW = timedelta(seconds=90)
# How long a replica's report holds without the next one (real time). The gateway renews
# every ``gateway/push/presence.py`` HEARTBEAT_SECONDS (15), so two renewals may be lost.
LEASE = timedelta(seconds=45)
MAX_LEASE = timedelta(minutes=5)  # a replica may not ask for more
KEPT = timedelta(days=1)  # closed rows and vanished replicas are forgotten after this
PER_SWEEP = 1000  # disconnected players of live matches read per sweep, oldest match first


@dataclass(frozen=True)
class Presence:
    """One player's: connected now, or since when they are known disconnected (None:
    no report of theirs at all)."""

    connected: bool
    since: datetime | None = None


def report(
    session: Session,
    replica_id: str,
    players: Mapping[uuid.UUID, int],
    now: datetime,
    real_now: datetime,
    lease: timedelta = LEASE,
) -> None:
    """A replica's report: its lease renewed, and each listed player's open connections
    there (the others as in its previous reports). A purged player is not recorded."""
    lease = min(max(lease, timedelta(0)), MAX_LEASE)
    renew = pg_insert(push_replicas).values(
        replica_id=replica_id, renewed_at=now, lease_until=real_now + lease
    )
    session.execute(
        renew.on_conflict_do_update(
            index_elements=["replica_id"],
            set_={
                "renewed_at": renew.excluded.renewed_at,
                "lease_until": renew.excluded.lease_until,
            },
        )
    )
    if not players:
        return
    gone = _purged(session, players)
    rows = [
        {"replica_id": replica_id, "player_id": p, "connections": n, "changed_at": now}
        for p, n in players.items()
        if p not in gone
    ]
    if not rows:
        return
    upsert = pg_insert(push_presence).values(rows)
    current = push_presence.c
    session.execute(
        upsert.on_conflict_do_update(
            index_elements=["replica_id", "player_id"],
            set_={
                "connections": upsert.excluded.connections,
                # Only a change moves the time: a repeated report of a close does not
                # make the player's disconnection later.
                "changed_at": case(
                    (current.connections != upsert.excluded.connections, now),
                    else_=current.changed_at,
                ),
            },
        )
    )


def _purged(session: Session, players: Iterable[uuid.UUID]) -> set[uuid.UUID]:
    digests = {player_digest("battle", p): p for p in players}
    found = session.execute(
        select(purged_players.c.player_digest).where(
            purged_players.c.player_digest.in_(list(digests))
        )
    ).scalars()
    return {digests[d] for d in found}


def presence_of(
    session: Session, player_ids: Iterable[uuid.UUID], real_now: datetime
) -> dict[uuid.UUID, Presence]:
    """Each player's presence (see the module's rule); a player never reported has
    ``Presence(False, None)``."""
    wanted = list(set(player_ids))
    rows = session.execute(
        select(
            push_presence.c.player_id,
            push_presence.c.connections,
            push_presence.c.changed_at,
            push_replicas.c.renewed_at,
            push_replicas.c.lease_until,
        )
        .select_from(push_presence)
        .outerjoin(push_replicas, push_replicas.c.replica_id == push_presence.c.replica_id)
        .where(push_presence.c.player_id.in_(wanted))
    ).all()
    found: dict[uuid.UUID, Presence] = {p: Presence(False) for p in wanted}
    for row in rows:
        known = found[row.player_id]
        if known.connected:
            continue
        alive = row.lease_until is not None and row.lease_until > real_now
        if row.connections > 0 and alive:
            found[row.player_id] = Presence(True)
            continue
        # Closed here: when; open on a replica gone: its last renewal.
        last = row.changed_at if row.connections == 0 or row.renewed_at is None else row.renewed_at
        if known.since is None or last > known.since:
            found[row.player_id] = Presence(False, last)
    return found


def gone_too_long(presence: Presence, started_at: datetime, now: datetime) -> bool:
    """The rule: disconnected for the whole reconnect window (exactly 90 s counts), the
    match's start counting as a connection."""
    if presence.connected:
        return False
    return now - away_since(presence, started_at) >= RECONNECT_WINDOW


def _live_seats(
    session: Session, real_now: datetime, limit: int
) -> list[tuple[uuid.UUID, uuid.UUID, datetime]]:
    """(match id, player id, match start) of players seated in active live matches with
    no connection on a live replica: the only ones the rule may end (a connected player
    is never read, however many play)."""
    connected = (
        select(push_presence.c.player_id)
        .join(push_replicas, push_replicas.c.replica_id == push_presence.c.replica_id)
        .where(
            push_presence.c.player_id == match_seats.c.player_id,
            push_presence.c.connections > 0,
            push_replicas.c.lease_until > real_now,
        )
        .exists()
    )
    rows = session.execute(
        select(match_seats.c.match_id, match_seats.c.player_id, matches.c.created_at)
        .join(matches, matches.c.id == match_seats.c.match_id)
        .where(
            match_seats.c.game == quest.GAME,
            match_seats.c.mode == quest.LIVE_MODE,
            match_seats.c.kind == SeatKind.PLAYER.value,
            match_seats.c.player_id.is_not(None),
            match_seats.c.one_active,  # an active live seat is (the small partial index)
            matches.c.status == Status.ACTIVE.value,
            ~connected,
        )
        .order_by(matches.c.created_at, match_seats.c.match_id)
        .limit(limit)
    ).all()
    return [(r.match_id, r.player_id, r.created_at) for r in rows]


SessionUnitOfWork = Callable[[], AbstractContextManager[tuple[Session, BattleUnitOfWork]]]


@contextmanager
def unit_of_work(db: Database) -> Iterator[tuple[Session, BattleUnitOfWork]]:
    """The matches' unit of work and its session (the presence rows are read in it)."""
    with db.transaction() as tx:
        session = tx.session
        yield (
            session,
            BattleUnitOfWork(SqlMatches(session), tx, player_gate(session), SqlArena(session)),
        )


def end_disconnected(
    unit_of_work: SessionUnitOfWork,
    now: datetime,
    real_now: datetime,
    limit: int = PER_SWEEP,
) -> int:
    """The sweeper's part: end each live match with a player disconnected for the whole
    window, as that player's forfeit, one match a transaction -> how many it ended."""
    with unit_of_work() as (session, _):
        seats = _live_seats(session, real_now, limit)
        presence = presence_of(session, (p for _, p, _ in seats), real_now)
    due = sorted({m for m, p, start in seats if gone_too_long(presence[p], start, now)})
    ended = 0
    for match_id in due:
        with unit_of_work() as (session, uow):
            ended += _end_one(session, uow, match_id, now, real_now)
    return ended


def away_since(presence: Presence, started_at: datetime) -> datetime:
    """Since when the rule counts a disconnected player away."""
    return started_at if presence.since is None else max(presence.since, started_at)


def _end_one(
    session: Session,
    uow: BattleUnitOfWork,
    match_id: uuid.UUID,
    now: datetime,
    real_now: datetime,
) -> int:
    """Under the match's lock, with the rule read again (a player may have come back
    since): the disconnected side's end. Both away for the whole window (ours): the one
    away longer loses; as long, the first seat (Quest's ``player``, as when both miss a
    window). A busy player or match is left for the next sweep."""
    match = uow.matches.get(match_id, for_update=True)
    if match is None or match.status is not Status.ACTIVE:
        return 0
    if not all(uow.players.try_admit(p) for p in match.players):
        return 0
    seated = [s for s in match.seats if s.kind is SeatKind.PLAYER and s.player_id is not None]
    found = presence_of(session, [s.player_id for s in seated if s.player_id], real_now)
    gone = [
        (away_since(found[s.player_id], match.created_at), position, s.name)
        for position, s in enumerate(seated)
        if s.player_id is not None and gone_too_long(found[s.player_id], match.created_at, now)
    ]
    if not gone:
        return 0
    _, _, loser = min(gone)
    handlers.sweeper_action(uow, match, loser, {"kind": "disconnected"}, now)
    return 1


def forget_old(session: Session, real_now: datetime, now: datetime) -> None:
    """Rows of no use any more: closed a day ago, or of a replica gone a day ago."""
    dead = select(push_replicas.c.replica_id).where(push_replicas.c.lease_until < real_now - KEPT)
    session.execute(
        delete(push_presence).where(
            or_(
                push_presence.c.replica_id.in_(dead),
                and_(push_presence.c.connections == 0, push_presence.c.changed_at < now - KEPT),
            )
        )
    )
    session.execute(delete(push_replicas).where(push_replicas.c.lease_until < real_now - KEPT))
