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

from psycopg.types.json import Jsonb
from sqlalchemy import Table
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
from shared.db import Statement, UnitOfWork, pipelined
from shared.events import Event
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
    # Then every delete in one round trip: the gate is held until the purge commits, and
    # the player's writes wait for it (issue 29).
    pipelined(session, purge_statements(player_id))


def _q(table: Table) -> str:
    return '"' + table.name.replace('"', '""') + '"'


M, S, A = _q(matches), _q(match_seats), _q(match_actions)
# The matches the player alone is seated in (or a legacy one without seats yet, named
# by ``matches.player_id``): they go with their actions (seats cascade). A match another
# player is seated in too stays, the player's seat emptied. Four parameters: the player.
_SEATED = f"SELECT match_id FROM {S} WHERE player_id = %s"
_ALONE = (
    f"SELECT id FROM {M} WHERE (id IN ({_SEATED}) AND id NOT IN ("
    f"SELECT match_id FROM {S} WHERE match_id IN ({_SEATED}) AND player_id <> %s)"
    ") OR player_id = %s"
)
_OUTBOX = _q(plumbing.outbox)


def purge_statements(player_id: uuid.UUID) -> list[Statement]:
    """The purge after the seal (and the shared matches' end), as SQL for one pipeline
    (``shared.db.pipelined``): the player's own matches, their seat in others, TerraKard's
    arena rows, matchmaking and invitations, pseudonyms, push presence, and the outbox
    rows that name them (``data.player_id``, a seat of MatchFinished v2, either side of
    InvitationUpdated), published or not."""
    one = (player_id,)
    named = str(player_id)
    seated = Jsonb({"data": {"seats": [{"player_id": named}]}})
    return [
        (f"DELETE FROM {A} WHERE match_id IN ({_ALONE})", one * 4),
        (f"DELETE FROM {M} WHERE id IN ({_ALONE})", one * 4),
        (f"UPDATE {S} SET player_id = NULL, one_active = false WHERE player_id = %s", one),
        *(
            (f"DELETE FROM {_q(table)} WHERE player_id = %s", one)
            for table in (terrakard_arena, terrakard_objectives, terrakard_rewards)
        ),
        (f"DELETE FROM {_OUTBOX} WHERE payload -> 'data' ->> 'player_id' = %s", (named,)),
        (f"DELETE FROM {_OUTBOX} WHERE payload @> %s", (seated,)),
        (f"DELETE FROM {_q(pvp_queue)} WHERE player_id = %s", one),
        (
            f"DELETE FROM {_q(pvp_invitations)} WHERE from_player_id = %s OR to_player_id = %s",
            one * 2,
        ),
        (f"DELETE FROM {_q(pvp_pseudonyms)} WHERE player_id = %s", one),
        (f"DELETE FROM {_q(push_presence)} WHERE player_id = %s", one),
        (
            f"DELETE FROM {_OUTBOX} WHERE payload -> 'data' ->> 'from_player_id' = %s "
            "OR payload -> 'data' ->> 'to_player_id' = %s",
            (named, named),
        ),
    ]
