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

import hashlib
from dataclasses import dataclass
from typing import Final

from games.kit.chance import uniform
from games.kit.frozen import plain
from games.quest.actions import Action
from games.quest.canonical import QUEST_CANONICAL
from games.quest.rules import decisions
from games.quest.state import MatchState, Side


@plain
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
    n = len(options)
    if n == 1:
        # The timeout alone (nothing else is legal: no draw made), or one option:
        # a uniform draw over one outcome is 0 whatever it draws.
        return options[0]
    seed, version = state.random.seed, state.version
    label = "cpu:player:" if side is _PLAYER else "cpu:cpu:"
    # ``uniform(seed, f"{label}{version}", 0, n)``'s first draw inlined (the hot path);
    # its rejection loop if that draw is rejected.
    value = _from_bytes(_sha256(f"{seed}:{label}{version}:0".encode()).digest(), "big")
    if value < _LIMITS[n]:
        return options[value % n]
    index, _ = uniform(seed, f"{label}{version}", 0, n)
    return options[index]


_PLAYER: Final = Side.PLAYER
_sha256: Final = hashlib.sha256
_from_bytes: Final = int.from_bytes


class _Limits(dict[int, int]):
    """``uniform``'s rejection limit for n outcomes, computed once per n."""

    def __missing__(self, n: int) -> int:
        limit = self[n] = _SPACE - (_SPACE % n)
        return limit


_SPACE: Final = 1 << 256
_LIMITS: Final = _Limits()
