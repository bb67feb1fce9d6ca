"""Chronovore's pure engine alone: whole CPU-against-CPU matches per second (issue 18).

    python bench/chronovore_engine.py [--matches 2000] [--seed 1]

Plays ``--matches`` whole matches on the pure engine (``games/chronovore``), both
seats played by the computer's policy (``games.chronovore.cpu``), through the balance
simulator's match loop (``games.chronovore.balance.play``: a seat that keeps arranging
is locked by the clock, as the deadline would). Each seat brings a Core Set class deck
(``services/authoring/seed/chronovore_core_set.json``): 18 copies of its class and 12
Neutral ones, drawn as ``deckyard balance`` draws them (``balance.class_deck``). Match
``i`` pits class ``i mod 5`` against class ``(i div 5) mod 5``, so every ordered pair of
the five classes comes round; its decks come from the stream ``decks:<i>`` of the run's
seed and its engine seed is ``sha256("<--seed>:chronovore:<i>")`` (63 bits). Decks are
drawn before the timed loop.

Prints matches per second from the wall time and from this process's CPU time of the
playing loop (one core: pure Python, no threads), one match's wall time (p50, p99),
the goal (2,000 matches/s on one core, by CPU time) as met or not, and a digest of every
match's (seed, classes, results, rounds, reason): the same ``--seed`` gives the same
digest. Reports, never asserts. No database, no broker, no network.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # The engine and the Core Set come from the project's code.
    harness.reexec_in_venv()

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pure
from harness import Result, script_main
from pure import Timed

CORE_SET = "services/authoring/seed/chronovore_core_set.json"
GOAL = 2000.0  # matches/s on one core (issue 18)
UNIT = "matches/s"


@dataclass
class Simulation:
    played: Timed


def pairs(matches: int) -> list[tuple[str, str]]:
    from games.chronovore.content import HERO_CLASSES

    n = len(HERO_CLASSES)
    return [(HERO_CLASSES[i % n].value, HERO_CLASSES[(i // n) % n].value) for i in range(matches)]


def decks(args: argparse.Namespace) -> list[tuple[Any, Any]]:
    """Every match's two class decks, drawn from the run's seed."""
    from games.chronovore.balance import cards_from_entries, class_deck
    from games.kit.chance import RandomState

    cards = cards_from_entries(json.loads((args.source / CORE_SET).read_text(encoding="utf-8")))
    drawn = []
    for i, (first, second) in enumerate(pairs(args.matches)):
        rng = RandomState(seed=args.seed, stream=f"decks:{i}")
        a, rng = class_deck(cards, first, rng)
        b, rng = class_deck(cards, second, rng)
        drawn.append((a, b))
    return drawn


def run(args: argparse.Namespace) -> Simulation:
    from games.chronovore.balance import cpu_policy, play

    all_decks = decks(args)
    classes = pairs(args.matches)

    def one(i: int) -> str:
        seed = pure.game_seed(args.seed, "chronovore", i)
        p = play(all_decks[i], (cpu_policy, cpu_policy), seed)
        return f"{seed}:{'-'.join(classes[i])}:{'-'.join(p.results)}:{p.rounds}:{p.reason}"

    return Simulation(pure.timed(args.matches, one))


def report(args: argparse.Namespace, simulation: Simulation) -> None:
    setup = ["Core Set class decks, the CPU policy on both seats"]
    pure.print_report(args, setup, pure.report_lines(simulation.played, "match", UNIT, GOAL))


def chronovore_result(simulation: Simulation) -> Result:
    played = simulation.played
    # balance.play plays every match to its end (the clock locks a seat that dawdles).
    note = f"{played.games} CPU-vs-CPU matches, Core Set class decks"
    return pure.bench_result("chronovore", played, UNIT, GOAL, 0, [note])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    return pure.parsed(pure.parser_of(__doc__, "matches", 2000, "matches"), argv, "matches")


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
