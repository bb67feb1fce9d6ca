"""What a side can ask the engine to do, as small JSON-friendly values.

Moves, Creatures and Power cards are named by their index in the match
snapshot (move 0..3 of the active Creature, Creature 0..2 and Power card 0..1
of the deck), so an action id is stable for the whole match.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.kit.frozen import plain
from games.quest.errors import IllegalAction, RefusalCode


class ActionKind(StrEnum):
    USE_MOVE = "use_move"  # index: the active Creature's move
    PLAY_POWER_CARD = "play_power_card"  # index: the Power card
    SWAP = "swap"  # index: the bench Creature coming in
    SELECT_CREATURE = "select_creature"  # index: initial or replacement Creature
    TIMEOUT = "timeout"  # the turn ends with no move or card
    FORFEIT = "forfeit"
    # Live PvP only, never a client's (ours, docs/quest-pvp.md, "Reconnect"): the battle
    # sweeper ends the match for a side whose player stayed disconnected 90 seconds.
    DISCONNECTED = "disconnected"


_INDEXED = frozenset(
    {ActionKind.USE_MOVE, ActionKind.PLAY_POWER_CARD, ActionKind.SWAP, ActionKind.SELECT_CREATURE}
)


@plain
@dataclass(frozen=True)
class Action:
    kind: ActionKind
    index: int | None = None

    def __post_init__(self) -> None:
        if (self.kind in _INDEXED) != (self.index is not None):
            raise IllegalAction(
                RefusalCode.INVALID_ACTION,
                f"{self.kind} {'needs' if self.kind in _INDEXED else 'takes no'} index",
            )

    @classmethod
    def use_move(cls, index: int) -> Action:
        return cls(ActionKind.USE_MOVE, index)

    @classmethod
    def play_power_card(cls, index: int) -> Action:
        return cls(ActionKind.PLAY_POWER_CARD, index)

    @classmethod
    def swap(cls, index: int) -> Action:
        return cls(ActionKind.SWAP, index)

    @classmethod
    def select_creature(cls, index: int) -> Action:
        return cls(ActionKind.SELECT_CREATURE, index)

    @classmethod
    def timeout(cls) -> Action:
        return cls(ActionKind.TIMEOUT)

    @classmethod
    def forfeit(cls) -> Action:
        return cls(ActionKind.FORFEIT)

    @classmethod
    def disconnected(cls) -> Action:
        return cls(ActionKind.DISCONNECTED)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": str(self.kind)} | ({} if self.index is None else {"index": self.index})

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """An action from a client's JSON; anything malformed is an ``invalid_action``."""
        try:
            kind = ActionKind(data["kind"])
        except (KeyError, TypeError, ValueError) as exc:
            raise IllegalAction(RefusalCode.INVALID_ACTION, "unknown action kind") from exc
        index = data.get("index")
        if index is not None and (isinstance(index, bool) or not isinstance(index, int)):
            raise IllegalAction(RefusalCode.INVALID_ACTION, "an action index is an integer")
        return cls(kind, index)
