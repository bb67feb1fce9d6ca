"""Seeded simulations of whole matches, for balancing the card data (docs/chronovore.md).

A class deck for a simulation is drawn from the card list: 18 copies of the class's
cards and 12 Neutral copies, at random within the copy limits and the one Mythic.
Seat policies: ``random`` (uniform over the legal actions, games/kit/policies.py),
``greedy`` (the kit's one-ply greedy on ``greedy_score``) and ``cpu`` (the computer's
seat). A seat that keeps arranging is locked by the clock, as the 2-minute deadline
would (``MAX_STEPS`` actions a round). Everything is a function of its seed.

A new player's deck (``starter_deck``) is drawn instead from what their starting packs
gave (``starting_collection``). ``RowCounter`` counts the rows a seat locks with fewer
cards than it could safely play (docs/balance/chronovore.md), ``new_player_band`` plays
a policy with new players' decks of each class against the CPU's deck.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from games.chronovore.actions import Action, ActionKind
from games.chronovore.cards import Card, card_from_definition
from games.chronovore.collection import STARTING_PACKS
from games.chronovore.content import (
    COPY_LIMIT,
    DECK_SIZE,
    HERO_CLASSES,
    MAX_MYTHIC_CARDS,
    CardClass,
    Rarity,
)
from games.chronovore.cpu import cpu_action as _cpu
from games.chronovore.cpu import most_safe, row_value, worth
from games.chronovore.engine import apply, expire, new_match
from games.chronovore.game import CHRONOVORE
from games.chronovore.state import Hero, Interference, MatchState, Result, Settings
from games.kit.chance import RandomState
from games.kit.frozen import plain
from games.kit.policies import Policy, greedy_policy, random_policy
from games.kit.protocol import Engine, Seat

CLASS_CARDS = 18  # of 30: the rest Neutral
# A Core Set pack as services/cards/economy_data/chronovore_packs.json has it (a unit test
# holds the two equal): 5 cards, each a rarity by these weights, and if all 5 are Common
# one of them becomes Uncommon. The Golden pack draws rarities alike (finishes are
# cosmetic), so a new account's 31 packs are 31 such draws.
PACK_CARDS = 5
PACK_RARITY_WEIGHTS: tuple[tuple[Rarity, int], ...] = (
    (Rarity.COMMON, 96),
    (Rarity.UNCOMMON, 32),
    (Rarity.RARE, 12),
    (Rarity.EPIC, 3),
    (Rarity.MYTHIC, 1),
)
PACK_FLOOR = Rarity.UNCOMMON
CLASSES = tuple(card_class.value for card_class in HERO_CLASSES)
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


def _weighted(rng: RandomState) -> tuple[Rarity, RandomState]:
    index, rng = rng.draw(sum(weight for _, weight in PACK_RARITY_WEIGHTS))
    for rarity, weight in PACK_RARITY_WEIGHTS:
        if index < weight:
            return rarity, rng
        index -= weight
    raise AssertionError("a draw below the weights' sum")


def starting_collection(cards: Sequence[Card], rng: RandomState) -> tuple[list[Card], RandomState]:
    """The cards a new account's starting packs give (rulebook: 30 Core Set packs and 1
    Golden): each pack 5 rarities by the pack's weights with its floor, then a card of
    each rarity drawn uniformly from ``cards``, as cards' pack opening does."""
    by_rarity = {rarity: [c for c in cards if c.rarity is rarity] for rarity in Rarity}
    owned: list[Card] = []
    for _ in range(sum(quantity for _, quantity in STARTING_PACKS)):
        rarities = []
        for _ in range(PACK_CARDS):
            rarity, rng = _weighted(rng)
            rarities.append(rarity)
        if all(r is Rarity.COMMON for r in rarities):
            lifted, rng = rng.draw(PACK_CARDS)
            rarities[lifted] = PACK_FLOOR
        for rarity in rarities:
            card, rng = rng.choose(by_rarity[rarity])
            owned.append(card)
    return owned, rng


def starter_deck(
    owned: Sequence[Card], card_class: str, rng: RandomState
) -> tuple[list[Card], RandomState]:
    """A legal deck of ``card_class`` from a new player's cards, as ``class_deck`` draws
    one: 18 of the class's copies and Neutral ones for the rest, at random within the
    copy limits and the one Mythic; more Neutral copies (then class ones) when the
    player owns too few of one kind."""
    deck: list[Card] = []
    taken: dict[str, int] = {}
    mythics = 0
    neutral = CardClass.NEUTRAL.value
    left = list(owned)  # each owned copy goes into the deck at most once
    for group, wanted in ((card_class, CLASS_CARDS), (neutral, DECK_SIZE), (card_class, DECK_SIZE)):
        copies = [c for c in left if c.card_class.value == group]
        goal = min(DECK_SIZE, len(deck) + wanted)
        while len(deck) < goal and copies:
            index, rng = rng.draw(len(copies))
            card = copies.pop(index)
            left.remove(card)
            if taken.get(card.name, 0) >= COPY_LIMIT[card.rarity]:
                continue
            if card.rarity is Rarity.MYTHIC:
                if mythics >= MAX_MYTHIC_CARDS:
                    continue
                mythics += 1
            taken[card.name] = taken.get(card.name, 0) + 1
            deck.append(card)
    if len(deck) < DECK_SIZE:
        raise ValueError(f"the starting packs gave too few {card_class} and Neutral cards")
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


