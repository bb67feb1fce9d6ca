"""Account deletion in battle: a player's matches, seats and action logs go; then it answers.

rules/quest.txt: "Completed results and action history remain available privately
to the owning player until account deletion." A match no other player holds a seat
in (a CPU match) is the player's alone, so it goes whole, active or finished. In a
match others keep (Chronovore against a player, a TerraKard attack on a plan) the player's
seat stays without its player id: "required shared PvP [...] history remain[s]
against a fresh profile-free historical actor". Their MatchFinished events in the
outbox go too: v1 names the player at ``data.player_id``, v2 in ``data.seats``.
Idempotent: a second request finds nothing and answers again.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from datetime import datetime
from functools import partial

from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.orm import Session

from services.battle.orm import (
    match_actions,
    match_seats,
    matches,
    plumbing,
    purged_players,
    push_presence,
    pvp_invitations,
    pvp_pseudonyms,
    pvp_queue,
    terrakard_arena,
    terrakard_objectives,
    terrakard_rewards,
)
from shared.clock import Clock
from shared.db import UnitOfWork
from shared.events import Event
from shared.outbox import forget_player_events
from shared.player_gate import SqlPlayerGate
from shared.purge import purge_player_once

SERVICE = "battle"


def player_gate(session: Session) -> SqlPlayerGate:
    """Battle's gate: every write for a player passes it (shared/player_gate.py)."""
    return SqlPlayerGate(session, SERVICE, purged_players)


EndShared = Callable[[Session, uuid.UUID, datetime], object]


def purge_personal_data(
    event: Event, tx: UnitOfWork, clock: Clock, end_shared: EndShared | None = None
) -> bool:
    """Purge the player of an AccountDeletionRequested and answer PersonalDataPurged,
    in one transaction; False for a message already applied. ``end_shared`` ends the
    player's live matches against other players first (services/battle/pvp.py)."""
    return purge_player_once(
        SERVICE, event, tx, clock, partial(purge_player, end_shared=end_shared)
    )


def purge_player(
    session: Session, player_id: uuid.UUID, now: datetime, end_shared: EndShared | None = None
) -> None:
    # First: any write for the player now waits, then finds the tombstone.
    player_gate(session).seal(player_id, now)
    if end_shared is not None:  # the gate first, then the match rows, as everywhere
        end_shared(session, player_id, now)
    seated = select(match_seats.c.match_id).where(match_seats.c.player_id == player_id)
    shared = select(match_seats.c.match_id).where(  # another player is seated there too
        match_seats.c.match_id.in_(seated), match_seats.c.player_id != player_id
    )
    alone = select(matches.c.id).where(
        or_(
            and_(matches.c.id.in_(seated), matches.c.id.not_in(shared)),
            matches.c.player_id == player_id,  # legacy: a match without seats yet
        )
    )
    theirs = session.execute(alone).scalars().all()
    session.execute(delete(match_actions).where(match_actions.c.match_id.in_(theirs)))
    session.execute(delete(matches).where(matches.c.id.in_(theirs)))  # seats cascade
    session.execute(
        update(match_seats)
        .where(match_seats.c.player_id == player_id)
        .values(player_id=None, one_active=False)
    )
    # TerraKard's arena: the player's row, objectives and rewards not yet delivered.
    for table in (terrakard_arena, terrakard_objectives, terrakard_rewards):
        session.execute(delete(table).where(table.c.player_id == player_id))
    forget_player_events(session, plumbing.outbox, player_id)
    forget_seated_events(session, player_id)
    forget_pvp(session, player_id)


def forget_pvp(session: Session, player_id: uuid.UUID) -> None:
    """The player's matchmaking queue entry, invitations (sent and received) and their
    events, pseudonym, push presence."""
    session.execute(delete(pvp_queue).where(pvp_queue.c.player_id == player_id))
    sent_or_received = or_(
        pvp_invitations.c.from_player_id == player_id, pvp_invitations.c.to_player_id == player_id
    )
    session.execute(delete(pvp_invitations).where(sent_or_received))
    session.execute(delete(pvp_pseudonyms).where(pvp_pseudonyms.c.player_id == player_id))
    # What the gateway reported of their push connections (presence.py).
    session.execute(delete(push_presence).where(push_presence.c.player_id == player_id))
    # InvitationUpdated names both players.
    data = plumbing.outbox.c.payload["data"]
    named = or_(
        data["from_player_id"].astext == str(player_id),
        data["to_player_id"].astext == str(player_id),
    )
    session.execute(delete(plumbing.outbox).where(named))


def forget_seated_events(session: Session, player_id: uuid.UUID) -> int:
    """Delete outbox rows naming the player in a seat (MatchFinished v2), published or not."""
    outbox = plumbing.outbox
    seated = {"data": {"seats": [{"player_id": str(player_id)}]}}
    deleted = session.execute(
        delete(outbox).where(outbox.c.payload.contains(seated)).returning(outbox.c.seq)
    ).all()
    return len(deleted)
