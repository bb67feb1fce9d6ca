"""``deckyard balance``: many seeded matches of given decks and seat policies (issue 20).

Any game that implements the engine protocol (``games.kit.protocol``) plugs in as a
``Game`` (its engine, seats, catalogue and decks, a score for the policies, the card an
action plays, its CPU policy); ``GAMES`` lists them: Quest (``deckyard.balance_quest``),
TerraKard (``deckyard.balance_terrakard``: an attack on a saved plan) and Chronovore
(``deckyard.balance_chronovore``: a deck drawn for every match), docs/balance.md,
"Another game", and docs/balance/<game>.md. Seat policies: the kit's ``random``,
``greedy`` (one ply), ``lookahead`` (two plies against a uniform reply) and the game's
own ``cpu``, or a game's own in their place (``Game.own_policies``). The CLI's
``--player-*`` and ``--cpu-*`` options are each game's two seats in order.

Match ``i`` gets the engine seed and the policies' seed from ``sha256("<seed>:<i>")``,
so a run is reproducible from ``--seed`` whatever ``--workers``: matches run in
parallel across processes, in chunks, and are put back in order. The report: each
seat's wins with their rate and a 95% Wilson interval, match length (actions and
turns), the first mover's win rate, and each card's play rate and win rate when
played; on the terminal, and with ``--out DIR`` as PNG plots and an HTML page
(``deckyard.balance_plots``, matplotlib: ``pip install -e .[balance]``). A progress bar
on stderr for long runs.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import statistics
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

from deckyard import balance_chronovore, balance_quest, balance_terrakard
from games.kit.policies import Evaluate, Policy, greedy_policy, lookahead_policy, random_policy
from games.kit.protocol import CpuPolicy, Engine, Seat

T0 = datetime(2026, 12, 1, tzinfo=UTC)
STEP = timedelta(seconds=3)  # between two actions: far inside any turn's deadline
MAX_ACTIONS = 5000  # a guard: a match still on after this many actions is unfinished
WIN = "victory"  # the engines' word for a won match
Catalogue = Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class Game:
    """What the simulator needs of a game (docs/balance.md, "Another game")."""

    name: str
    engine: Engine[Any, Any, Any]
    seats: tuple[Seat, ...]
    settings: Callable[[], Any]
    load_catalogue: Callable[[], Catalogue]
    deck: Callable[[Catalogue, Sequence[str]], Any]  # what a seat brings, from card names
    named_decks: Callable[[Catalogue], dict[str, tuple[str, ...]]]  # "cpu", "starter:Wit"
    score: Evaluate  # a state's worth to a seat, for greedy and lookahead
    cards_played: Callable[[Any, Seat, Any], tuple[str, ...]]  # by (state, seat, action)
    cpu: CpuPolicy[Any, Any] | None = None
    # The words of ``results`` that win (a TerraKard attacker wins with stars).
    winning: frozenset[str] = frozenset({WIN})
    # What each seat brings to match ``seed``, in seat order, when a deck is drawn for
    # every match (a Chronovore new player's packs); None: ``deck`` of the names. Its
    # named decks are then recipes, not cards: the report's card rows are those played.
    deal: Callable[[Catalogue, Mapping[Seat, tuple[str, ...]], int], dict[Seat, Any]] | None = None
    # A seat that acts this many times before one deadline is overtaken by the clock (a
    # Chronovore seat arranging its row for ever); None: every seat's turn ends itself.
    max_steps: int | None = None
    # The game's own seat policies, by name, in place of or beside the kit's.
    own_policies: Mapping[str, Policy] = field(default_factory=dict)
    # The named deck of a CLI seat option left out ("player", "cpu"); else "cpu".
    default_decks: Mapping[str, str] = field(default_factory=dict)


def _quest_decks(catalogue: Catalogue) -> dict[str, tuple[str, ...]]:
    decks = {"cpu": balance_quest.CPU_NAMES}
    for affinity in balance_quest.STARTER_AFFINITIES:
        decks[f"starter:{affinity}"] = balance_quest.starter_deck(catalogue, affinity)
    return decks


GAMES: dict[str, Game] = {
    "quest": Game(
        name="quest",
        engine=balance_quest.ENGINE,
        seats=("player", "cpu"),
        settings=balance_quest.settings,
        load_catalogue=balance_quest.load_catalogue,
        deck=balance_quest.deck,
        named_decks=_quest_decks,
        score=balance_quest.score,
        cards_played=balance_quest.cards_played,
        cpu=balance_quest.CPU,
    ),
    "terrakard": Game(
        name="terrakard",
        engine=balance_terrakard.ENGINE,
        seats=balance_terrakard.SEATS,
        settings=balance_terrakard.settings,
        load_catalogue=balance_terrakard.load_catalogue,
        deck=balance_terrakard.attack_deck,
        named_decks=balance_terrakard.named_decks,
        score=balance_terrakard.score,
        cards_played=balance_terrakard.cards_played,
        cpu=balance_terrakard.CPU,
        winning=balance_terrakard.WINNING,
        deal=balance_terrakard.deal,
        own_policies={"greedy": balance_terrakard.greedy},
        default_decks={"player": balance_terrakard.STARTER, "cpu": balance_terrakard.TRAINING},
    ),
    "chronovore": Game(
        name="chronovore",
        engine=balance_chronovore.ENGINE,
        seats=balance_chronovore.SEATS,
        settings=balance_chronovore.settings,
        load_catalogue=balance_chronovore.load_catalogue,
        deck=balance_chronovore.deck,
        named_decks=balance_chronovore.named_decks,
        score=balance_chronovore.SCORE,
        cards_played=balance_chronovore.cards_played,
        cpu=balance_chronovore.CPU,
        winning=balance_chronovore.WINNING,
        deal=balance_chronovore.deal,
        max_steps=balance_chronovore.STEPS,
    ),
}

# Kept for callers of the first version (tests pin the engine with these).
load_catalogue = balance_quest.load_catalogue
deck = balance_quest.deck


def policies(game: Game) -> dict[str, Policy]:
    """The seat policies for ``game``, by name."""
    found: dict[str, Policy] = {
        "random": random_policy,
        "greedy": greedy_policy(game.score),
        "lookahead": lookahead_policy(game.score),
    }
    cpu = game.cpu
    if cpu is not None:

        def cpu_policy(
            engine: Engine[Any, Any, Any], state: Any, seat: Seat, seed: int, now: datetime
        ) -> Any:
            return cpu(state, seat)

        found["cpu"] = cpu_policy
    return {**found, **game.own_policies}


POLICY_NAMES = ("random", "greedy", "lookahead", "cpu")


def match_seed(seed: int, index: int) -> int:
    digest = hashlib.sha256(f"{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


@dataclass(frozen=True)
class Setup:
    decks: dict[Seat, tuple[str, ...]]
    policies: dict[Seat, str]
    seed: int
    game: str = "quest"
    catalogue: Catalogue | None = None  # None: the game's shipped catalogue


@dataclass(frozen=True)
class Played:
    index: int
    winner: Seat | None  # None: unfinished
    first: Seat | None  # the first seat to act on the clock
    actions: int
    turns: int
    cards: dict[Seat, tuple[str, ...]] = field(default_factory=dict)  # played, by seat
    results: dict[Seat, str] = field(default_factory=dict)  # the engine's words; {}: unfinished


def play(setup: Setup, index: int, catalogue: Catalogue) -> Played:
    """One whole match: each seat by its policy, the seats waited for in order."""
    game = GAMES[setup.game]
    engine = game.engine
    chosen = {seat: policies(game)[name] for seat, name in setup.policies.items()}
    seed = match_seed(setup.seed, index)
    if game.deal is not None:
        seats = game.deal(catalogue, setup.decks, seed)
    else:
        seats = {seat: game.deck(catalogue, names) for seat, names in setup.decks.items()}
    state = engine.new_match(game.settings(), seats, seed, T0)
    now, first = T0, None
    played: dict[Seat, set[str]] = {seat: set() for seat in game.seats}
    steps: dict[tuple[Seat, datetime | None], int] = {}
    while engine.results(state) is None and engine.version(state) < MAX_ACTIONS:
        seat = engine.waiting_for(state)[0]
        deadline = engine.deadline(state)
        if first is None and deadline is not None:
            first = seat
        steps[seat, deadline] = steps.get((seat, deadline), 0) + 1
        overstayed = game.max_steps is not None and steps[seat, deadline] > game.max_steps
        if overstayed and deadline is not None:
            now = max(now, deadline)
            state, _ = engine.expire(state, now)
            continue
        now += STEP
        if deadline is not None and now >= deadline:  # thinking never runs out the clock
            now = deadline - STEP / 1000
        action = chosen[seat](engine, state, seat, seed, now)
        played[seat].update(game.cards_played(state, seat, action))
        state, _ = engine.apply(state, seat, action, now)
    results = dict(engine.results(state) or {})
    winner = next((seat for seat, word in results.items() if word in game.winning), None)
    turns = int(getattr(state, "turn_number", getattr(state, "round", 0)))
    cards = {seat: tuple(sorted(names)) for seat, names in played.items()}
    return Played(index, winner, first, engine.version(state), turns, cards, results)


def _chunk(setup: Setup, indexes: Sequence[int]) -> list[Played]:
    catalogue = setup.catalogue or GAMES[setup.game].load_catalogue()
    return [play(setup, i, catalogue) for i in indexes]


Progress = Callable[[int, int], None]  # (matches done, matches in all)


def simulate(
    setup: Setup, matches: int, workers: int = 1, progress: Progress | None = None
) -> list[Played]:
    """``matches`` matches, in order of their index; the same whatever ``workers``."""
    indexes = list(range(matches))
    size = max(1, min(50, math.ceil(matches / (workers * 8))))
    chunks = [indexes[i : i + size] for i in range(0, matches, size)]
    done: list[Played] = []

    def collect(results: Iterator[list[Played]]) -> list[Played]:
        for chunk in results:
            done.extend(chunk)
            if progress is not None:
                progress(len(done), matches)
        return sorted(done, key=lambda p: p.index)

    if workers <= 1:
        return collect(_chunk(setup, chunk) for chunk in chunks)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return collect(pool.map(_chunk, [setup] * len(chunks), chunks))


def progress_bar(stream: TextIO | None = None, width: int = 30) -> Progress:
    """A one-line bar redrawn in place on ``stream`` (stderr: the report stays clean)."""

    def show(done: int, total: int) -> None:
        out = stream or sys.stderr
        filled = width * done // total
        out.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches")
        if done == total:
            out.write("\n")
        out.flush()

    return show


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


# -- the report ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Rate:
    hits: int
    n: int

    @property
    def value(self) -> float:
        return self.hits / self.n if self.n else math.nan

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.hits, self.n)

    def __str__(self) -> str:
        return rate(self.hits, self.n)


@dataclass(frozen=True)
class CardRow:
    seat: Seat
    card: str
    in_deck: int  # matches with the card in the seat's deck
    played: Rate  # of those, the matches it was played in
    won_when_played: Rate  # of those, the matches the seat won
    outlier: bool  # won-when-played outside the seat's own win rate's interval by 15 points


OUTLIER_POINTS = 0.15  # ours: a card this far from its seat's win rate is flagged


@dataclass(frozen=True)
class Summary:
    setup: Setup
    matches: int
    wins: dict[Seat, Rate]
    first_wins: Rate  # the first mover's wins, of matches with a first mover
    wins_moving_first: dict[Seat, Rate]
    actions: list[int]
    turns: list[int]
    unfinished: int
    cards: list[CardRow]
    draws: int = 0  # finished with no winner
    results: dict[Seat, dict[str, int]] = field(default_factory=dict)  # each seat's words


def share(summary: Summary, seat: Seat) -> float:
    """``seat``'s win share: wins plus half the draws, of the finished matches."""
    finished = summary.matches - summary.unfinished
    if finished == 0:
        return math.nan
    return (summary.wins[seat].hits + summary.draws / 2) / finished


