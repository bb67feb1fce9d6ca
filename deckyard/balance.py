"""``deckyard balance``: many seeded matches of given decks and seat policies (issue 20).

A skeleton of the simulator: Quest only for now (the one engine), over the engine
protocol (``games.kit.protocol``) and the kit's policies (``games.kit.policies``:
random, greedy one-ply). Match ``i`` gets the engine seed and the policies' seed from
``sha256("<seed>:<i>")``, so a run is reproducible from ``--seed`` whatever
``--workers``; matches run in parallel across processes, in chunks, and are put back
in order. The report: each seat's wins with their rate and a 95% Wilson interval,
match length (actions and turns), and the first mover's win rate (the seat that
acted first on the clock). Left for later: more games, a lookahead or Monte Carlo
policy, each card's play rate and win rate when played.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import statistics
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from games.kit.policies import Policy, greedy_policy, random_policy
from games.kit.protocol import Seat
from games.quest import QUEST, Deck, creature_from_definition, power_card_from_definition
from games.quest.cpu import CPU_DECK
from games.quest.engine import Settings
from games.quest.state import MatchState, Side

CATALOGUE = Path(__file__).parents[1] / "services/authoring/seed/quest_cards.json"
SEATS: tuple[Seat, ...] = ("player", "cpu")
T0 = datetime(2026, 12, 1, tzinfo=UTC)
STEP = timedelta(seconds=3)  # between two actions: far inside any turn's deadline
MAX_ACTIONS = 5000  # a guard: a match still on after this many actions is unfinished
WIN = "victory"  # the engine's word for a won match


def quest_score(state: MatchState, seat: Seat) -> float:
    """A Quest state's worth to ``seat``: a win, else the share of HP each side keeps."""
    side = Side(seat)
    if state.winner is not None:
        return math.inf if state.winner == side else -math.inf

    def share(s: Side) -> float:
        creatures = state.side(s).creatures
        return sum(c.hp for c in creatures) / sum(c.card.max_hp for c in creatures)

    return share(side) - share(side.other)


POLICIES: dict[str, Policy] = {
    "random": random_policy,
    "greedy": greedy_policy(quest_score),
}


def load_catalogue(path: Path = CATALOGUE) -> dict[str, dict[str, Any]]:
    entries = json.loads(path.read_text(encoding="utf-8"))
    return {entry["body"]["name"]: entry for entry in entries}


def deck(catalogue: dict[str, dict[str, Any]], names: Sequence[str]) -> Deck:
    """The engine's deck of those seed cards, by name (Creatures, then Power cards)."""
    unknown = [n for n in names if n not in catalogue]
    if unknown:
        raise ValueError(f"not in the seed catalogue: {', '.join(unknown)}")
    creatures = tuple(
        creature_from_definition(f"seed-{n}", catalogue[n]["body"])
        for n in names
        if catalogue[n]["kind"] == "creature"
    )
    cards = tuple(
        power_card_from_definition(f"seed-{n}", catalogue[n]["body"])
        for n in names
        if catalogue[n]["kind"] == "power_card"
    )
    return Deck(creatures, cards)


def match_seed(seed: int, index: int) -> int:
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Setup:
    decks: dict[Seat, tuple[str, ...]]
    policies: dict[Seat, str]
    seed: int


@dataclass(frozen=True)
class Played:
    index: int
    winner: Seat | None  # None: unfinished
    first: Seat | None  # the first seat to act on the clock
    actions: int
    turns: int


def play(setup: Setup, index: int, catalogue: dict[str, dict[str, Any]]) -> Played:
    """One whole match: each seat by its policy, the seats waited for in order."""
    seed = match_seed(setup.seed, index)
    seats = {seat: deck(catalogue, names) for seat, names in setup.decks.items()}
    state = QUEST.new_match(Settings(), seats, seed, T0)
    now, first = T0, None
    while QUEST.results(state) is None and QUEST.version(state) < MAX_ACTIONS:
        seat = QUEST.waiting_for(state)[0]
        if first is None and QUEST.deadline(state) is not None:
            first = seat
        now += STEP
        action = POLICIES[setup.policies[seat]](QUEST, state, seat, seed, now)
        state, _ = QUEST.apply(state, seat, action, now)
    results = QUEST.results(state) or {}
    winner = next((seat for seat, word in results.items() if word == WIN), None)
    return Played(index, winner, first, QUEST.version(state), state.turn_number)


