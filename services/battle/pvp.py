"""Matches against another player: the matchmaking queues (Chronovore's, Quest's live
matches), direct invitations (Chronovore's live matches, Quest's asynchronous ones), and
the end of a deleted player's active matches (docs/chronovore.md, "Against another
player"; docs/quest-pvp.md).

What differs between the games and modes is a ``Table`` (mode, seats, the deck a snapshot makes,
the engine's settings, how long an invitation waits, how many matches may run at once).

The match itself is any hosted match (handlers.act, the sweeper, the views): two player
seats, the table's mode (``pvp``, ``async``). What is new here is how two players come to
sit in one:

- **The queue.** A join snapshots the player's legal deck (cards' ``deck_for_match``,
  outside any transaction), commits the entry, then pairs the two oldest entries under
  row locks (pvp_store). The pairing creates the match, removes both entries and writes
  ``MatchUpdated`` (version 0), so both players are told at once through push. The
  sweeper pairs again what a busy moment left waiting.
- **Invitations** to a player by pseudonym, with the inviter's legal deck; the invitee
  accepts with their own legal deck (the match starts), or declines; the inviter cancels;
  pending ones expire after the table's ``invitation_ttl`` (the sweeper marks them).
  Every change writes ``InvitationUpdated``, so both players are told through push.

Lock order, as everywhere in battle: players' gates first, then rows; the pairing and
the sweeper hold rows already, so they only try the gates.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from services.battle import host, match_seeds, pvp_record
from services.battle.games import chronovore, hosted, quest
from services.battle.games.chronovore import GAME, PVP_MODE, PVP_SEATS
from services.battle.games.terrakard import pseudonym
from services.battle.host import HostedGame, Match, Seat, SeatKind, Status
from services.battle.orm import match_seats, matches, plumbing
from services.battle.pvp_store import DeckSnapshot, Invitation, PvpUnitOfWork, QueueEntry
from services.battle.repository import SqlMatches
from shared import pages
from shared.clock import Clock
from shared.db import UnitOfWork
from shared.errors import Conflict, InvalidInput, NotFound
from shared.events import INVITATION_UPDATED, new_event
from shared.randomness import RandomSource

PvpUnitOfWorkFactory = Callable[[], AbstractContextManager[PvpUnitOfWork]]

# Ours (the rulebook is silent).
INVITATION_MINUTES = 10  # a pending Chronovore invitation expires after this long
# Rulebook, "Asynchronous PvP": "An invitation expires after 24 hours."
QUEST_INVITATION_HOURS = 24
# Ours (docs/quest-pvp.md, "Live PvP"): a direct live challenge waits 2 minutes.
LIVE_CHALLENGE_MINUTES = 2
# Ours (docs/quest-pvp.md): active asynchronous Quest matches a player may have at once.
MAX_ASYNC_MATCHES = 10
MAX_PENDING_SENT = 10  # pending invitations a player may have sent at once, per game
PAIRINGS_PER_SWEEP = 25
EXPIRIES_PER_SWEEP = 200

PENDING, ACCEPTED, DECLINED, CANCELLED, EXPIRED = (
    "pending",
    "accepted",
    "declined",
    "cancelled",
    "expired",
)


@dataclass(frozen=True)
class Table:
    """One game's matches against a player: what its invitations and starts need."""

    game: str
    mode: str
    seats: tuple[str, str]  # the engine's seats: the inviter (or earlier player) first
    player_deck: Callable[[list[dict[str, Any]]], Any]  # snapshot cards -> the engine's deck
    kept: tuple[str, ...]  # what of each of cards' deck cards the snapshot keeps
    invitation_ttl: timedelta
    max_active: int  # active matches of this mode per player (1: the seats' unique index)
    settings: Any = None  # the engine's, for every match of this mode
    live_challenge: bool = False  # its invitations are Quest's live challenges

    @property
    def hosted(self) -> HostedGame:
        return hosted(self.game)