def cpu_policy_at(greed: float) -> Policy:
    """The computer's seat at another strength (``cpu.GREED``), for tuning it."""

    def policy(
        engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
    ) -> Any:
        return _cpu(state, seat, greed)

    return policy


POLICIES: Mapping[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy(greedy_score),
    "cpu": cpu_policy,
}


def safely_playable(
    hero: Hero, cards: Sequence[Card], waiting: Interference, settings: Settings
) -> int:
    """The most of ``cards`` one row could hold, in some order, each safe to play where it
    stands (``cpu.most_safe``): what "could safely play" means in the rate of
    under-filled rows (docs/balance/chronovore.md)."""
    return most_safe(hero, cards, waiting, settings.slots, settings)


class RowCounter:
    """The rows the watched seats locked in (``watching``): how many, how many held fewer
    cards than the seat could safely play (``safely_playable`` from its hand and row when
    it locked), how many were empty while it could safely play a card, and the cards
    placed and safely playable."""

    def __init__(self) -> None:
        self.rows = self.under = self.empty = self.placed = self.playable = 0

    def see(self, state: MatchState, seat: Seat, action: Action) -> None:
        """Count the row ``seat`` locks with ``action`` (any other action: nothing)."""
        if action.kind is not ActionKind.LOCK:
            return
        side = state.side(seat)
        row = [item.card for item in side.slots if item is not None]
        cards = [*(item.card for item in side.hand), *row]
        could = safely_playable(side.hero, cards, side.interference, state.settings)
        self.rows += 1
        self.under += len(row) < could
        self.empty += not row and could > 0
        self.placed += len(row)
        self.playable += could

    def watching(self, watched: Seat) -> Callable[[MatchState, Seat, Action], None]:
        """A ``play`` watch that counts the rows of seat ``watched`` only."""

        def watch(state: MatchState, seat: Seat, action: Action) -> None:
            if seat == watched:
                self.see(state, seat, action)

        return watch

    @property
    def under_share(self) -> float:
        return self.under / self.rows if self.rows else 0.0

    @property
    def empty_share(self) -> float:
        return self.empty / self.rows if self.rows else 0.0


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


Watch = Callable[[MatchState, Seat, Action], None]  # sees each action a policy takes


def play(
    decks: tuple[Sequence[Card], Sequence[Card]],
    policies: tuple[Policy, Policy],
    seed: int,
    settings: Settings | None = None,
    watch: Watch | None = None,
) -> Played:
    """One whole match between two seats; the clock moves only when a seat overstays.
    ``watch`` sees each action a seat's policy takes, before it is applied."""
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
            if watch is not None:
                watch(state, seat, action)
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


def new_player_band(
    cards: Sequence[Card],
    cpu_deck: Sequence[Card],
    player: Policy,
    matches: int,
    seed: int,
    cpu: Policy = cpu_policy,
    classes: Sequence[str] = CLASSES,
) -> tuple[dict[str, Tally], RowCounter]:
    """``matches`` matches a class of a new player, each with a new account's starting
    packs opened and a ``starter_deck`` of that class drawn from them, played by
    ``player`` against ``cpu`` with ``cpu_deck`` (the player takes the first seat in
    even matches, the second in odd ones): the player's tally by class, and the CPU's
    rows."""
    tallies: dict[str, Tally] = {}
    rows = RowCounter()
    for card_class in classes:
        wins = losses = draws = 0
        for n in range(matches):
            rng = RandomState(seed=seed, stream=f"new player:{card_class}:{n}")
            owned, rng = starting_collection(cards, rng)
            deck, rng = starter_deck(owned, card_class, rng)
            first = n % 2 == 0
            decks = (deck, cpu_deck) if first else (cpu_deck, deck)
            chosen = (player, cpu) if first else (cpu, player)
            watch = rows.watching(SEATS[1] if first else SEATS[0])
            played = play(decks, chosen, seed * 1_000_003 + n, watch=watch)
            result = played.results[0 if first else 1]
            wins += result == Result.WIN.value
            losses += result in (Result.LOSS.value, Result.LEFT.value)
            draws += result == Result.DRAW.value
        tallies[card_class] = Tally(wins, losses, draws)
    return tallies, rows


def start_time(offset_seconds: int = 0) -> datetime:
    return START + timedelta(seconds=offset_seconds)
