"""Account deletion and TerraKard attacks (docs/terrakard.md, "Account deletion (ours)").

Called by battle's purge after the deleted player's gate is sealed and before their
seats lose their id, in the purge's transaction:

- a live attack the player is making ends at once, as if they gave up (rulebook:
  "Giving up counts as a defeat"): the defense wins, with everything a defense won
  earns; their seat is emptied first, so no event of the end names them;
- a live attack on the player's plan goes on against its snapshot (the plan defends on
  its own, and the attacker spent a ticket): the attacker plays it to its end and earns
  what it earns; nothing is written for the deleted defender;
- in every attack the player defended, live or finished, the reconnaissance's
  pseudonym (derived from their id) becomes "Deleted player";
- in every attack they sat in (either seat), their card copies' ids in the snapshots,
  the log and the kept answers become new random ids (the same new id for the same
  copy throughout the attack, so views, reports and replay are unchanged), and their
  seat forgets the deck or plan it came from.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import select, text, update
from sqlalchemy.orm import Session

from games.terrakard.actions import give_up
from games.terrakard.state import ATTACKER, DEFENDER
from services.battle import host
from services.battle.games import hosted
from services.battle.games import terrakard as tk
from services.battle.host import Status
from services.battle.orm import match_seats, matches, plumbing
from services.battle.purge import player_gate
from services.battle.repository import BattleUnitOfWork, SqlMatches
from services.battle.terrakard_store import SqlArena
from shared.db import UnitOfWork
from shared.errors import ServiceUnavailable

DELETED = tk.pseudonym(None)


def end_attacks_of(session: Session, player_id: uuid.UUID, now: datetime) -> int:
    """The deleted player's live attacks end as given up; no attack they sat in keeps
    their pseudonym, copies, deck or plan. Returns how many attacks ended."""
    uow = BattleUnitOfWork(
        SqlMatches(session), UnitOfWork(session, plumbing, lambda: now),
        player_gate(session), SqlArena(session),
    )  # fmt: skip
    # Found first: the give-up below empties the attacker's seat.
    attacked = _seated(session, player_id, ATTACKER, live=False)
    defended = _seated(session, player_id, DEFENDER, live=False)
    live = _seated(session, player_id, ATTACKER, live=True)
    _admit_others(session, player_id, live)
    # Every match row before any seat or arena row, in id order: a write to an attack
    # (an action, the sweeper) takes its match row, then its seats and the arena rows;
    # taking the seats first here would let the two wait on each other. (Today the gates
    # already keep those writes out while the purge runs: an action takes every
    # player's gate, the sweeper skips a busy one; this keeps the rows' order anyway.)
    _lock_matches(session, {*attacked, *defended})
    session.execute(
        update(match_seats)
        .where(match_seats.c.player_id == player_id, match_seats.c.game == tk.GAME)
        .values(ref_id=None, ref_version=None)
    )
    ended = sum(_give_up_for(uow, match_id, player_id, now) for match_id in live)
    for match_id in defended:
        _forget_pseudonym(session, match_id)
        _forget_copies(session, match_id, DEFENDER)
    for match_id in attacked:
        _forget_copies(session, match_id, ATTACKER)
    return ended


def _admit_others(session: Session, player_id: uuid.UUID, live: list[uuid.UUID]) -> None:
    """The gates of the other players of the attacks the purge ends (a defense's win
    changes the defender's arena row), tried, never waited for. The purge holds its own
    player's gate already, out of the id order every write takes gates in: waiting for
    another's here would close a cycle with a write holding theirs and waiting for the
    purged player's (the attacker's own round does: it takes both, in id order). A busy
    one fails the purge, whose handler retries it (1 s later, then more)."""
    if not live:
        return
    others = session.execute(
        select(match_seats.c.player_id).where(
            match_seats.c.match_id.in_(live), match_seats.c.player_id != player_id
        )
    ).scalars()
    gate = player_gate(session)
    for other in sorted({p for p in others if p is not None}):
        if not gate.try_admit(other):
            raise ServiceUnavailable(
                "player_busy", "a player of an attack to end is busy; the purge is retried"
            )


def _lock_matches(session: Session, match_ids: set[uuid.UUID]) -> None:
    session.execute(
        select(matches.c.id)
        .where(matches.c.id.in_(sorted(match_ids)))
        .order_by(matches.c.id)
        .with_for_update()
    )


def _seated(session: Session, player_id: uuid.UUID, seat: str, live: bool) -> list[uuid.UUID]:
    query = (
        select(matches.c.id)
        .join(match_seats, match_seats.c.match_id == matches.c.id)
        .where(
            match_seats.c.player_id == player_id,
            match_seats.c.seat == seat,
            matches.c.game == tk.GAME,
            matches.c.mode == tk.ATTACK_MODE,
        )
    )
    if live:
        query = query.where(matches.c.status == Status.ACTIVE.value)
    return list(session.execute(query).scalars().all())


def _give_up_for(
    uow: BattleUnitOfWork, match_id: uuid.UUID, player_id: uuid.UUID, now: datetime
) -> int:
    match = uow.matches.get(match_id, for_update=True)
    if match is None or match.status is not Status.ACTIVE:
        return 0
    game = hosted(tk.GAME)
    # Time that ran out is played first, as any write does; the give-up may then be moot.
    state, steps = host.catch_up(game, match.seats, match.state, now)
    if game.engine.results(state) is None:
        state, more = host.play(game, match.seats, state, ATTACKER, give_up(), now)
        steps += more
    gone = tuple(replace(s, player_id=None) if s.player_id == player_id else s
                 for s in match.seats)  # fmt: skip
    before = replace(match, seats=gone)
    after = host.advance(game, before, state, now)
    uow.matches.save(after, match.version)
    uow.matches.add_steps(match.id, steps)
    uow.events.add_event(host.finished_event(after))
    uow.events.add_event(host.updated_event(game, after, now))
    if game.on_finished is not None:
        game.on_finished(uow, after, now)
    return 1


def _forget_pseudonym(session: Session, match_id: uuid.UUID) -> None:
    """The defense's pseudonym in the stored state and in the initial state (replay)."""
    row = session.execute(
        select(matches.c.state, matches.c.initial_state)
        .where(matches.c.id == match_id)
        .with_for_update()
    ).first()
    if row is None:
        return
    session.execute(
        update(matches)
        .where(matches.c.id == match_id)
        .values(state=_renamed(row.state), initial_state=_renamed(row.initial_state))
    )