CHRONOVORE_TABLE = Table(
    GAME,
    PVP_MODE,
    PVP_SEATS,
    chronovore.player_deck,
    ("kind", "definition"),
    timedelta(minutes=INVITATION_MINUTES),
    max_active=1,
)
QUEST_TABLE = Table(
    quest.GAME,
    quest.ASYNC_MODE,
    (quest.ASYNC_SEATS[0], quest.ASYNC_SEATS[1]),
    quest.player_deck,
    ("kind", "definition_id", "definition"),
    timedelta(hours=QUEST_INVITATION_HOURS),
    max_active=MAX_ASYNC_MATCHES,
    settings=quest.ASYNC_SETTINGS,
)
# Quest's live matches (docs/quest-pvp.md, "Live PvP"), one at a time, made by its queue
# or by a direct live challenge (an invitation of mode ``live``, 2 minutes).
QUEST_LIVE_TABLE = Table(
    quest.GAME,
    quest.LIVE_MODE,
    QUEST_TABLE.seats,
    quest.player_deck,
    QUEST_TABLE.kept,
    timedelta(minutes=LIVE_CHALLENGE_MINUTES),
    max_active=1,
    settings=quest.LIVE_SETTINGS,
    live_challenge=True,
)
TABLES = {t.game: t for t in (CHRONOVORE_TABLE, QUEST_TABLE)}  # invitations, per game
QUEUE_TABLES = {t.game: t for t in (CHRONOVORE_TABLE, QUEST_LIVE_TABLE)}  # queues, per game
# The second kind of invitation a game offers, by the mode the invitation names.
CHALLENGE_TABLES = {(QUEST_LIVE_TABLE.game, QUEST_LIVE_TABLE.mode): QUEST_LIVE_TABLE}
SHARED_MODES = frozenset((t.game, t.mode) for t in (*TABLES.values(), *QUEUE_TABLES.values()))


def invitation_table(game: str, mode: str | None) -> Table:
    """The table of an invitation of ``game`` naming ``mode`` (None: the game's own)."""
    own = TABLES[game]
    if mode is None or mode == own.mode:
        return own
    found = CHALLENGE_TABLES.get((game, mode))
    if found is None:
        offered = sorted({own.mode, *(m for g, m in CHALLENGE_TABLES if g == game)})
        raise InvalidInput(
            "mode_not_offered",
            f"{game} invitations are of mode {' or '.join(offered)}",
            {"modes": offered},
        )
    return found


def _table_of(invitation: Invitation) -> Table:
    if invitation.live_challenge:
        return QUEST_LIVE_TABLE
    return TABLES[invitation.game]


def _for_invitation(pvp: Pvp, invitation_id: uuid.UUID) -> Pvp:
    """``pvp`` with the table of the invitation's kind (a live challenge or the game's
    own invitation); an unknown one keeps the game's (and is not found later)."""
    with pvp.unit_of_work() as uow:
        found = uow.pvp.invitation(invitation_id)
    if found is None or found.game != pvp.table.game:
        return pvp
    return replace(pvp, table=_table_of(found))


@dataclass(frozen=True)
class Pvp:
    """What the queue and invitations need: the database, the cards service, time, chance,
    and the game's table."""

    unit_of_work: PvpUnitOfWorkFactory
    cards: chronovore.CardsCatalogue
    clock: Clock
    rng: RandomSource
    new_id: Callable[[], uuid.UUID] = uuid.uuid4
    table: Table = CHRONOVORE_TABLE


def _active_match_exists(match_id: uuid.UUID | None) -> Conflict:
    return Conflict(
        "active_match_exists",
        "you already have an active match against a player: finish or leave it first",
        {"match_id": None if match_id is None else str(match_id)},
    )


def _too_many(table: Table) -> Conflict:
    return Conflict(
        "active_match_limit",
        f"you already have {table.max_active} active matches against players: finish one first",
        {"limit": table.max_active},
    )