def summarise(setup: Setup, played: Sequence[Played]) -> Summary:
    n = len(played)
    seats = tuple(setup.decks)
    wins = {seat: Rate(sum(1 for p in played if p.winner == seat), n) for seat in seats}
    moved = [p for p in played if p.first is not None]
    first_wins = Rate(sum(1 for p in moved if p.winner == p.first), len(moved))
    moving_first = {}
    for seat in seats:
        firsts = [p for p in moved if p.first == seat]
        moving_first[seat] = Rate(sum(1 for p in firsts if p.winner == seat), len(firsts))
    cards = []
    dealt = GAMES[setup.game].deal is not None  # the decks named are recipes
    for seat in seats:
        seen = sorted({card for p in played for card in p.cards.get(seat, ())})
        for card in dict.fromkeys([*(() if dealt else setup.decks[seat]), *seen]):
            with_it = [p for p in played if card in p.cards.get(seat, ())]
            won = sum(1 for p in with_it if p.winner == seat)
            rate_played = Rate(won, len(with_it))
            outlier = bool(with_it) and abs(rate_played.value - wins[seat].value) > OUTLIER_POINTS
            cards.append(CardRow(seat, card, n, Rate(len(with_it), n), rate_played, outlier))
    return Summary(
        setup,
        n,
        wins,
        first_wins,
        moving_first,
        [p.actions for p in played] or [0],
        [p.turns for p in played] or [0],
        sum(1 for p in played if not p.results),
        cards,
        sum(1 for p in played if p.results and p.winner is None),
        {seat: dict(Counter(p.results[seat] for p in played if p.results)) for seat in seats},
    )


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    widths = [max(len(str(c)) for c in column) for column in zip(header, *rows, strict=True)]
    lines = [
        " | ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)).rstrip()
        for row in [header, *rows]
    ]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def length_line(values: Sequence[int]) -> str:
    return (
        f"mean {statistics.fmean(values):.1f}, median {statistics.median(values):g}, "
        f"max {max(values)}"
    )