def _chunk(setup: Setup, indexes: Sequence[int]) -> list[Played]:
    catalogue = load_catalogue()
    return [play(setup, i, catalogue) for i in indexes]


def simulate(setup: Setup, matches: int, workers: int = 1) -> list[Played]:
    """``matches`` matches, in order of their index; the same whatever ``workers``."""
    indexes = list(range(matches))
    if workers <= 1:
        return _chunk(setup, indexes)
    size = max(1, math.ceil(matches / (workers * 4)))
    chunks = [indexes[i : i + size] for i in range(0, matches, size)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        done = pool.map(_chunk, [setup] * len(chunks), chunks)
        return sorted((p for chunk in done for p in chunk), key=lambda p: p.index)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion (0..1)."""
    if n == 0:
        return math.nan, math.nan
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(wins: int, n: int) -> str:
    if n == 0:
        return "-"
    low, high = wilson(wins, n)
    return f"{100 * wins / n:.1f}% ({100 * low:.1f}-{100 * high:.1f})"


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]
    lines = [
        " | ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def report(setup: Setup, played: Sequence[Played]) -> str:
    n = len(played)
    rows = []
    for seat in SEATS:
        wins = sum(1 for p in played if p.winner == seat)
        firsts = [p for p in played if p.first == seat]
        rows.append(
            (
                seat,
                setup.policies[seat],
                ", ".join(setup.decks[seat]),
                str(wins),
                rate(wins, n),
                rate(sum(1 for p in firsts if p.winner == seat), len(firsts)),
            )
        )
    header = ("seat", "policy", "deck", "wins", "win rate (95% CI)", "win rate moving first")
    actions = [p.actions for p in played] or [0]
    turns = [p.turns for p in played] or [0]
    first_wins = sum(1 for p in played if p.first is not None and p.winner == p.first)
    moved = sum(1 for p in played if p.first is not None)
    unfinished = sum(1 for p in played if p.winner is None)
    return "\n".join(
        [
            f"{n} matches, --seed {setup.seed}",
            table(header, rows),
            "",
            f"match length: actions mean {statistics.fmean(actions):.1f}, median "
            f"{statistics.median(actions):g}, max {max(actions)}; turns mean "
            f"{statistics.fmean(turns):.1f}, median {statistics.median(turns):g}, "
            f"max {max(turns)}",
            f"first-player advantage: the first mover won {rate(first_wins, moved)}",
            f"unfinished: {unfinished}",
        ]
    )


def add_arguments(parser: argparse.ArgumentParser) -> None:
    cpu_deck = ",".join((*CPU_DECK.creatures, *CPU_DECK.power_cards))
    parser.add_argument("--game", choices=["quest"], default="quest")
    for seat in SEATS:
        parser.add_argument(
            f"--{seat}-deck",
            default=cpu_deck,
            help=f"the {seat} seat's seed cards by name, comma-separated "
            "(3 Creatures, 2 Power cards; default: the CPU deck)",
        )
        parser.add_argument(f"--{seat}-policy", choices=sorted(POLICIES), default="random")
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (reproducible)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")


def run(args: argparse.Namespace) -> int:
    if args.matches < 1 or args.workers < 1:
        raise SystemExit("deckyard balance: --matches and --workers must be at least 1")
    decks = {
        seat: tuple(n.strip() for n in getattr(args, f"{seat}_deck").split(",") if n.strip())
        for seat in SEATS
    }
    catalogue = load_catalogue()
    for names in decks.values():
        deck(catalogue, names)  # refuse unknown cards before any process starts
    policies = {seat: getattr(args, f"{seat}_policy") for seat in SEATS}
    setup = Setup(decks, policies, args.seed)
    print(report(setup, simulate(setup, args.matches, args.workers)))
    return 0