def _refuse_busy(uow: PvpUnitOfWork, table: Table, player_id: uuid.UUID) -> None:
    """Refuse a player who may not start another match of the table's mode."""
    if table.max_active == 1:
        active = uow.matches.active_id(player_id, table.game, table.mode)
        if active is not None:
            raise _active_match_exists(active)
    elif uow.matches.active_count(player_id, table.game, table.mode) >= table.max_active:
        raise _too_many(table)


def _snapshot(pvp: Pvp, player_id: uuid.UUID, deck_id: uuid.UUID) -> DeckSnapshot:
    """The player's legal saved deck, checked playable (outside any transaction)."""
    table = pvp.table
    deck = pvp.cards.deck_for_match(player_id=str(player_id), deck_id=str(deck_id), game=table.game)
    kept = [{key: c[key] for key in table.kept} for c in deck["cards"]]
    table.player_deck(kept)  # refused here, not at pairing time
    return DeckSnapshot(uuid.UUID(str(deck["deck_id"])), int(deck["version"]), kept)


def _greet(uow: PvpUnitOfWork, player_id: uuid.UUID) -> str:
    """The player's pseudonym, remembered so that others can invite them by it."""
    name = pseudonym(player_id)
    uow.pvp.remember(player_id, name)
    return name


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


_INVITATION_EVENTS = uuid.UUID("5c0e2f7a-3d4b-4a61-8f2e-9b7d1c6a0e35")


def _told(uow: PvpUnitOfWork, invitation: Invitation) -> None:
    """InvitationUpdated for both players, with the change (one per invitation and status:
    the id follows from them)."""
    data = {
        "invitation_id": invitation.id,
        "game": invitation.game,
        "status": invitation.status,
        "from_player_id": invitation.from_player_id,
        "to_player_id": invitation.to_player_id,
        "match_id": invitation.match_id,
        "expires_at": invitation.expires_at,
        "updated_at": invitation.updated_at,
    }
    event_id = uuid.uuid5(_INVITATION_EVENTS, f"{invitation.id}:{invitation.status}")
    event = new_event(
        INVITATION_UPDATED, data, occurred_at=invitation.updated_at, event_id=event_id
    )
    uow.events.add_event(event)


def _expire(uow: PvpUnitOfWork, now: datetime) -> int:
    """Pending invitations past their time expired, both players told -> how many."""
    expired = uow.pvp.expire(now, EXPIRIES_PER_SWEEP)
    for invitation in expired:
        _told(uow, invitation)
    return len(expired)


# -- starting a match between two players ----------------------------------------------------


def _create_match(
    pvp: Pvp,
    uow: PvpUnitOfWork,
    first: tuple[uuid.UUID, DeckSnapshot],
    second: tuple[uuid.UUID, DeckSnapshot],
) -> Match | None:
    """The match of two players (gates already passed), or None when one of them is in an
    active match against a player already (the seats' unique index, where one is the
    limit)."""
    table = pvp.table
    seats, brings = [], {}
    for name, (player_id, deck) in zip(table.seats, (first, second), strict=True):
        seats.append(Seat(name, SeatKind.PLAYER, player_id, deck.deck_id, deck.version))
        brings[name] = table.player_deck(deck.cards)
    now = pvp.clock.now()
    match, initial, steps = host.start(
        table.hosted,
        pvp.new_id(),
        table.mode,
        seats,
        brings,
        table.settings,
        pvp.rng.seed_for_child(),
        now,
    )
    match = match_seeds.salted(match, pvp.rng)  # committed from the first view (fairness)
    if not uow.matches.add_if_no_active(match, initial):
        return None
    uow.matches.add_steps(match.id, steps)
    uow.pvp.dequeue([first[0], second[0]])
    uow.events.add_event(host.updated_event(table.hosted, match, now))  # both told at once
    return match


