"""The Quest battle engine alone: the balance sanity report and full matches per second.

    python bench/engine.py [--matches 10000] [--seed 1]

For each starter affinity (Wit, Grit, Spark) it plays ``--matches`` whole
CPU-against-CPU matches on the pure engine (``games/quest``): the
**starter deck** of that affinity (its three starter Creatures of
``services/authoring/seed/quest_cards.json``, by name, plus Field Kit and
Reserve Focus) on the player's side against the **CPU deck** (Quillip,
Voltiki, Karrik, Field Kit, Reserve Focus: ``services.battle.domain.CPU_DECK``)
on the CPU's side. Both sides are played by the CPU policy (``cpu_action``:
uniform among legal moves and Power cards, selections when required, never a
voluntary swap; a timeout only when nothing else is legal). As on the server,
the CPU side selects first when both sides must select. Every action is
applied at a time 3 s after the previous one, so no deadline ever passes.

Match ``i`` of affinity ``A`` gets the engine seed
``sha256("<--seed>:<A>:<i>")`` (63 bits): the same ``--seed`` gives the same
matches and the same figures, whatever ``--matches`` or the order of the
affinities. The report prints the seed and a digest of every match's
(seed, winner, turns, actions), so two runs can be compared at a glance.

Prints, per affinity: matches, wins of each side, the starter deck's win rate
(with a 95% Wilson interval), the starter's win rate when it moved first and
when the CPU deck did, turns per match (mean, median, max; a "turn" is a
normal turn, ``turn_number`` at the end) and actions per match. Then the
throughput: full matches per second in this one process (one core: the engine
is pure Python, no threads), from the wall time and from this process's CPU
time of the playing loop alone (decks are built once, before it), and the
wall time of one match (p50, p99).

Judges nothing: balance is reported, not asserted. A match that has not ended
after ``MAX_TURNS`` turns is counted as unfinished (the rules never need it).
No database, no broker, no network.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # The engine and the seed catalogue come from the project's code.
    harness.reexec_in_venv()

import argparse
import hashlib
import json
import math
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from harness import (
    BenchError,
    Result,
    add_source_option,
    engines_built,
    markdown,
    percentile,
    resolve_source_option,
    script_main,
)

SEED_CATALOGUE = "services/authoring/seed/quest_cards.json"
AFFINITIES = ("Wit", "Grit", "Spark")
STARTER_POWER_CARDS = ("Field Kit", "Reserve Focus")  # rulebook: the shared starter cards
MAX_TURNS = 1000  # a guard only: the CPU deck's matches end in a few dozen turns
STEP = timedelta(seconds=3)  # between two actions: far inside the 90 s turn
T0 = datetime(2026, 12, 1, tzinfo=UTC)


# -- decks ---------------------------------------------------------------------------------


def load_catalogue(source: Path) -> dict[str, dict[str, Any]]:
    entries = json.loads((source / SEED_CATALOGUE).read_text(encoding="utf-8"))
    return {entry["body"]["name"]: entry for entry in entries}


def engine_deck(catalogue: dict[str, dict[str, Any]], names: Sequence[str]) -> Any:
    """The engine's Deck of those cards (Creatures, then Power cards, in the given order)."""
    from games.quest import Deck, creature_from_definition, power_card_from_definition

    creatures = [
        creature_from_definition(f"seed-{n}", catalogue[n]["body"])
        for n in names
        if catalogue[n]["kind"] == "creature"
    ]
    power_cards = [
        power_card_from_definition(f"seed-{n}", catalogue[n]["body"])
        for n in names
        if catalogue[n]["kind"] == "power_card"
    ]
    return Deck(tuple(creatures), tuple(power_cards))


def starter_names(catalogue: dict[str, dict[str, Any]], affinity: str) -> tuple[str, ...]:
    """The starter Creatures of ``affinity`` by name (as the grant orders them), then
    the two starter Power cards."""
    creatures = sorted(
        name
        for name, entry in catalogue.items()
        if entry["kind"] == "creature"
        and entry["body"].get("starter")
        and entry["body"].get("affinity") == affinity
        and entry["body"].get("rarity") == "Common"
        and not entry["body"].get("evolved")
    )
    if len(creatures) != 3:
        raise BenchError(f"the seed catalogue has {len(creatures)} {affinity} starters, not 3")
    return (*creatures, *STARTER_POWER_CARDS)


def cpu_names() -> tuple[str, ...]:
    from games.quest.cpu import CPU_DECK

    return (*CPU_DECK.creatures, *CPU_DECK.power_cards)


# -- playing -------------------------------------------------------------------------------


