"""Class against class over seeded whole matches of the Core Set (docs/chronovore.md).

For each pair of classes: random vs random, and the CPU against the one-ply greedy
policy with each class taking each policy half of the time. Prints the first class's
win share (wins plus half the draws) and the largest one of any pairing.
Run: ``.venv/bin/python scripts/chronovore_balance.py [random matches] [cpu-greedy matches]``.
"""

from __future__ import annotations

import itertools
import json
import sys
import time
from pathlib import Path

from games.chronovore.balance import Tally, cards_from_entries, pairing
from games.chronovore.content import HERO_CLASSES

CORE_SET = Path(__file__).parents[1] / "services/authoring/seed/chronovore_core_set.json"


def main(random_matches: int, cpu_matches: int, seed: int = 18) -> None:
    cards = cards_from_entries(json.loads(CORE_SET.read_text(encoding="utf-8")))
    classes = [c.value for c in HERO_CLASSES]
    worst = {"random": 0.0, "cpu-greedy": 0.0}
    started = time.perf_counter()
    matches = 0
    print(f"{'pairing':<22}{'random':>10}{'cpu-greedy':>12}")
    for a, b in itertools.combinations(classes, 2):
        rnd = pairing(cards, (a, b), ("random", "random"), random_matches, seed)
        one = pairing(cards, (a, b), ("cpu", "greedy"), cpu_matches, seed)
        two = pairing(cards, (a, b), ("greedy", "cpu"), cpu_matches, seed + 1)
        mixed = Tally(one.wins + two.wins, one.losses + two.losses, one.draws + two.draws)
        matches += rnd.matches + mixed.matches
        for name, tally in (("random", rnd), ("cpu-greedy", mixed)):
            worst[name] = max(worst[name], tally.win_share, 1 - tally.win_share)
        print(f"{a + ' v ' + b:<22}{rnd.win_share:>10.3f}{mixed.win_share:>12.3f}", flush=True)
    elapsed = time.perf_counter() - started
    print(f"largest share: random {worst['random']:.3f}, cpu-greedy {worst['cpu-greedy']:.3f}")
    print(f"{matches} matches in {elapsed:.0f} s")


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:]]
    main(*(args or [200, 40]))