def _pair_once(pvp: Pvp, uow: PvpUnitOfWork) -> bool:
    """Pair the two players waiting longest for the table's game, if two are waiting and
    neither is busy."""
    table = pvp.table
    entries = uow.pvp.oldest_two(table.game)
    if len(entries) < 2:
        return False
    if not all(uow.players.try_admit(e.player_id) for e in entries):
        return False  # busy (their own join, a purge): their own step or the sweeper pairs
    busy = [
        e.player_id for e in entries if uow.matches.active_id(e.player_id, table.game, table.mode)
    ]
    if busy:  # cannot happen through the routes (a join checks); never pair them
        uow.pvp.dequeue(busy)
        return True
    first, second = entries
    created = _create_match(
        pvp, uow, (first.player_id, first.deck), (second.player_id, second.deck)
    )
    return created is not None


def pair(pvp: Pvp, limit: int = 1) -> int:
    """Up to ``limit`` pairings, each in its own transaction -> how many were made."""
    made = 0
    for _ in range(limit):
        with pvp.unit_of_work() as uow:
            if not _pair_once(pvp, uow):
                break
        made += 1
    return made


# -- the queue ----------------------------------------------------------------------------


def _queue_view(uow: PvpUnitOfWork, table: Table, player_id: uuid.UUID) -> dict[str, Any]:
    entry = uow.pvp.entry(player_id)
    if entry is not None and entry.game != table.game:
        entry = None  # waiting in another game's queue
    active = uow.matches.active_id(player_id, table.game, table.mode)
    status = "queued" if entry is not None else "idle" if active is None else "matched"
    return {
        "status": status,
        "deck_id": None if entry is None else str(entry.deck.deck_id),
        "joined_at": None if entry is None else _time(entry.joined_at),
        "match_id": None if active is None else str(active),
        "waiting": uow.pvp.waiting(table.game),
    }


def join_queue(pvp: Pvp, player_id: uuid.UUID, deck_id: uuid.UUID) -> dict[str, Any]:
    """Wait for an opponent with a legal deck (joined already: the deck changes, the place
    stays; waiting in another game's queue: moved to this one) -> the queue as the player
    sees it: ``queued``, or ``matched`` with the match."""
    table = pvp.table
    with pvp.unit_of_work() as uow:
        active = uow.matches.active_id(player_id, table.game, table.mode)
    if active is not None:
        raise _active_match_exists(active)
    deck = _snapshot(pvp, player_id, deck_id)  # outside any transaction
    with pvp.unit_of_work() as uow:
        uow.players.admit(player_id)
        _greet(uow, player_id)
        active = uow.matches.active_id(player_id, table.game, table.mode)
        if active is not None:
            raise _active_match_exists(active)
        uow.pvp.enqueue(QueueEntry(player_id, table.game, deck, pvp.clock.now()))
    # Committed: every concurrent join now sees this entry in its own pairing step.
    pair(pvp, limit=2)
    with pvp.unit_of_work() as uow:
        return _queue_view(uow, table, player_id)


def leave_queue(pvp: Pvp, player_id: uuid.UUID) -> None:
    with pvp.unit_of_work() as uow:
        uow.players.admit(player_id)
        entry = uow.pvp.entry(player_id)
        if entry is None or entry.game != pvp.table.game or not uow.pvp.dequeue([player_id]):
            raise NotFound("not_queued", "you are not waiting in the queue")


def queue_status(pvp: Pvp, player_id: uuid.UUID) -> dict[str, Any]:
    with pvp.unit_of_work() as uow:
        return _queue_view(uow, pvp.table, player_id)


# -- invitations --------------------------------------------------------------------------


def _status(invitation: Invitation, now: datetime) -> str:
    """Pending past its time is expired, whether or not the sweeper has marked it yet."""
    if invitation.status == PENDING and invitation.expires_at <= now:
        return EXPIRED
    return invitation.status


def invitation_view(invitation: Invitation, player_id: uuid.UUID, now: datetime) -> dict[str, Any]:
    sent = invitation.from_player_id == player_id
    return {
        "id": str(invitation.id),
        "from": pseudonym(invitation.from_player_id),
        "to": pseudonym(invitation.to_player_id),
        "sent": sent,
        "status": _status(invitation, now),
        "mode": _table_of(invitation).mode,
        "deck_id": str(invitation.deck.deck_id) if sent else None,  # the inviter's own
        "match_id": None if invitation.match_id is None else str(invitation.match_id),
        "created_at": _time(invitation.created_at),
        "expires_at": _time(invitation.expires_at),
    }