def match_seed(seed: int, affinity: str, index: int) -> int:
    digest = hashlib.sha256(f"{seed}:{affinity}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # fits the service's BIGINT


@dataclass(frozen=True)
class Played:
    seed: int
    winner: str | None  # "player" (the starter deck), "cpu" (the CPU deck); None: unfinished
    turns: int
    actions: int
    first: str | None  # who moved first


def mover(state: Any, cpu: Any = None) -> Any:
    """Who acts next: in a selection phase, the CPU side first (as on the server, where
    the CPU selects at once), then the player side; in a normal turn, the side to move.

    ``cpu``: ``Side.CPU``, passed in by the match loop (an import statement here, run
    once an action, cost about as much as the CPU policy's draw)."""
    if cpu is None:
        from games.quest import Side

        cpu = Side.CPU
    pending = state.pending
    if not pending:
        return state.turn
    return cpu if cpu in pending else pending[0]


def play(starter: Any, cpu: Any, seed: int) -> Played:
    """One whole match, both sides by the CPU policy."""
    from games.quest import Phase, Side, apply, cpu_action, new_match

    # Enum members looked up once, not once an action (an enum class's attribute is slow).
    cpu_side, finished = Side.CPU, Phase.FINISHED
    state = new_match(starter, cpu, seed, T0)
    now = T0
    actions = 0
    first = None
    while state.phase is not finished:
        if state.turn_number > MAX_TURNS:
            return Played(seed, None, state.turn_number, actions, first)
        side = mover(state, cpu_side)
        action = cpu_action(state, side)
        if action is None:  # cannot happen: the side to move always has a legal action
            raise BenchError(f"seed {seed}: {side} has nothing to do in {state.phase}")
        now += STEP
        state, events = apply(state, side, action, now)
        actions += 1
        if first is None:
            first = next((e["side"] for e in events if e["type"] == "first_turn_chosen"), None)
    winner = None if state.winner is None else str(state.winner)
    return Played(seed, winner, state.turn_number, actions, first)


@dataclass
class Tally:
    affinity: str
    deck: tuple[str, ...]
    played: list[Played] = field(default_factory=list)
    match_ms: list[float] = field(default_factory=list)  # wall time of each match
    wall_s: float = 0.0
    cpu_s: float = 0.0

    def count(self, winner: str | None, first: str | None = None) -> int:
        return sum(
            1 for p in self.played if p.winner == winner and (first is None or p.first == first)
        )

    def moved_first(self, side: str) -> int:
        return sum(1 for p in self.played if p.first == side)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion, in percent."""
    if n == 0:
        return float("nan"), float("nan")
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return 100 * (centre - half), 100 * (centre + half)


def digest(tallies: Sequence[Tally]) -> str:
    h = hashlib.sha256()
    for tally in tallies:
        for p in tally.played:
            h.update(f"{tally.affinity}:{p.seed}:{p.winner}:{p.turns}:{p.actions};".encode())
    return h.hexdigest()[:16]


def run_affinity(
    affinity: str, names: tuple[str, ...], cpu: Any, catalogue: Any, args: argparse.Namespace
) -> Tally:
    starter = engine_deck(catalogue, names)
    tally = Tally(affinity, names)
    seeds = [match_seed(args.seed, affinity, i) for i in range(args.matches)]
    wall0, cpu0 = time.perf_counter(), time.process_time()
    last = wall0
    for n, seed in enumerate(seeds, 1):
        started = time.perf_counter()
        tally.played.append(play(starter, cpu, seed))
        tally.match_ms.append((time.perf_counter() - started) * 1000)
        if args.progress and time.perf_counter() - last >= args.progress:
            last = time.perf_counter()
            print(f"    {affinity}: {n}/{len(seeds)}", flush=True)
    tally.wall_s = time.perf_counter() - wall0
    tally.cpu_s = time.process_time() - cpu0
    return tally


# -- report --------------------------------------------------------------------------------


def pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.machine()


def report(args: argparse.Namespace, simulation: Simulation) -> None:
    tallies, cpu_deck = simulation.tallies, simulation.cpu_deck
    print()
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} CPUs "
        f"({cpu_model()}), Python {platform.python_version()}, "
        "one process"
    )
    print(f"code: {args.code}; {engines_built()}")
    print(
        f"--seed {args.seed}, --matches {args.matches} per affinity; "
        f"CPU deck: {', '.join(cpu_deck)}; both sides played by the CPU policy"
    )
    print()
    rows: list[tuple[str, ...]] = []
    for t in tallies:
        n = len(t.played)
        wins, losses = t.count("player"), t.count("cpu")
        low, high = wilson(wins, n)
        first, second = t.moved_first("player"), t.moved_first("cpu")
        turns = [p.turns for p in t.played]
        actions = [p.actions for p in t.played]
        rows.append(
            (
                t.affinity,
                ", ".join(t.deck[:3]),
                str(n),
                str(wins),
                str(losses),
                f"{100 * wins / n:.2f}% ({low:.2f}-{high:.2f})",
                pct(t.count("player", "player"), first),
                pct(t.count("player", "cpu"), second),
                f"{statistics.fmean(turns):.1f} / {statistics.median(turns):g} / {max(turns)}",
                f"{statistics.fmean(actions):.1f}",
                str(n - wins - losses),
            )
        )
    header = (
        "starter deck", "Creatures", "matches", "starter wins", "CPU deck wins",
        "starter win rate (95% CI)", "... moving first", "... moving second",
        "turns mean / median / max", "actions", "unfinished",
    )  # fmt: skip
    print(markdown(header, rows))
    print()
    print(f"results digest (seed, winner, turns, actions of every match): {digest(tallies)}")
    print()
    speeds: list[tuple[str, ...]] = []
    for t in tallies:
        n = len(t.played)
        steps = sum(p.actions for p in t.played)
        speeds.append(
            (
                t.affinity,
                str(n),
                f"{t.wall_s:.1f}",
                f"{n / t.wall_s:.0f}",
                f"{n / t.cpu_s:.0f}",
                f"{1000 * t.cpu_s / n:.2f}",
                f"{1e6 * t.cpu_s / steps:.0f}",
            )
        )
    n = sum(len(t.played) for t in tallies)
    wall = sum(t.wall_s for t in tallies)
    cpu = sum(t.cpu_s for t in tallies)
    steps = sum(p.actions for t in tallies for p in t.played)
    speeds.append(
        (
            "all",
            str(n),
            f"{wall:.1f}",
            f"{n / wall:.0f}",
            f"{n / cpu:.0f}",
            f"{1000 * cpu / n:.2f}",
            f"{1e6 * cpu / steps:.0f}",
        )
    )
    speed_header = (
        "throughput", "matches", "wall s", "matches/s (wall)", "matches/s (CPU)",
        "CPU ms/match", "CPU µs/action",
    )  # fmt: skip
    print(markdown(speed_header, speeds))
    times = [ms for t in tallies for ms in t.match_ms]
    print(
        f"one match, wall time: p50 {percentile(times, 50):.2f} ms, "
        f"p99 {percentile(times, 99):.2f} ms, max {max(times):.2f} ms"
    )


# -- running -------------------------------------------------------------------------------


@dataclass
class Simulation:
    tallies: list[Tally]
    cpu_deck: tuple[str, ...]


def run(args: argparse.Namespace) -> Simulation:
    """Every affinity's ``--matches`` matches against the CPU deck."""
    catalogue = load_catalogue(args.source)
    cpu_deck = cpu_names()
    cpu = engine_deck(catalogue, cpu_deck)
    tallies = []
    for affinity in args.affinities:
        names = starter_names(catalogue, affinity)
        print(f"  {affinity}: {args.matches} matches ({', '.join(names)})", flush=True)
        tallies.append(run_affinity(affinity, names, cpu, catalogue, args))
    return Simulation(tallies, cpu_deck)


def engine_result(simulation: Simulation) -> Result:
    """Whole matches a second (wall) over all affinities, and one match's wall time."""
    tallies = simulation.tallies
    matches = sum(len(t.played) for t in tallies)
    wall = sum(t.wall_s for t in tallies)
    cpu = sum(t.cpu_s for t in tallies)
    times = [ms for t in tallies for ms in t.match_ms]
    unfinished = sum(t.count(None) for t in tallies)
    return Result(
        scenario="engine",
        requests=matches,
        duration_s=round(wall, 2),
        rps=round(matches / wall, 1) if wall else 0.0,
        p50_ms=round(percentile(times, 50), 2),
        p99_ms=round(percentile(times, 99), 2),
        non2xx=0,
        socket_errors=0,
        cpu_percent={"engine": round(cpu / wall * 100, 1) if wall else 0.0},
        topology="one process, one thread",
        unit="matches/s",
        failures=unfinished,
        notes=[
            f"{matches} CPU-vs-CPU matches ({', '.join(t.affinity for t in tallies)} "
            f"starter decks), {matches / cpu:.0f} matches/s by CPU time; unfinished "
            f"{unfinished}; results digest {digest(tallies)}; {engines_built()}"
        ],
    )


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000, help="matches per affinity")
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (reproducible)")
    parser.add_argument(
        "--affinity",
        action="append",
        choices=AFFINITIES,
        help="a starter affinity to play (repeatable; default: all three)",
    )
    parser.add_argument(
        "--progress", type=float, default=10.0, help="seconds between progress lines (0: none)"
    )
    add_source_option(parser)
    args = parser.parse_args(argv)
    if not (1 <= args.matches <= 10_000_000):
        parser.error("--matches must be in 1..10000000")
    if args.progress < 0:
        parser.error("--progress must be 0 or more")
    resolve_source_option(parser, args)
    args.affinities = tuple(a for a in AFFINITIES if a in (args.affinity or AFFINITIES))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