def results_line(summary: Summary) -> str:
    """Each seat's results in the engine's words (TerraKard's stars), most frequent first."""
    n = max(1, summary.matches)
    return "results: " + "; ".join(
        f"{seat} "
        + ", ".join(
            f"{word} {count} ({100 * count / n:.1f}%)"
            for word, count in sorted(words.items(), key=lambda item: (-item[1], item[0]))
        )
        for seat, words in summary.results.items()
    )


def deck_label(names: Sequence[str], shown: int = 6) -> str:
    """A deck's names, or a long one's count and first different names."""
    if len(names) <= shown:
        return ", ".join(names)
    return f"{len(names)} cards: " + ", ".join(list(dict.fromkeys(names))[:4]) + ", ..."


def report_text(summary: Summary) -> str:
    setup = summary.setup
    seat_rows = [
        (
            seat,
            setup.policies[seat],
            deck_label(setup.decks[seat]),
            str(summary.wins[seat].hits),
            str(summary.wins[seat]),
            str(summary.wins_moving_first[seat]),
        )
        for seat in setup.decks
    ]
    card_rows = [
        (
            row.seat,
            row.card,
            str(row.played),
            str(row.won_when_played),
            "outlier" if row.outlier else "",
        )
        for row in summary.cards
    ]
    return "\n".join(
        [
            f"{summary.matches} matches, --seed {setup.seed}, game {setup.game}",
            table(
                ("seat", "policy", "deck", "wins", "win rate (95% CI)", "win rate moving first"),
                seat_rows,
            ),
            "",
            f"match length: actions {length_line(summary.actions)}; "
            f"turns {length_line(summary.turns)}",
            f"first-player advantage: the first mover won {summary.first_wins}",
            f"unfinished: {summary.unfinished}; draws: {summary.draws}",
            results_line(summary),
            "",
            table(
                ("seat", "card", "play rate (95% CI)", "win rate when played (95% CI)", "flag"),
                card_rows,
            ),
        ]
    )