def invite(pvp: Pvp, player_id: uuid.UUID, to: str, deck_id: uuid.UUID) -> dict[str, Any]:
    """Invite the player with pseudonym ``to`` with a legal deck -> the invitation."""
    table = pvp.table
    with pvp.unit_of_work() as uow:
        invitee = _invitee(uow, player_id, to)
        _refuse_busy(uow, table, player_id)
    deck = _snapshot(pvp, player_id, deck_id)
    now = pvp.clock.now()
    invitation = Invitation(
        id=pvp.new_id(),
        game=table.game,
        from_player_id=player_id,
        to_player_id=invitee,
        deck=deck,
        status=PENDING,
        match_id=None,
        created_at=now,
        expires_at=now + table.invitation_ttl,
        updated_at=now,
        live_challenge=table.live_challenge,
    )
    with pvp.unit_of_work() as uow:
        uow.players.admit(player_id)
        _greet(uow, player_id)
        _expire(uow, now)  # an expired one no longer counts
        if uow.pvp.pending_sent(player_id, table.game, now) >= MAX_PENDING_SENT:
            raise Conflict(
                "invitation_limit_reached",
                f"you have {MAX_PENDING_SENT} pending invitations: wait or cancel one",
            )
        if not uow.pvp.add_invitation(invitation):
            raise Conflict("invitation_exists", "you have already invited this player")
        _told(uow, invitation)
        return invitation_view(invitation, player_id, now)


def _invitee(uow: PvpUnitOfWork, player_id: uuid.UUID, to: str) -> uuid.UUID:
    found = [p for p in uow.pvp.players_named(to.strip()) if p != player_id]
    if to.strip() == pseudonym(player_id):
        raise InvalidInput("cannot_invite_yourself", "you cannot invite yourself")
    if not found:
        raise NotFound(
            "player_not_found",
            "no player has this pseudonym (a player shows up once they have opened "
            "their invitations or Chronovore's queue)",
        )
    if len(found) > 1:
        raise Conflict("pseudonym_ambiguous", "more than one player has this pseudonym")
    return found[0]


def invitations(pvp: Pvp, player_id: uuid.UUID, cursor: str | None, limit: int) -> dict[str, Any]:
    """The player's own pseudonym (to give to a friend) and a page of their invitations,
    sent and received, newest first: ``{"you", "items", "next"}`` (docs/api.md, "Lists")."""
    limit = max(1, min(pages.MAX_PAGE, limit))
    before = pages.position(cursor)  # a bad cursor refused before anything is written
    now = pvp.clock.now()
    with pvp.unit_of_work() as uow:
        uow.players.admit(player_id)
        you = _greet(uow, player_id)
        found = uow.pvp.invitations_of(player_id, pvp.table.game, before, limit + 1)
        shown = pages.page(
            found,
            limit,
            lambda i: (i.created_at, i.id),
            lambda i: invitation_view(i, player_id, now),
        )
    return {"you": you, **shown}


def _pending(
    uow: PvpUnitOfWork,
    invitation_id: uuid.UUID,
    player_id: uuid.UUID,
    role: str,
    now: datetime,
    game: str,
    live_challenge: bool | None = None,
) -> Invitation:
    """The invitation of ``game``, locked, if the player is its ``role`` ("from" or "to")
    and it is still pending; another player's (or another game's) is not found."""
    found = uow.pvp.invitation(invitation_id, for_update=True)
    owner = None if found is None else getattr(found, f"{role}_player_id")
    if found is None or owner != player_id or found.game != game:
        raise NotFound("invitation_not_found", "there is no such invitation")
    if live_challenge is not None and found.live_challenge != live_challenge:
        raise NotFound("invitation_not_found", "there is no such invitation")
    status = _status(found, now)
    if status != PENDING:
        raise Conflict("invitation_not_pending", f"this invitation is {status}", {"status": status})
    return found


