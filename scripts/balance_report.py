"""The balance report of one game (docs/balance/<game>.md): its runs, tables and plots.

    .venv/bin/python scripts/balance_report.py --game quest|terrakard|chronovore
        [--matches 1000] [--workers 2] [--seed 1] [--out docs/balance/<game>]

Each run is a ``deckyard balance`` setup (deckyard/balance.py) against the game's CPU
with the decks a new player has; the script prints each run's full report, then one
Markdown row a run (win rate with its 95% interval, the issue's band and whether the
rate is inside, and the player's results in the engine's words: TerraKard's stars), and
writes the plots and ``index.html`` to ``--out``.

- quest: the runs of ``scripts/quest_balance_report.py`` (starter decks against the CPU
  deck; its own page stays at docs/balance/index.html).
- terrakard: the starting collection's decks (``starter``, ``starter:any``) against the
  level-1 defenses (the training plan, the level-1 demo defenders), by the greedy,
  random and lookahead (knows the plan) policies; then what-if defenses
  (``automatic:<budget>:<posture>``), each at a quarter of ``--matches``.
- chronovore: a new player's class deck (``new:<class>``) against the CPU's training
  deck (a player's first CPU matches: the band applies), then against its standard deck
  (the matches after), greedy and random.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from deckyard import balance, balance_chronovore, balance_quest, balance_terrakard
from deckyard.balance_plots import write_report

# Issue 30's bands for a new player against the CPU, by the player's policy. A
# random-clicking Quest player is the CPU's own policy on the player's seat (random moves
# and Power cards; docs/balance.md): the kit's uniform random also swaps at random.
BANDS = {
    "quest": {"greedy": (0.55, 0.75), "cpu": (0.20, 0.50)},
    "terrakard": {"greedy": (0.55, 0.75), "random": (0.20, 0.50)},
    "chronovore": {"greedy": (0.55, 0.75), "random": (0.20, 0.50)},
}
Run = tuple[balance.Setup, int, bool]  # the setup, its matches, whether a band applies
# The automatic plan (7 of level 1's 9, Balanced) at the full budget, as it was before
# a563857, and with the Cautious posture: docs/balance/terrakard.md.
WHAT_IFS = ("automatic:9:balanced", "automatic:7:cautious")


def quest_runs(matches: int, seed: int) -> list[Run]:
    from quest_balance_report import runs  # scripts/, beside this one

    catalogue = balance_quest.load_catalogue()
    starters = [balance_quest.starter_deck(catalogue, a) for a in balance_quest.STARTER_AFFINITIES]
    found = []
    for setup, size in runs(catalogue, matches):
        banded = setup.decks["player"] in starters  # not the mirror or the collected deck
        found.append((balance.Setup(setup.decks, setup.policies, seed), size, banded))
    return found


def terrakard_runs(matches: int, seed: int) -> list[Run]:
    found = []
    defenses = [balance_terrakard.TRAINING, *balance_terrakard.demo_keys()]
    for defense in [*defenses, *WHAT_IFS]:
        size = matches if defense in defenses else max(1, matches // 4)
        for deck in (balance_terrakard.STARTER, balance_terrakard.ANY_STARTER):
            for policy in ("greedy", "random", "lookahead"):
                if defense in WHAT_IFS and policy == "lookahead":
                    continue
                setup = balance.Setup(
                    {"attacker": (deck,), "defender": (defense,)},
                    {"attacker": policy, "defender": "cpu"},
                    seed,
                    "terrakard",
                )
                found.append((setup, size, defense in defenses))
    return found


def chronovore_runs(matches: int, seed: int) -> list[Run]:
    training = balance_chronovore.cpu_names(balance_chronovore.TRAINING)
    return [
        (
            balance.Setup(
                {"player": (balance_chronovore.NEW + card_class,), "cpu": cpu},
                {"player": policy, "cpu": "cpu"},
                seed,
                "chronovore",
            ),
            matches,
            banded,
        )
        for cpu, banded in ((training, True), (balance_chronovore.cpu_names(), False))
        for card_class in balance_chronovore.CLASSES
        for policy in ("greedy", "random")
    ]


RUNS = {"quest": quest_runs, "terrakard": terrakard_runs, "chronovore": chronovore_runs}


def row(summary: balance.Summary, banded: bool) -> str:
    """One Markdown row: decks, policy, matches, the player's rate and band, results."""
    setup = summary.setup
    player, cpu = list(setup.decks)
    policy = setup.policies[player]
    band = BANDS[setup.game].get(policy) if banded else None
    rate = summary.wins[player]
    verdict = "-"
    if band is not None:
        inside = band[0] <= rate.value <= band[1]
        verdict = f"{100 * band[0]:.0f}-{100 * band[1]:.0f}% {'✓' if inside else '✗'}"
    words = summary.results.get(player, {})
    results = ", ".join(f"{w} {c}" for w, c in sorted(words.items(), key=lambda i: -i[1]))
    decks = " | ".join(balance.deck_label(setup.decks[seat], 3) for seat in (player, cpu))
    return f"| {decks} | {policy} | {summary.matches} | **{rate}** | {verdict} | {results} |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(RUNS), required=True)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, help="default: docs/balance/<game>")
    args = parser.parse_args(argv)
    summaries, bands = [], []
    for setup, size, banded in RUNS[args.game](args.matches, args.seed):
        played = balance.simulate(setup, size, args.workers, balance.progress_bar())
        summary = balance.summarise(setup, played)
        summaries.append(summary)
        bands.append(banded)
        print(balance.report_text(summary), "\n", flush=True)
    print("| player deck | CPU | policy | matches | player win rate (95% CI) | band | results |")
    print("| --- | --- | --- | ---: | ---: | --- | --- |")
    for summary, banded in zip(summaries, bands, strict=True):
        print(row(summary, banded))
    out = args.out or Path("docs/balance") / args.game
    page = write_report(summaries, out, f"{args.game.capitalize()} balance report")
    print(f"page: {page}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