def report(setup: Setup, played: Sequence[Played]) -> str:
    return report_text(summarise(setup, played))


# -- the command ---------------------------------------------------------------------------


OPTIONS = ("player", "cpu")  # the CLI's seat options, for each game's seats in order
DECK_HELP = (
    "the {seat} seat's cards by name, comma-separated, or a named deck (default: cpu). "
    "quest: cpu, starter:Wit, starter:Grit, starter:Spark; terrakard (player: the "
    "attacker, cpu: the defense plan): starter, starter:any, training, demo:<key>; "
    "chronovore: cpu, new:<class>, class:<class>"
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--game", choices=sorted(GAMES), default="quest")
    for seat in OPTIONS:
        parser.add_argument(f"--{seat}-deck", help=DECK_HELP.format(seat=seat))
        parser.add_argument(
            f"--{seat}-policy",
            choices=POLICY_NAMES,
            default="cpu" if seat == "cpu" else "random",
        )
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1, help="the run's seed (reproducible)")
    parser.add_argument("--workers", type=int, default=1, help="processes (one per core)")
    parser.add_argument("--out", type=Path, help="write PNG plots and index.html here")
    parser.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="a progress bar on stderr (default: when stderr is a terminal)",
    )


def resolve_deck(game: Game, catalogue: Catalogue, text: str) -> tuple[str, ...]:
    named = game.named_decks(catalogue)
    if text in named:
        return named[text]
    return tuple(n.strip() for n in text.split(",") if n.strip())


def run(args: argparse.Namespace) -> int:
    if args.matches < 1 or args.workers < 1:
        raise SystemExit("deckyard balance: --matches and --workers must be at least 1")
    game = GAMES[args.game]
    catalogue = game.load_catalogue()
    options = dict(zip(game.seats, OPTIONS, strict=True))  # the first seat is the player's
    decks = {}
    for seat in game.seats:
        option = options[seat]
        text = getattr(args, f"{option}_deck") or game.default_decks.get(option, "cpu")
        decks[seat] = resolve_deck(game, catalogue, text)
    # Refuse unknown cards before any process starts.
    if game.deal is not None:
        game.deal(catalogue, decks, args.seed)
    else:
        for names in decks.values():
            game.deck(catalogue, names)
    policies_by_seat = {seat: getattr(args, f"{options[seat]}_policy") for seat in game.seats}
    if "cpu" in policies_by_seat.values() and game.cpu is None:
        raise SystemExit(f"deckyard balance: {game.name} has no CPU policy")
    setup = Setup(decks, policies_by_seat, args.seed, game.name)
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    played = simulate(setup, args.matches, args.workers, progress_bar() if show else None)
    summary = summarise(setup, played)
    print(report_text(summary))
    if args.out is not None:
        from deckyard.balance_plots import write_report

        page = write_report([summary], args.out)
        print(f"\nplots and page: {page}")
    return 0
