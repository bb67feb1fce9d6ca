"""The CPU player: its configured deck and a pure policy over the same legal actions
as a human.

Rulebook: it randomly selects legal moves or Power cards and selects
Creatures when required; it never chooses voluntary swaps. With nothing
else legal (stunned, no Power card) it lets the turn go (timeout).

The choice is a uniform draw keyed by the match seed, the side and the
state's version, on a stream apart from the match's chance stream. So it
depends only on the persisted state: asking twice gives the same action
(safe for retries), and the action itself goes into the log, so replay is
exact without the policy being run again.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.kit.chance import uniform
from games.quest.actions import Action, ActionKind
from games.quest.canonical import QUEST_CANONICAL
from games.quest.rules import decisions
from games.quest.state import MatchState, Side


@dataclass(frozen=True)
class CpuDeckNames:
    """The configured CPU deck, by lineage: each card's lineage is named by its founding
    version's name (``games.quest.canonical``); the cards service gives its active version."""

    creatures: tuple[str, ...]
    power_cards: tuple[str, ...]


# Rulebook, "CPU battles": Quillip, Voltiki, Karrik, Field Kit, and Reserve Focus.
CPU_DECK = CpuDeckNames(
    creatures=QUEST_CANONICAL.cpu_creatures, power_cards=QUEST_CANONICAL.cpu_power_cards
)


def cpu_action(state: MatchState, seat: Side | str, /) -> Action | None:
    """The CPU's action for ``seat`` now, or None when it has nothing to do."""
    side = seat if seat.__class__ is Side else Side(seat)
    options = decisions(state, side)
    if options is None:
        return None
    if len(options) == 1 and options[0].kind is ActionKind.TIMEOUT:
        return options[0]  # nothing else is legal: the turn goes, no draw made
    stream = f"cpu:{side}:{state.version}"
    index, _ = uniform(state.random.seed, stream, 0, len(options))
    return options[index]
