"""TerraKard's pure engine alone: whole attacks per second (issue 17).

    python bench/terrakard_engine.py [--attacks 20000] [--seed 1] [--level 10]

Plays ``--attacks`` whole attacks on the pure engine (``games/terrakard``, through its
engine protocol ``TERRAKARD``). The cards are those of the card pipeline's sample
(``services/authoring/seed/terrakard_articles.sample.jsonl``: each article's card by the
formula, with its knowledge question). The attacker brings eight of them drawn at
random from the run's seed until they make a legal deck at ``--level`` (its attack
budget), questions on; the defense is the automatic plan of all of them at that level
(``games.terrakard.automatic``).
Built once, before the timed loop.

The attacker's seat is a seeded random policy: uniform over the legal actions, giving
up left out (as the kit's policies leave out forfeiting), its draws on the stream
``attacker:<version>`` of the attack's seed. A question is answered by a choice at
random, which the bench marks with the question's answer key as the server would
(``actions.marked``); skipping is one of the legal choices too. Attack ``i``'s engine
seed (its terrain) is ``sha256("<--seed>:terrakard:<i>")`` (63 bits). Every action is
applied 3 s after the previous one, so no deadline passes.

Prints attacks per second from the wall time and from this process's CPU time of the
playing loop (one core), one attack's wall time (p50, p99), the goal (20,000 attacks/s
on one core, by CPU time) as met or not, and a digest of every attack's (seed, terrain,
results, rounds, actions): the same ``--seed`` gives the same digest. Reports, never
asserts. No database, no broker, no network.
"""

from __future__ import annotations

import harness

if __name__ == "__main__":
    # The engine and the sample articles come from the project's code.
    harness.reexec_in_venv()

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import pure
from harness import BenchError, Result, script_main
from pure import Timed

ARTICLES = "services/authoring/seed/terrakard_articles.sample.jsonl"
GOAL = 20_000.0  # attacks/s on one core (issue 17)
UNIT = "attacks/s"
LATEST_YEAR = 2026  # the latest year a question's wrong answer may name
STEP = timedelta(seconds=3)  # between two actions: inside every phase's time
T0 = datetime(2026, 12, 1, tzinfo=UTC)
DECK_TRIES = 10_000


@dataclass(frozen=True)
class Setup:
    attacker: Any  # AttackerSide
    defense: Any  # DefenseSide
    answer_keys: dict[str, int]  # question id -> the right choice


@dataclass
class Simulation:
    played: Timed
    setup: Setup


def cards(args: argparse.Namespace) -> tuple[list[Any], dict[str, int]]:
    """The sample's cards (each with its question, when its article has a fact) and the
    questions' answer keys."""
    from games.terrakard.articles import parse_line
    from games.terrakard.content import Card, QuestionFace
    from games.terrakard.formula import stats
    from games.terrakard.questions import question_for

    lines = (args.source / ARTICLES).read_text(encoding="utf-8").splitlines()
    made, keys = [], {}
    for article in filter(None, map(parse_line, lines)):
        figures = stats(article)
        question = question_for(article, figures.rarity, LATEST_YEAR)
        face = None
        if question is not None:
            face = QuestionFace(f"q-{article.wikidata}", question.prompt, question.choices)
            keys[face.question_id] = question.answer
        made.append(
            Card(
                f"copy-{article.wikidata}",
                article.title,
                article.category,
                figures.rarity,
                figures.atk,
                figures.def_,
                face,
            )
        )
    return made, keys


def attack_deck(pool: Sequence[Any], args: argparse.Namespace) -> list[Any] | None:
    """Eight different cards drawn at random (stream ``deck`` of the run's seed) until
    they make a legal deck at ``--level`` (``plans.assess_deck``); None if none comes."""
    from games.kit.chance import RandomState
    from games.terrakard.config import DECK_SIZE
    from games.terrakard.plans import assess_deck

    rng = RandomState(seed=args.seed, stream="deck")
    for _ in range(DECK_TRIES):
        left, deck = list(pool), []
        while len(deck) < DECK_SIZE:
            index, rng = rng.draw(len(left))
            deck.append(left.pop(index))
        if assess_deck(deck, args.level).legal:
            return deck
    return None