def accept(
    pvp: Pvp, player_id: uuid.UUID, invitation_id: uuid.UUID, deck_id: uuid.UUID
) -> dict[str, Any]:
    """Accept with one's own legal deck: the match starts (both told through push) -> the
    accepting player's view of it. Both decks are the snapshots of this moment's and the
    invitation's (the rulebook's "deck snapshots"). A live challenge starts a live match."""
    pvp = _for_invitation(pvp, invitation_id)
    table = pvp.table
    with pvp.unit_of_work() as uow:
        _pending(uow, invitation_id, player_id, "to", pvp.clock.now(), table.game)
    deck = _snapshot(pvp, player_id, deck_id)
    with pvp.unit_of_work() as uow:
        found = uow.pvp.invitation(invitation_id)
        if found is None:
            raise NotFound("invitation_not_found", "there is no such invitation")
        # Both gates, in one order (two players accepting each other's invitations at
        # once would otherwise wait for each other).
        for gate in sorted({player_id, found.from_player_id}, key=str):
            uow.players.admit(gate)
        now = pvp.clock.now()
        invitation = _pending(
            uow, invitation_id, player_id, "to", now, table.game, table.live_challenge
        )
        if table.max_active > 1:  # counted under both gates: no race past the limit
            _refuse_busy(uow, table, player_id)
            if uow.matches.active_count(invitation.from_player_id, table.game, table.mode) >= (
                table.max_active
            ):
                raise Conflict(
                    "opponent_busy",
                    "the inviting player has as many active matches as allowed",
                )
        match = _create_match(
            pvp, uow, (invitation.from_player_id, invitation.deck), (player_id, deck)
        )
        if match is None:
            mine = uow.matches.active_id(player_id, table.game, table.mode)
            if mine is not None:
                raise _active_match_exists(mine)
            raise Conflict(
                "opponent_busy", "the inviting player is in another match against a player"
            )
        uow.pvp.set_status(invitation.id, ACCEPTED, now, match.id)
        _told(uow, replace(invitation, status=ACCEPTED, match_id=match.id, updated_at=now))
        seat = match.seat_of(player_id)
        assert seat is not None
        return table.hosted.views.match(match, seat)


def _close(
    pvp: Pvp, player_id: uuid.UUID, invitation_id: uuid.UUID, role: str, status: str
) -> dict[str, Any]:
    now = pvp.clock.now()
    with pvp.unit_of_work() as uow:
        uow.players.admit(player_id)
        invitation = _pending(uow, invitation_id, player_id, role, now, pvp.table.game)
        uow.pvp.set_status(invitation.id, status, now, None)
        closed = replace(invitation, status=status, updated_at=now)
        _told(uow, closed)
        return invitation_view(closed, player_id, now)


def decline(pvp: Pvp, player_id: uuid.UUID, invitation_id: uuid.UUID) -> dict[str, Any]:
    return _close(pvp, player_id, invitation_id, "to", DECLINED)


def cancel(pvp: Pvp, player_id: uuid.UUID, invitation_id: uuid.UUID) -> dict[str, Any]:
    return _close(pvp, player_id, invitation_id, "from", CANCELLED)


def sweep(pvp: Pvp) -> tuple[int, int]:
    """The sweeper's part: expire invitations, pair what is left waiting -> (expired, paired)."""
    with pvp.unit_of_work() as uow:
        expired = _expire(uow, pvp.clock.now())
    return expired, pair(pvp, PAIRINGS_PER_SWEEP)


# -- a player's matches against players ------------------------------------------------------


