"""The Chronovore CPU against new players, class by class (docs/balance/chronovore.md).

For each class: seeded matches of a new player's deck (a new account's starting packs
opened, a deck of that class drawn from them) played by the kit's one-ply greedy policy
and by the random one, against the CPU with the configured CPU deck. Prints the player's
win share per class (wins plus half the draws) and how often the CPU locked a row with
fewer cards than it could safely play (and an empty one while it could play a card).
With ``--greed`` several strengths of the CPU side by side (``cpu.GREED``).
Run: ``.venv/bin/python scripts/chronovore_cpu_report.py [--matches 100] [--greed 0 1]``.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from games.chronovore.balance import (
    POLICIES,
    RowCounter,
    cards_from_entries,
    cpu_policy_at,
    new_player_band,
)
from games.chronovore.cards import Card
from games.chronovore.cpu import GREED

ROOT = Path(__file__).parents[1]
CORE_SET = ROOT / "services/authoring/seed/chronovore_core_set.json"
CPU_DECKS = ROOT / "services/battle/games/chronovore_cpu_decks.json"
BANDS = {"greedy": (0.55, 0.75), "random": (0.20, 0.50)}  # issue 30: a new player's wins


def cpu_deck(cards: list[Card], difficulty: str = "standard") -> list[Card]:
    """The configured CPU deck, each lineage by its founding name in the Core Set file."""
    by_name = {card.name: card for card in cards}
    counts = json.loads(CPU_DECKS.read_text(encoding="utf-8"))[difficulty]["cards"]
    return [by_name[name] for name, count in counts.items() for _ in range(count)]


def rows_line(rows: RowCounter) -> str:
    filled = rows.placed / rows.playable if rows.playable else 1.0
    return (
        f"CPU rows {rows.rows}: under-filled {rows.under_share:.1%}, empty with a safe card "
        f"{rows.empty_share:.1%}, cards placed / safely playable {filled:.1%}"
    )


def main(matches: int, seed: int, greeds: list[float]) -> None:
    cards = cards_from_entries(json.loads(CORE_SET.read_text(encoding="utf-8")))
    deck = cpu_deck(cards)
    started = time.perf_counter()
    for greed in greeds:
        for name, (low, high) in BANDS.items():
            tallies, rows = new_player_band(
                cards, deck, POLICIES[name], matches, seed, cpu=cpu_policy_at(greed)
            )
            shares = {c: t.win_share for c, t in tallies.items()}
            outside = [c for c, share in shares.items() if not low <= share <= high]
            print(f"greed {greed}, {name} player ({matches} matches a class):")
            print("  " + ", ".join(f"{c} {share:.3f}" for c, share in shares.items()))
            print(f"  band {low:.2f}-{high:.2f}, outside: {', '.join(outside) or 'none'}")
            print("  " + rows_line(rows), flush=True)
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--greed", type=float, nargs="*", default=[GREED])
    args = parser.parse_args()
    main(args.matches, args.seed, args.greed)
