"""The engine's entry points (rulebook, "A match"): start, apply, time out, replay.

Two players each bring a legal deck of 30 cards; the decks are shuffled (the match's
chance stream) and each draws 7. Five rounds; at the start of round 2 and each later
round each draws 1; the hand holds at most 12 (past that, a drawn or copied card is
discarded). Each round is a choosing step of 2 minutes: when both rows are locked, the
pairs resolve left to right (resolve.py); after round 5 with both heroes standing, the
duel. Pure functions: time comes in as ``now``, chance from the state's seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta

from games.chronovore import resolve
from games.chronovore.actions import Action, ActionKind
from games.chronovore.cards import Card
from games.chronovore.decks import card_problems
from games.chronovore.resolve import Event
from games.chronovore.rules import check, overdue
from games.chronovore.state import (
    FinishReason,
    Hero,
    InPlay,
    MatchState,
    Phase,
    Result,
    SeatState,
    Settings,
)
from games.kit.chance import RandomState, uniform
from games.kit.frozen import evolve

Deck = Sequence[Card]
# What a seat does to its row before it locks: the other seat sees none of it, not even
# that it happened (docs/chronovore.md, "Face down"); the lock it sees.
HIDDEN_KINDS = frozenset({ActionKind.PLACE, ActionKind.MOVE, ActionKind.TAKE_BACK})
LogEntry = tuple[str, Action, datetime]


def aware(moment: datetime) -> datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("the engine takes timezone-aware datetimes only")
    return moment


def shuffle(cards: Sequence[InPlay], rng: RandomState) -> tuple[tuple[InPlay, ...], RandomState]:
    """Fisher-Yates on the match's chance stream: the draws of ``rng.draw``, one after
    the other on its counter, with one new ``RandomState`` at the end."""
    items = list(cards)
    seed, stream, counter = rng.seed, rng.stream, rng.counter
    for i in range(len(items) - 1, 0, -1):
        j, counter = uniform(seed, stream, counter, i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items), evolve(rng, counter=counter)


def new_match(
    decks: Mapping[str, Deck],
    seed: int,
    now: datetime,
    settings: Settings | None = None,
    check_decks: bool = True,
) -> MatchState:
    """A match in round 1's choosing step. ``decks`` maps the two seats to their decks
    (legal ones: ``check_decks=False`` is for tests of small situations only)."""
    settings = settings or Settings()
    seats = tuple(decks)
    if len(seats) != 2:
        raise ValueError("a match has two seats")
    rng = RandomState(seed=seed)
    sides = []
    for seat in seats:
        problems = card_problems(decks[seat]) if check_decks else []
        if problems:
            raise ValueError(f"the {seat} deck is not legal: {problems[0].message}")
        cards = [InPlay(n, card) for n, card in enumerate(decks[seat], start=1)]
        deck, rng = shuffle(cards, rng)
        hero = Hero(health=settings.start_health, strength=settings.start_strength)
        side = SeatState(
            hero=hero, deck=deck, slots=(None,) * settings.slots, next_uid=len(cards) + 1
        )
        side, _ = resolve.draw(side, settings.opening_hand, seat, settings, quiet=True)
        sides.append(side)
    start = aware(now)
    return MatchState(
        seats=(seats[0], seats[1]),
        sides=(sides[0], sides[1]),
        settings=settings,
        random=rng,
        started_at=start,
        deadline=start + timedelta(seconds=settings.choosing_seconds),
    )


def _arrange(state: MatchState, seat: str, action: Action) -> tuple[MatchState, Event]:
    """Place, move or take back (already checked)."""
    side = state.side(seat)
    slots = list(side.slots)
    hand = side.hand
    assert action.slot is not None
    item: InPlay | None
    if action.kind is ActionKind.PLACE:
        item = next(i for i in hand if i.uid == action.card)
        hand = tuple(i for i in hand if i.uid != action.card)
        slots[action.slot] = item
        event: Event = {"type": "card_placed", "slot": action.slot}
    elif action.kind is ActionKind.MOVE:
        assert action.to is not None
        item = slots[action.slot]
        slots[action.slot], slots[action.to] = slots[action.to], item
        event = {"type": "card_moved", "slot": action.slot, "to": action.to}
    else:
        item = slots[action.slot]
        slots[action.slot] = None
        hand = (*hand, item) if item is not None else hand
        event = {"type": "card_taken_back", "slot": action.slot}
    assert item is not None
    event.update(seat=seat, uid=item.uid, card=item.card.to_dict())
    return state.with_side(seat, side.replace(slots=tuple(slots), hand=hand)), event


def _resolve_round(state: MatchState, now: datetime) -> tuple[MatchState, list[Event]]:
    """Both rows locked: the heroes enter, every pair in turn, then the next round or the
    duel."""
    events: list[Event] = [{"type": "heroes_entered", "round": state.round}]
    state = state.replace(revealed=(), deadline=None)
    for slot in range(state.settings.slots):
        state, resolved = resolve.resolve_pair(state, slot)
        events += resolved
        if state.phase is Phase.FINISHED:
            return state, events
    if state.round >= state.settings.rounds:
        state, dueled = resolve.duel(state)
        return state, events + dueled
    return _next_round(state, now, events)


def _next_round(
    state: MatchState, now: datetime, events: list[Event]
) -> tuple[MatchState, list[Event]]:
    settings = state.settings
    deadline = now + timedelta(seconds=settings.choosing_seconds)
    state = state.replace(round=state.round + 1, deadline=deadline)
    events.append({"type": "round_started", "round": state.round, "deadline": deadline.isoformat()})
    for seat in state.seats:
        side = state.side(seat).replace(locked=False, slots=(None,) * settings.slots)
        side, drawn = resolve.draw(side, settings.draw_per_round, seat, settings)
        state = state.with_side(seat, side)
        events += drawn
    return state, events


def _dispatch(
    state: MatchState, seat: str, action: Action, now: datetime
) -> tuple[MatchState, list[Event]]:
    if action.kind is ActionKind.FORFEIT:
        results = tuple(Result.LEFT.value if s == seat else Result.WIN.value for s in state.seats)
        state, finished = resolve.finish(state, (results[0], results[1]), FinishReason.LEFT)
        return state, [{"type": "left", "seat": seat}, *finished]
    if action.kind is ActionKind.LOCK:
        state = state.with_side(seat, state.side(seat).replace(locked=True))
        timed_out = overdue(state, now)
        events: list[Event] = [{"type": "locked", "seat": seat, "timed_out": timed_out}]
        if all(side.locked for side in state.sides):
            state, resolved = _resolve_round(state, now)
            events += resolved
        return state, events
    state, event = _arrange(state, seat, action)
    return state, [event]


def apply(
    state: MatchState, seat: str, action: Action, now: datetime
) -> tuple[MatchState, list[Event]]:
    """Apply one action of ``seat`` at ``now``; a Refusal before any change."""
    check(state, seat, action, aware(now))
    state, events = _dispatch(state, seat, action, now)
    if action.kind in HIDDEN_KINDS:
        state = state.hidden_from_other(seat)
    return state.next_version(), events


def timeouts(state: MatchState) -> list[tuple[str, Action]]:
    """When the choosing step runs out, every seat not locked in is locked in."""
    if state.phase is not Phase.CHOOSING:
        return []
    return [
        (seat, Action.lock())
        for seat, side in zip(state.seats, state.sides, strict=True)
        if not side.locked
    ]


def expire(state: MatchState, now: datetime) -> tuple[MatchState, list[Event]]:
    """What time alone does at ``now``: nothing before the deadline."""
    if not overdue(state, aware(now)):
        return state, []
    events: list[Event] = []
    for seat, action in timeouts(state):
        state, more = apply(state, seat, action, now)
        events += more
    return state, events


def replay(initial: MatchState, log: Iterable[LogEntry]) -> MatchState:
    state = initial
    for seat, action, now in log:
        state, _ = apply(state, seat, action, now)
    return state
