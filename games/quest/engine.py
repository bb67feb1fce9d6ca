"""The engine's entry points: start a match, apply an action, expire a turn, replay.

Pure functions of their arguments: time comes in as ``now`` (timezone-aware),
randomness from the state's own ``RandomState``. ``apply`` checks legality
before anything else and never mutates its input; the new state comes back
with the events that describe what happened, for the action log and the UI.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Final

from games.kit.chance import RandomState
from games.kit.frozen import plain
from games.quest import live
from games.quest.actions import Action, ActionKind
from games.quest.cards import CreatureCard, PowerCard
from games.quest.effects import Event, creature_event, resolve
from games.quest.matchup import CURRENT_VERSION, SUPPORTED_VERSIONS
from games.quest.rules import accepted_at_once, check
from games.quest.state import (
    SIDES,
    Creature,
    FinishReason,
    MatchState,
    MissedDeadline,
    Phase,
    Side,
    SideState,
    aware,
)
from games.quest.turns import after_action, end_turn, finish, start_turn
from games.quest.working import Step

# Module-level names for enum members (an enum class's attribute lookup is slow).
_PLAYER: Final = Side.PLAYER
_NORMAL_TURN: Final = Phase.NORMAL_TURN
_USE_MOVE: Final = ActionKind.USE_MOVE
_PLAY_POWER_CARD: Final = ActionKind.PLAY_POWER_CARD
_TIMEOUT: Final = ActionKind.TIMEOUT
_FORFEIT: Final = ActionKind.FORFEIT
_DISCONNECTED: Final = ActionKind.DISCONNECTED
# What ends the match for the side it names, whoever's turn it is.
_RESIGNATIONS: Final = frozenset({_FORFEIT, _DISCONNECTED})
_SELECT_CREATURE: Final = ActionKind.SELECT_CREATURE
_CPU_RULE: Final = MissedDeadline.TIMEOUT

CREATURES_PER_DECK = 3  # rulebook: "Saved decks"
POWER_CARDS_PER_DECK = 2


@plain
@dataclass(frozen=True)
class Settings:
    """Settings of the game, apart from the state of any one match."""

    turn_seconds: int = 90  # rulebook: a normal player turn has a 90-second deadline
    affinity_rules_version: int = CURRENT_VERSION  # what new matches store
    # CPU battles: TIMEOUT. Asynchronous PvP: FORFEIT, with ``turn_seconds`` the 24-hour
    # decision window of every turn and selection (state.MissedDeadline).
    missed_deadline: MissedDeadline = MissedDeadline.TIMEOUT


@plain
@dataclass(frozen=True)
class Deck:
    creatures: tuple[CreatureCard, ...]
    power_cards: tuple[PowerCard, ...]


LogEntry = tuple[Side, Action, datetime]
Result = tuple[MatchState, list[Event]]


def new_match(
    player_deck: Deck, cpu_deck: Deck, seed: int, now: datetime, settings: Settings | None = None
) -> MatchState:
    """A match waiting for both initial selections. ``seed`` drives every chance draw."""
    settings = settings or Settings()
    if settings.affinity_rules_version not in SUPPORTED_VERSIONS:
        raise ValueError(f"affinity rules version {settings.affinity_rules_version} unsupported")
    if settings.turn_seconds < 1:
        raise ValueError("a turn lasts at least one second")
    sides = {}
    for side, deck in ((Side.PLAYER, player_deck), (Side.CPU, cpu_deck)):
        if (
            len(deck.creatures) != CREATURES_PER_DECK
            or len(deck.power_cards) != POWER_CARDS_PER_DECK
        ):
            raise ValueError(f"the {side} deck needs 3 Creatures and 2 Power cards")
        creatures = tuple(Creature.fresh(card) for card in deck.creatures)
        sides[side] = SideState(creatures=creatures, power_cards=deck.power_cards)
    windowed = settings.missed_deadline.windows_selections
    return MatchState(
        player=sides[Side.PLAYER],
        cpu=sides[Side.CPU],
        random=RandomState(seed=seed),
        affinity_rules_version=settings.affinity_rules_version,
        turn_seconds=settings.turn_seconds,
        started_at=aware(now),
        # The initial selection is a decision too against a player.
        deadline=now + timedelta(seconds=settings.turn_seconds) if windowed else None,
        missed_deadline=settings.missed_deadline,
    )


def overdue(state: MatchState, now: datetime) -> bool:
    """Rulebook: an action at or after the deadline is too late (exactly at it counts).
    Only a normal turn has a deadline, unless a missed window forfeits (then every
    selection has one too)."""
    return (
        state.phase is not Phase.FINISHED and state.deadline is not None and now >= state.deadline
    )


def missed_by(state: MatchState) -> Side | None:
    """The side whose decision window is open: the mover of a normal turn, else the first
    side still to select (ours: when both missed a simultaneous selection, the side in
    seat order first, the challenger's, loses)."""
    if state.phase is Phase.NORMAL_TURN:
        return state.turn
    pending = state.pending
    return pending[0] if pending else None


def _deadline_forfeit(state: MatchState, side: Side, action: Action, version: int) -> Result:
    """Asynchronous PvP: an elapsed window ends the match, the side that missed it
    losing, whatever arrives (a voluntary forfeit of the other side included)."""
    loser = missed_by(state)
    assert loser is not None
    state, events = finish(state, loser.other, FinishReason.MISSED_DEADLINE, version)
    missed: Event = {"type": "deadline_missed", "side": str(loser)}
    if action.kind is not ActionKind.TIMEOUT or side != loser:
        replaced = action.to_dict()
        if action.kind is ActionKind.SELECT_CREATURE:
            replaced.pop("index", None)  # a selection never made stays unknown to the other
        missed["replaced_action"] = {"side": str(side), **replaced}
    return state, [missed, *events]


def _select(
    state: MatchState, side: Side, index: int, now: datetime
) -> tuple[MatchState, list[Event]]:
    own = state.side(side)
    state = state.with_side(side, own.with_choice(own.active, index))
    creature = state.side(side).creatures[index]
    events = [creature_event("creature_chosen", side, index, creature, phase=str(state.phase))]
    if state.pending:
        return state, events  # the choice stays hidden until the other side has chosen
    revealed: dict[str, object] = {}
    for chooser in state.selecting:
        own = state.side(chooser)
        assert own.choice is not None
        revealed[str(chooser)] = {
            "creature": own.choice,
            "name": own.creatures[own.choice].card.name,
        }
        state = state.with_side(chooser, own.with_choice(own.choice, None))
    events.append({"type": "creatures_revealed", "sides": revealed})
    if state.phase is Phase.INITIAL_SELECTION:
        # The chance step: who goes first, drawn from the match's own random state.
        draw, rng = state.random.draw(len(SIDES))
        first = SIDES[draw]
        state = state.replace(random=rng, turn_number=1)
        events.append({"type": "first_turn_chosen", "side": str(first)})
    else:
        assert state.turn is not None
        first = state.turn
    state, started = start_turn(state, first, now)
    return state, events + started


def _use_move(state: MatchState, side: Side, index: int, now: datetime, version: int) -> Result:
    step = Step(state, side)
    me = step.me
    move = me.card.moves[index]
    cost = move.power_cost
    me.power -= cost
    if move.conditions and move.once_per_match:
        me.used_moves = tuple(sorted({*me.used_moves, index}))
    step.events.append(
        {
            "type": "move_used",
            "side": me.side,
            "creature": me.index,
            "name": me.name,
            "move": index,
            "move_name": move.name,
            "move_type": move.type,
            "cost": cost,
            "power": me.power,
        }
    )
    resolve(step, move.effects, move.type)
    return after_action(step, now, version)


def _play_power_card(
    state: MatchState, side: Side, index: int, now: datetime, version: int
) -> Result:
    step = Step(state, side)
    own = state.player if side is _PLAYER else state.cpu
    card = own.power_cards[index]
    step.side_changes[side]["discarded"] = tuple(sorted({*own.discarded, index}))
    step.events.append(
        {"type": "power_card_played", "side": step.me.side, "card": index, "name": card.name}
    )
    resolve(step, card.effects, None)  # Power cards are neutral
    return after_action(step, now, version)


def _timeout(
    state: MatchState, side: Side, now: datetime, version: int, replaced: Action | None = None
) -> Result:
    event: Event = {
        "type": "timeout",
        "side": str(side),
        "reason": "deadline" if overdue(state, now) else "passed",
    }
    if replaced is not None and replaced.kind is not ActionKind.TIMEOUT:
        event["replaced_action"] = replaced.to_dict()
    step = Step(state, side)
    step.events.append(event)
    return end_turn(step, now, version)


def _dispatch(state: MatchState, side: Side, action: Action, now: datetime, version: int) -> Result:
    kind, index = action.kind, action.index
    # ``is`` against module-level members: the common kinds first.
    if kind is _USE_MOVE:
        assert index is not None  # the Action type guarantees an index for the indexed kinds
        return _use_move(state, side, index, now, version)
    if kind is _TIMEOUT:
        return _timeout(state, side, now, version)
    if kind is _PLAY_POWER_CARD:
        assert index is not None
        return _play_power_card(state, side, index, now, version)
    if kind is _FORFEIT:
        state, events = finish(state, side.other, FinishReason.FORFEIT, version)
        return state, [{"type": "forfeit", "side": str(side)}, *events]
    if kind is _DISCONNECTED:
        state, events = finish(state, side.other, FinishReason.DISCONNECTED, version)
        return state, [{"type": "disconnected", "side": str(side)}, *events]
    assert index is not None
    if kind is _SELECT_CREATURE:
        state, events = _select(state, side, index, now)
        return state.with_version(version), events
    # SWAP: the outgoing Creature's end-of-turn step, then the incoming one
    return end_turn(Step(state, side), now, version, incoming=index)


def apply(
    state: MatchState, side: Side, action: Action, now: datetime
) -> tuple[MatchState, list[Event]]:
    """Apply one action of ``side`` at ``now``; raises ``IllegalAction`` before any change.

    An action of the side to move that arrives at or after the turn deadline is
    resolved as a timeout instead. A forfeit after the deadline is applied after
    that overdue timeout (the elapsed deadline takes precedence), if the match
    is still on. Where a missed window forfeits, any action after the deadline
    ends the match instead, the side that missed it losing; in live PvP it is
    the missing side's timeout (``_live``).
    """
    zone = now.tzinfo
    # ``aware`` inline (this runs once an action): a fixed-offset ``timezone`` (what the
    # services pass) always has an offset, so only another timezone is asked for one.
    if type(zone) is not timezone and (zone is None or now.utcoffset() is None):
        aware(now)  # raises
    if side.__class__ is not Side:
        side = Side(side)  # a plain "player"/"cpu" from a caller works too
    version = state.version + 1  # of the state this action makes, whatever it does
    missed_deadline = state.missed_deadline
    if missed_deadline is not _CPU_RULE:  # against a player
        if missed_deadline is MissedDeadline.LIVE:
            return _live(state, side, action, now)
        if overdue(state, now):
            return _deadline_forfeit(state, side, action, version)
    mover = state.turn
    deadline = state.deadline  # overdue(state, now), inline: this runs once an action
    if (
        deadline is not None
        and mover is not None
        and state.phase is _NORMAL_TURN
        and now >= deadline
    ):
        if side == mover and action.kind is not ActionKind.FORFEIT:
            return _timeout(state, mover, now, version, replaced=action)
        if action.kind is ActionKind.FORFEIT:
            # The elapsed deadline first; the forfeit (if the match is still on) in the
            # same action, so one version for both.
            state, events = _timeout(state, mover, now, version)
            if state.phase is Phase.FINISHED:
                events.append({"type": "action_ignored", "side": str(side), "action": "forfeit"})
                return state, events
            check(state, side, action)
            state, more = _dispatch(state, side, action, now, version)
            return state, events + more
    return _in_time(state, side, action, now, version)


def _in_time(state: MatchState, side: Side, action: Action, now: datetime, version: int) -> Result:
    """An action with no elapsed deadline to resolve first: checked, then applied."""
    if accepted_at_once(state, side, action):  # the common case: no refusal to build
        index = action.index
        assert index is not None
        if action.kind is _USE_MOVE:
            return _use_move(state, side, index, now, version)
        return _play_power_card(state, side, index, now, version)
    check(state, side, action)
    return _dispatch(state, side, action, now, version)


def _missed_sides(state: MatchState) -> tuple[Side, ...]:
    """Who missed an elapsed window: the mover of a normal turn, else every side still to
    select."""
    if state.phase is Phase.NORMAL_TURN:
        return () if state.turn is None else (state.turn,)
    return state.pending


def _missed_selection(
    state: MatchState,
    missed: tuple[Side, ...],
    now: datetime,
    version: int,
    replaced: tuple[Side, Action] | None,
) -> Result:
    """Live PvP: each side that missed a selection's window gets its first living Creature
    in deck order (ours), as a timeout."""
    events: list[Event] = []
    for side in missed:
        event: Event = {
            "type": "timeout",
            "side": str(side),
            "reason": "deadline",
            "phase": str(state.phase),
        }
        if replaced is not None and replaced[0] is side:
            late = replaced[1].to_dict()
            late.pop("index", None)  # a selection never made stays unknown to the other
            event["replaced_action"] = late
        events.append(event)
        state, chosen = _select(state, side, live.first_living(state, side), now)
        events.extend(chosen)
    return state.with_version(version), events


def _live(state: MatchState, side: Side, action: Action, now: datetime) -> Result:
    """Live PvP (ours, docs/quest-pvp.md): a missed window is the missing side's timeout
    (a turn ends, a selection picks for it) and counts towards three in a row, which
    forfeit (live.py); the elapsed window goes before whatever arrives, a voluntary
    forfeit (or the sweeper's end for a disconnected side) included. A decision in time
    clears the side's count."""
    version = state.version + 1
    kind = action.kind
    if not overdue(state, now):
        after, events = _in_time(state, side, action, now, version)
        if kind in _RESIGNATIONS or after.phase is Phase.FINISHED:
            return after, events
        return live.cleared(after, side), events
    missed = _missed_sides(state)
    if side not in missed and kind not in _RESIGNATIONS:
        check(state, side, action)  # the other side's action: refused, as in time
    late = None if kind in _RESIGNATIONS or kind is _TIMEOUT or side not in missed else action
    if state.phase is _NORMAL_TURN:
        after, events = _timeout(state, missed[0], now, version, replaced=late)
    else:
        after, events = _missed_selection(
            state, missed, now, version, None if late is None else (side, late)
        )
    after, more = live.counted(after, missed, version)
    events.extend(more)
    if kind in _RESIGNATIONS:
        if after.phase is Phase.FINISHED:
            events.append({"type": "action_ignored", "side": str(side), "action": str(kind)})
        else:
            check(after, side, action)
            after, more = _dispatch(after, side, action, now, version)
            events.extend(more)
    return after, events


def expire(state: MatchState, now: datetime) -> tuple[MatchState, list[Event]]:
    """For a sweeper: resolve the timeout of an overdue turn; otherwise nothing changes.

    Exactly ``apply(state, state.turn, Action.timeout(), now)``, which is what the
    action log should record when it fires.
    """
    side = missed_by(state)
    if not overdue(state, aware(now)) or side is None:
        return state, []
    return apply(state, side, Action.timeout(), now)


def replay(initial: MatchState, log: Iterable[LogEntry]) -> MatchState:
    """Apply the logged (side, action, now) entries again; the result equals live play."""
    state = initial
    for side, action, now in log:
        state, _ = apply(state, side, action, now)
    return state
