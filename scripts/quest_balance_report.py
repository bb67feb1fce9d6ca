"""The Quest balance report of docs/balance.md: every run it shows, at its size and seed.

    .venv/bin/python scripts/quest_balance_report.py [--matches 1000] [--workers 2]
        [--out docs/balance]

Each starter deck (Wit, Grit, Spark) against the CPU deck and policy, played by the
greedy, the CPU's own random, the kit's uniform random and the lookahead policy; the CPU
deck against itself (the first-player advantage in a mirror); and a collected deck of
Rares and Epics (cost 10) played greedily. Prints each run's table; writes the plots and
the HTML page to ``--out``; and one summary line a run, for the docs.
"""

from __future__ import annotations

import argparse
import sys

from deckyard import balance, balance_quest
from deckyard.balance_plots import write_report

# A legal deck of cost 10 a collector could build (Epic 3 + Rare 2 + Rare 2, Rare 2 +
# Common 1): ours, to check that collecting pays.
COLLECTED = ("Stormvane", "Riddlynx", "Glyphound", "Smoke Pellet", "Field Kit")


def runs(catalogue: balance.Catalogue, matches: int) -> list[tuple[balance.Setup, int]]:
    cpu = balance_quest.CPU_NAMES
    found = []
    for affinity in balance_quest.STARTER_AFFINITIES:
        starter = balance_quest.starter_deck(catalogue, affinity)
        for policy, size in (("greedy", matches), ("cpu", matches), ("random", matches)):
            found.append(
                (
                    balance.Setup(
                        {"player": starter, "cpu": cpu}, {"player": policy, "cpu": "cpu"}, 1
                    ),
                    size,
                )
            )
        found.append(
            (
                balance.Setup(
                    {"player": starter, "cpu": cpu}, {"player": "lookahead", "cpu": "cpu"}, 1
                ),
                max(1, matches // 4),
            )
        )
    found.append(
        (
            balance.Setup({"player": cpu, "cpu": cpu}, {"player": "cpu", "cpu": "cpu"}, 1),
            4 * matches,
        )
    )
    found.append(
        (
            balance.Setup({"player": COLLECTED, "cpu": cpu}, {"player": "greedy", "cpu": "cpu"}, 1),
            matches,
        )
    )
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", default="docs/balance")
    args = parser.parse_args(argv)
    catalogue = balance_quest.load_catalogue()
    summaries = []
    for setup, size in runs(catalogue, args.matches):
        played = balance.simulate(setup, size, args.workers, balance.progress_bar())
        summary = balance.summarise(setup, played)
        summaries.append(summary)
        print(balance.report_text(summary), "\n", flush=True)
    for s in summaries:
        player = s.setup.decks["player"]
        print(
            f"| {', '.join(player[:3])} | {s.setup.policies['player']} | {s.matches} | "
            f"{s.wins['player']} | {s.first_wins} | {balance.length_line(s.actions)} |"
        )
    page = write_report(summaries, __import__("pathlib").Path(args.out), "Quest balance report")
    print(f"page: {page}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
