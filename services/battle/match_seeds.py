"""Match seeds, committed from the first move and revealed at the end (issue 22).

A match's chance (who goes first, the shuffles, the CPU's draws) comes from its 63-bit
seed. When the match starts, a 256-bit random salt is drawn and kept beside the seed
(``matches.seed_salt``); every answer about the match carries ``seed``:
``{"commitment": SHA-256("{seed}:{salt}"), "seed": null, "salt": null}`` from the
start answer on (``games.kit.fair.match_commitment``), and the seed (in decimal, as a
string: 63 bits do not fit a JSON double) and salt only once the match is finished.
The finished match's history adds ``replay``: what a verifier needs to play it again
with the pure engine (``games.kit.fair.verify_match``; ``deckyard verify``): the game,
the start time, the seats, the setup (what each seat brought, as the match began) and
the whole action log as logged, with the results.

A TerraKard attack has no ``replay``: its setup is the defender's saved plan, which
stays secret (it defends again); the attack's only chance, its terrain, is a roll of
the attacker's own fairness seeds (docs/fairness.md). Nor does a match between two
players: its setup holds each player's whole deck, and the cards a player never showed
stay theirs; each still sees the commitment checked against the revealed seed. A match
started before the salt existed (migration 0005) shows no commitment (``null``) and
nothing is revealed for it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.chronovore import CHRONOVORE, CHRONOVORE_CPU
from games.chronovore.cards import Card as ChronovoreCard
from games.chronovore.state import MatchState as ChronovoreState
from games.chronovore.state import Settings as ChronovoreSettings
from games.kit.fair import SALT_BYTES, match_commitment
from games.kit.protocol import CpuPolicy, Engine
from games.quest import QUEST
from games.quest.cards import CreatureCard, PowerCard
from games.quest.engine import Deck as QuestDeck
from games.quest.engine import Settings as QuestSettings
from games.quest.game import QUEST_CPU
from games.quest.state import MatchState as QuestState
from games.quest.state import Side as QuestSide
from services.battle.host import Match, Seat, SeatKind, Status, Step, Views
from shared.randomness import RandomSource


def salted(match: Match, rng: RandomSource) -> Match:
    """A new match with its salt drawn (before it is stored or shown)."""
    return replace(match, seed_salt=rng.token_bytes(SALT_BYTES).hex())


def seed_view(match: Match) -> dict[str, Any]:
    """The commitment always; the seed and salt once the match is finished."""
    if match.seed_salt is None:
        return {"commitment": None, "seed": None, "salt": None}
    over = match.status is Status.FINISHED
    return {
        "commitment": match_commitment(match.seed, match.seed_salt),
        "seed": str(match.seed) if over else None,
        "salt": match.seed_salt if over else None,
    }


# -- setups: what each seat brought, as JSON and back --------------------------------------


def _quest_setup(initial: QuestState) -> dict[str, Any]:
    return {
        "settings": {
            "turn_seconds": initial.turn_seconds,
            "affinity_rules_version": initial.affinity_rules_version,
        },
        "decks": [
            {
                "seat": str(seat),
                "creatures": [c.card.to_dict() for c in initial.side(seat).creatures],
                "power_cards": [p.to_dict() for p in initial.side(seat).power_cards],
            }
            for seat in (QuestSide.PLAYER, QuestSide.CPU)
        ],
    }


def _quest_load(setup: Mapping[str, Any]) -> tuple[Any, Mapping[str, Any]]:
    settings = QuestSettings(
        turn_seconds=int(setup["settings"]["turn_seconds"]),
        affinity_rules_version=int(setup["settings"]["affinity_rules_version"]),
    )
    decks = {
        str(d["seat"]): QuestDeck(
            tuple(CreatureCard.from_dict(c) for c in d["creatures"]),
            tuple(PowerCard.from_dict(p) for p in d["power_cards"]),
        )
        for d in setup["decks"]
    }
    return settings, decks


def _chronovore_setup(initial: ChronovoreState) -> dict[str, Any]:
    """Each seat's deck in the order it was brought: a card's number (``uid``) in the
    initial state is its place in the deck before the shuffle."""
    decks = []
    for seat in initial.seats:
        side = initial.side(seat)
        cards = [*side.deck, *side.hand, *(c for c in side.slots if c), *side.discard]
        decks.append(
            {"seat": seat, "cards": [c.card.to_dict() for c in sorted(cards, key=lambda c: c.uid)]}
        )
    return {"settings": initial.settings.to_dict(), "decks": decks}


def _chronovore_load(setup: Mapping[str, Any]) -> tuple[Any, Mapping[str, Any]]:
    decks = {
        str(d["seat"]): [ChronovoreCard.from_dict(c) for c in d["cards"]] for d in setup["decks"]
    }
    return ChronovoreSettings.from_dict(setup["settings"]), decks


@dataclass(frozen=True)
class Replayable:
    """A game whose finished matches a player can replay (``games.kit.fair.MatchRules``)."""

    engine: Engine[Any, Any, Any]
    cpu: CpuPolicy[Any, Any] | None
    export_setup: Callable[[Any], dict[str, Any]]
    load: Callable[[Mapping[str, Any]], tuple[Any, Mapping[str, Any]]]

    def load_setup(self, setup: Mapping[str, Any]) -> tuple[Any, Mapping[str, Any]]:
        return self.load(setup)


REPLAYABLE: Mapping[str, Replayable] = {
    QUEST.game: Replayable(QUEST, QUEST_CPU, _quest_setup, _quest_load),
    CHRONOVORE.game: Replayable(CHRONOVORE, CHRONOVORE_CPU, _chronovore_setup, _chronovore_load),
}


def replay_view(match: Match, initial: Any, steps: Sequence[Step]) -> dict[str, Any] | None:
    """What a verifier replays a finished match from; None before the end, for a game
    whose setup stays secret, and for a match without a commitment."""
    game = REPLAYABLE.get(match.game)
    if game is None or match.status is not Status.FINISHED or match.seed_salt is None:
        return None
    if sum(1 for seat in match.seats if seat.kind is SeatKind.PLAYER) > 1:
        return None  # another player's deck is not ours to show
    return {
        "game": match.game,
        "mode": match.mode,
        "started_at": match.created_at.isoformat(),
        "seats": [{"seat": s.name, "kind": str(s.kind)} for s in match.seats],
        "setup": game.export_setup(initial),
        "log": [
            {"seq": s.version, "seat": s.seat, "action": s.action, "at": s.at.isoformat()}
            for s in steps
        ],
        "results": {s.name: s.result for s in match.seats},
    }


@dataclass(frozen=True)
class SeededViews:
    """A game's views with the match's ``seed`` part added to every answer."""

    views: Views

    def match(self, match: Match, seat: Seat) -> dict[str, Any]:
        return {**self.views.match(match, seat), "fairness": seed_view(match)}

    def result(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return {**self.views.result(match, seat, steps), "fairness": seed_view(match)}

    def history(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return {**self.views.history(match, seat, steps), "fairness": seed_view(match)}