def setup(args: argparse.Namespace) -> Setup:
    from games.terrakard.automatic import automatic_plan
    from games.terrakard.state import AttackerSide, DefenseSide

    pool, keys = cards(args)
    deck = attack_deck(pool, args)
    plan = automatic_plan(pool, args.level)
    if deck is None or plan is None:
        raise BenchError(f"the sample's cards make no deck or plan at level {args.level}")
    defense = DefenseSide(plan, "Bench", args.level, 1000, automatic=True)
    return Setup(AttackerSide(tuple(deck), questions=True), defense, keys)


def attacker_policy(keys: dict[str, int]) -> Callable[[Any, int], Any]:
    """The attacker's seat: a legal action at random (giving up left out), an answer
    marked with its key. Made once: its imports stay out of the timed loop."""
    from games.kit.chance import uniform
    from games.terrakard.actions import ActionKind, marked
    from games.terrakard.game import TERRAKARD
    from games.terrakard.state import ATTACKER

    give_up, answer = ActionKind.GIVE_UP, ActionKind.ANSWER

    def attacker(state: Any, seed: int) -> Any:
        options = [a for a in TERRAKARD.legal_actions(state, ATTACKER) if a.kind is not give_up]
        index, _ = uniform(seed, f"attacker:{state.version}", 0, len(options))
        action = options[index]
        if action.kind is answer:
            plan = state.defense.plan
            card = plan.reserve if state.played.reserve else plan.rounds[state.round - 1]
            action = marked(action, keys[card.question.question_id])
        return action

    return attacker


def run(args: argparse.Namespace) -> Simulation:
    from games.terrakard.engine import Settings
    from games.terrakard.game import TERRAKARD
    from games.terrakard.state import ATTACKER, DEFENDER

    made = setup(args)
    seats = {ATTACKER: made.attacker, DEFENDER: made.defense}
    settings = Settings()
    attacker = attacker_policy(made.answer_keys)

    def one(i: int) -> str:
        seed = pure.game_seed(args.seed, "terrakard", i)
        state = TERRAKARD.new_match(settings, seats, seed, T0)
        now, actions = T0, 0
        while (results := TERRAKARD.results(state)) is None:
            now += STEP
            state, _ = TERRAKARD.apply(state, ATTACKER, attacker(state, seed), now)
            actions += 1
        outcome = "-".join(results[s] for s in (ATTACKER, DEFENDER))
        return f"{seed}:{state.terrain.name}:{outcome}:{state.round}:{actions}"

    return Simulation(pure.timed(args.attacks, one), made)


def report(args: argparse.Namespace, simulation: Simulation) -> None:
    deck = ", ".join(c.name for c in simulation.setup.attacker.deck)
    setup = [
        f"--level {args.level}; attack deck: {deck}",
        "the attacker: random legal actions (no giving up), random answers, marked",
    ]
    pure.print_report(args, setup, pure.report_lines(simulation.played, "attack", UNIT, GOAL))


def terrakard_result(simulation: Simulation) -> Result:
    played = simulation.played
    # Every attack ends within its five rounds: none can be left unfinished.
    note = f"{played.games} attacks, a random attacker against an automatic plan"
    return pure.bench_result("terrakard", played, UNIT, GOAL, 0, [note])


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = pure.parser_of(__doc__, "attacks", 20_000, "attacks")
    parser.add_argument("--level", type=int, default=10, help="the players' level (budgets)")
    args = pure.parsed(parser, argv, "attacks")
    if args.level < 1:
        parser.error("--level must be 1 or more")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    return script_main(parse_args, lambda args: report(args, run(args)), argv)


if __name__ == "__main__":
    sys.exit(main())
