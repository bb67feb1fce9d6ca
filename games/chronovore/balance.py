"""Seeded simulations of whole matches, for balancing the card data (docs/chronovore.md).

A class deck for a simulation is drawn from the card list: 18 copies of the class's
cards and 12 Neutral copies, at random within the copy limits and the one Mythic.
Seat policies: ``random`` (uniform over the legal actions, games/kit/policies.py),
``greedy`` (the kit's one-ply greedy on ``greedy_score``) and ``cpu`` (the computer's
seat). A seat that keeps arranging is locked by the clock, as the 2-minute deadline
would (``MAX_STEPS`` actions a round). Everything is a function of its seed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from games.chronovore.cards import Card, card_from_definition
from games.chronovore.content import COPY_LIMIT, MAX_MYTHIC_CARDS, CardClass, Rarity
from games.chronovore.cpu import cpu_action as _cpu
from games.chronovore.cpu import row_value, worth
from games.chronovore.engine import apply, expire, new_match
from games.chronovore.game import CHRONOVORE
from games.chronovore.state import MatchState, Result, Settings
from games.kit.chance import RandomState
from games.kit.frozen import plain
from games.kit.policies import Policy, greedy_policy, random_policy
from games.kit.protocol import Engine, Seat

CLASS_CARDS = 18  # of 30: the rest Neutral
MAX_STEPS = 40  # actions of one seat in one choosing step before the clock locks it
START = datetime(2030, 1, 1, tzinfo=UTC)
SEATS = ("a", "b")


def cards_from_entries(entries: Sequence[Mapping[str, Any]]) -> list[Card]:
    """The seed file's entries (``{"kind", "body"}``) as cards."""
    return [card_from_definition(e["kind"], e["body"]) for e in entries]


def class_deck(
    cards: Sequence[Card], card_class: str, rng: RandomState
) -> tuple[list[Card], RandomState]:
    """A random legal deck of ``card_class``: 18 class copies and 12 Neutral ones."""
    deck: list[Card] = []
    mythics = 0
    for wanted, group in ((CLASS_CARDS, card_class), (30 - CLASS_CARDS, CardClass.NEUTRAL.value)):
        copies = [c for c in cards if c.card_class == group for _ in range(COPY_LIMIT[c.rarity])]
        taken = 0
        while taken < wanted:
            index, rng = rng.draw(len(copies))
            card = copies.pop(index)
            if card.rarity is Rarity.MYTHIC:
                if mythics >= MAX_MYTHIC_CARDS:
                    continue
                mythics += 1
            deck.append(card)
            taken += 1
    return deck, rng


def greedy_score(state: MatchState, seat: Seat) -> float:
    """A state's worth to ``seat``: the match's result, else the heroes and the row."""
    if state.results is not None:
        result = state.results[state.index(seat)]
        return {Result.WIN.value: 1000.0, Result.DRAW.value: 0.0}.get(result, -1000.0)
    own, other = state.side(seat), state.sides[1 - state.index(seat)]
    locked = 0.01 if own.locked else 0.0
    return worth(own.hero) - worth(other.hero) + row_value(state, seat) + locked


def cpu_policy(
    engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
) -> Any:
    """The computer's seat as a simulation policy (its choices need no seed)."""
    return _cpu(state, seat)


POLICIES: Mapping[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy(greedy_score),
    "cpu": cpu_policy,
}


@plain
@dataclass(frozen=True)
class Played:
    results: tuple[str, str]
    rounds: int
    reason: str


def _over(state: MatchState) -> bool:
    # A function, not ``state.results is None`` in the loop's test: mypy narrows that
    # attribute to None for the loop's body, and compiled (mypyc) the body's own test of
    # it then insists on None once the match is over (a TypeError).
    return state.results is not None


def play(
    decks: tuple[Sequence[Card], Sequence[Card]],
    policies: tuple[Policy, Policy],
    seed: int,
    settings: Settings | None = None,
) -> Played:
    """One whole match between two seats; the clock moves only when a seat overstays."""
    state = new_match(dict(zip(SEATS, decks, strict=True)), seed, START, settings)
    steps = {seat: 0 for seat in SEATS}
    round_ = state.round
    now = START
    while not _over(state):
        if state.round != round_:
            round_, steps = state.round, {seat: 0 for seat in SEATS}
        for seat, policy in zip(SEATS, policies, strict=True):
            if _over(state) or state.side(seat).locked:
                continue
            steps[seat] += 1
            if steps[seat] > MAX_STEPS:
                assert state.deadline is not None
                now = state.deadline
                state, _ = expire(state, now)
                break
            action = policy(CHRONOVORE, state, seat, seed, now)
            state, _ = apply(state, seat, action, now)
    assert state.results is not None and state.finish_reason is not None
    return Played((state.results[0], state.results[1]), state.round, state.finish_reason.value)


@plain
@dataclass(frozen=True)
class Tally:
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def matches(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def win_share(self) -> float:
        """Wins plus half the draws, of all matches."""
        return (self.wins + self.draws / 2) / self.matches if self.matches else 0.0


def pairing(
    cards: Sequence[Card],
    classes: tuple[str, str],
    policies: tuple[str, str],
    matches: int,
    seed: int,
    on_match: Callable[[Played], None] | None = None,
) -> Tally:
    """``matches`` seeded matches of ``classes[0]`` against ``classes[1]``, seats swapped
    every other match so neither class keeps one seat; the tally is the first class's."""
    wins = losses = draws = 0
    for n in range(matches):
        rng = RandomState(seed=seed, stream=f"decks:{n}")
        first, rng = class_deck(cards, classes[0], rng)
        second, rng = class_deck(cards, classes[1], rng)
        swap = n % 2 == 1
        decks = (second, first) if swap else (first, second)
        chosen = (
            (POLICIES[policies[1]], POLICIES[policies[0]])
            if swap
            else tuple(POLICIES[p] for p in policies)
        )
        played = play(decks, (chosen[0], chosen[1]), seed * 1_000_003 + n)
        result = played.results[1 if swap else 0]
        wins += result == Result.WIN.value
        losses += result in (Result.LOSS.value, Result.LEFT.value)
        draws += result == Result.DRAW.value
        if on_match:
            on_match(played)
    return Tally(wins, losses, draws)


def start_time(offset_seconds: int = 0) -> datetime:
    return START + timedelta(seconds=offset_seconds)