def _renamed(state: Any) -> Any:
    if not isinstance(state, dict) or not isinstance(state.get("defense"), dict):
        return state
    return {**state, "defense": {**state["defense"], "pseudonym": DELETED}}


def _copy_ids(state: Any, seat: str) -> list[str]:
    """The seat's copies in a stored attack state: the attacker's deck, or the plan's
    five cards and its reserve."""
    if not isinstance(state, dict):
        return []
    if seat == ATTACKER:
        cards = state.get("attacker", {}).get("deck", [])
    else:
        plan = state.get("defense", {}).get("plan", {})
        cards = [*plan.get("rounds", []), plan.get("reserve") or {}]
    return [str(c["id"]) for c in cards if isinstance(c, dict) and c.get("id")]


def _forget_copies(session: Session, match_id: uuid.UUID, seat: str) -> None:
    """Each of the seat's copy ids, wherever the attack keeps it, becomes one new id."""
    row = session.execute(
        select(matches.c.state).where(matches.c.id == match_id).with_for_update()
    ).first()
    if row is None:
        return
    for old in dict.fromkeys(_copy_ids(row.state, seat)):
        new = {"old": old, "new": str(uuid.uuid4())}
        session.execute(
            text(
                "UPDATE matches SET state = replace(state::text, :old, :new)::jsonb, "
                "initial_state = replace(initial_state::text, :old, :new)::jsonb "
                "WHERE id = :match_id"
            ),
            {**new, "match_id": match_id},
        )
        session.execute(
            text(
                "UPDATE match_actions SET events = replace(events::text, :old, :new)::jsonb, "
                "response = replace(response::text, :old, :new)::jsonb "
                "WHERE match_id = :match_id"
            ),
            {**new, "match_id": match_id},
        )
