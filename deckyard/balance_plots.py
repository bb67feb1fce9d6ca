"""The balance report as PNG plots and one HTML page (``deckyard balance --out DIR``).

matplotlib is an optional dependency (``pip install -e .[balance]``; the dev lock has
it), imported only here and only when plots are asked for. The Agg backend draws to
files, so no display is needed. The page shows each run's tables and its plots, with
relative links, so the folder can be committed or served as it is.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from pathlib import Path

from deckyard.balance import Rate, Summary, deck_label, length_line, results_line

MOST_PLAYED = 30  # card rows a plot shows


def _slug(summary: Summary, position: int) -> str:
    setup = summary.setup
    words = "-".join(f"{seat}-{setup.policies[seat]}" for seat in setup.decks)
    return f"{position:02d}-" + re.sub(r"[^a-z0-9]+", "-", words.casefold()).strip("-")


def _bars(axis: object, labels: Sequence[str], rates: Sequence[Rate], title: str) -> None:
    shown = list(rates)
    values = [100 * r.value if r.n else 0.0 for r in shown]
    # Never negative (a Wilson bound at 0 or 1 may round past the rate; no data: no bar).
    low = [max(0.0, 100 * (r.value - r.interval[0])) if r.n else 0.0 for r in shown]
    high = [max(0.0, 100 * (r.interval[1] - r.value)) if r.n else 0.0 for r in shown]
    axis.barh(labels, values, xerr=[low, high], color="#4c72b0", capsize=3)  # type: ignore[attr-defined]
    axis.set_xlim(0, 100)  # type: ignore[attr-defined]
    axis.set_xlabel("% (95% Wilson interval)")  # type: ignore[attr-defined]
    axis.set_title(title)  # type: ignore[attr-defined]
    axis.invert_yaxis()  # type: ignore[attr-defined]


def plot(summary: Summary, path: Path) -> None:
    """One PNG: win rates, match length, and each card's play and win-when-played rates."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    setup = summary.setup
    figure, axes = pyplot.subplots(2, 2, figsize=(12, 8))
    seats = list(setup.decks)
    _bars(
        axes[0][0],
        [f"{seat} ({setup.policies[seat]})" for seat in seats] + ["first mover"],
        [summary.wins[seat] for seat in seats] + [summary.first_wins],
        "win rate",
    )
    if len(set(summary.actions)) > 1:
        axes[0][1].hist(summary.actions, bins=30, color="#55a868")
        axes[0][1].set_title(f"match length (actions): {length_line(summary.actions)}")
    else:  # every match as long (TerraKard's five rounds): how they ended instead
        words = summary.results.get(seats[0], {})
        axes[0][1].barh(list(words), [100 * c / summary.matches for c in words.values()])
        axes[0][1].set_xlim(0, 100)
        axes[0][1].set_xlabel("% of matches")
        axes[0][1].set_title(f"{seats[0]}'s results")
        axes[0][1].invert_yaxis()
    # The most played cards only: a drawn deck (Chronovore) plays a hundred.
    rows = sorted(summary.cards, key=lambda r: -r.played.value)[:MOST_PLAYED]
    rows = [r for r in summary.cards if r in rows]
    labels = [f"{row.seat}: {row.card}" for row in rows]
    _bars(axes[1][0], labels, [row.played for row in rows], "play rate")
    _bars(axes[1][1], labels, [row.won_when_played for row in rows], "win rate when played")
    decks = " vs ".join(deck_label(setup.decks[seat], 2) for seat in seats)
    figure.suptitle(f"{summary.matches} matches, seed {setup.seed}, game {setup.game}: {decks}")
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    pyplot.close(figure)


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _section(summary: Summary, image: str) -> str:
    setup = summary.setup
    seats = _table(
        ("seat", "policy", "deck", "win rate (95% CI)", "moving first"),
        [
            (
                seat,
                setup.policies[seat],
                deck_label(setup.decks[seat]),
                str(summary.wins[seat]),
                str(summary.wins_moving_first[seat]),
            )
            for seat in setup.decks
        ],
    )
    cards = _table(
        ("seat", "card", "play rate", "win rate when played", "flag"),
        [
            (r.seat, r.card, str(r.played), str(r.won_when_played), "outlier" if r.outlier else "")
            for r in summary.cards
        ],
    )
    facts = (
        f"<p>{summary.matches} matches, seed {setup.seed}. Match length: actions "
        f"{html.escape(length_line(summary.actions))}; turns "
        f"{html.escape(length_line(summary.turns))}. First mover won "
        f"{html.escape(str(summary.first_wins))}. Unfinished: {summary.unfinished}; "
        f"draws: {summary.draws}. {html.escape(results_line(summary).capitalize())}.</p>"
    )
    title = " vs ".join(f"{seat} ({setup.policies[seat]})" for seat in setup.decks)
    return (
        f"<section><h2>{html.escape(title)}</h2>{facts}{seats}{cards}"
        f'<img src="{image}" alt="plots of {html.escape(title)}"></section>'
    )


def write_report(summaries: Sequence[Summary], out: Path, title: str = "Balance report") -> Path:
    """A PNG for each run and ``index.html`` showing them all, in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    sections = []
    for position, summary in enumerate(summaries, 1):
        image = f"{_slug(summary, position)}.png"
        plot(summary, out / image)
        sections.append(_section(summary, image))
    page = out / "index.html"
    style = "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
    page.write_text(
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
        f"</title><style>{style}</style></head><body><h1>{html.escape(title)}</h1>"
        + "".join(sections)
        + "</body></html>\n",
        encoding="utf-8",
    )
    return page