def match_summary(table: Table, match: Match, seat: Seat) -> dict[str, Any]:
    """One line of the list, from what both seats may see (no cards at all)."""
    active = match.status is Status.ACTIVE
    waiting = table.hosted.engine.waiting_for(match.state) if active else []
    other = next(s for s in match.seats if s.name != seat.name)
    return {
        "id": str(match.id),
        "mode": match.mode,
        "status": str(match.status),
        "side": seat.name,
        "opponent_name": quest.DELETED_PLAYER
        if other.player_id is None
        else pseudonym(other.player_id),
        "your_turn": seat.name in waiting,
        "outcome": seat.result,
        "version": table.hosted.engine.seen_version(match.state, seat.name),
        "deadline": _time(match.deadline),
        "created_at": _time(match.created_at),
        "updated_at": _time(match.updated_at),
        "finished_at": _time(match.finished_at),
    }


def _modes_of(game: str) -> list[str]:
    """Every mode of ``game`` against a player (Quest's asynchronous and live matches)."""
    return sorted({mode for found, mode in SHARED_MODES if found == game})


def matches_of(pvp: Pvp, player_id: uuid.UUID, cursor: str | None, limit: int) -> dict[str, Any]:
    """A page of the player's matches against players of the table's game, every mode,
    newest first by creation (a keyset on what never changes: a match finishing between
    two reads neither moves nor repeats; its ``status`` says whether it is active), and
    their one win/loss record under the rule against farming (pvp_record), on every page."""
    table = pvp.table
    modes = _modes_of(table.game)
    limit = max(1, min(pages.MAX_PAGE, limit))
    before = pages.position(cursor)
    with pvp.unit_of_work() as uow:
        found = uow.matches.played_by(player_id, table.game, before, limit + 1, modes=modes)
        results = uow.matches.results_of(player_id, table.game, modes)
    shown = pages.page(
        found, limit, lambda m: (m.created_at, m.id), lambda m: _summary_of(table, m, player_id)
    )
    return {
        **shown,
        "record": pvp_record.record(results).to_dict(),
        "active_limit": table.max_active,
    }


def _summary_of(table: Table, match: Match, player_id: uuid.UUID) -> dict[str, Any]:
    seat = match.seat_of(player_id)
    assert seat is not None  # listed because the player sits in it (played_by)
    return match_summary(table, match, seat)


# -- account deletion ----------------------------------------------------------------------


def end_matches_of(session: Session, player_id: uuid.UUID, now: datetime) -> int:
    """In the purge, after the player's gate is sealed: each active match against a player
    that the deleted player sits in ends as if they left (the opponent wins; in Quest an
    elapsed window still goes first), with the player already gone from its seat, so that
    its events never name them."""
    store = SqlMatches(session)
    events = UnitOfWork(session, plumbing, lambda: now)
    ids = (
        session.execute(
            select(matches.c.id)
            .join(match_seats, match_seats.c.match_id == matches.c.id)
            .where(
                match_seats.c.player_id == player_id,
                matches.c.mode.in_(sorted({mode for _, mode in SHARED_MODES})),
                matches.c.status == Status.ACTIVE.value,
            )
        )
        .scalars()
        .all()
    )
    for match_id in ids:
        match = store.get(match_id, for_update=True)
        seat = None if match is None else match.seat_of(player_id)
        if match is None or seat is None or match.status is not Status.ACTIVE:
            continue
        if (match.game, match.mode) not in SHARED_MODES:
            continue
        _leave_for(store, events, match, seat, now)
    return len(ids)


def _leave_for(
    store: SqlMatches, events: UnitOfWork, match: Match, seat: Seat, now: datetime
) -> None:
    game = hosted(match.game)
    action = host.parse_action(game, {"kind": "forfeit"})
    state, steps = host.play(game, match.seats, match.state, seat.name, action, now)
    after = host.advance(game, match, state, now)
    gone = tuple(replace(s, player_id=None) if s.name == seat.name else s for s in after.seats)
    after = replace(after, seats=gone)
    store.save(after, match.version)
    store.add_steps(match.id, steps)
    events.add_event(host.finished_event(after))
    events.add_event(host.updated_event(game, after, now))
