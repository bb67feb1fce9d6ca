"""What a seat asks for during lock-in (rulebook, "Lock in"), as small JSON-friendly values.

A card in hand is named by its ``uid`` (unique in its seat for the whole match), a
slot by its position 0..3 from the left.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from games.kit.frozen import plain
from games.kit.refusal import Refusal


class ActionKind(StrEnum):
    PLACE = "place"  # card (uid) from the hand into an empty slot
    MOVE = "move"  # a slotted card to another slot (an occupied one: the two swap)
    TAKE_BACK = "take_back"  # a slotted card back to the hand
    LOCK = "lock"  # finished for the round; empty slots allowed
    FORFEIT = "forfeit"  # leave the match (the kit's word for it)


_FIELDS: Mapping[ActionKind, tuple[str, ...]] = {
    ActionKind.PLACE: ("card", "slot"),
    ActionKind.MOVE: ("slot", "to"),
    ActionKind.TAKE_BACK: ("slot",),
    ActionKind.LOCK: (),
    ActionKind.FORFEIT: (),
}


@plain
@dataclass(frozen=True)
class Action:
    kind: ActionKind
    card: int | None = None
    slot: int | None = None
    to: int | None = None

    @classmethod
    def place(cls, card: int, slot: int) -> Action:
        return cls(ActionKind.PLACE, card=card, slot=slot)

    @classmethod
    def move(cls, slot: int, to: int) -> Action:
        return cls(ActionKind.MOVE, slot=slot, to=to)

    @classmethod
    def take_back(cls, slot: int) -> Action:
        return cls(ActionKind.TAKE_BACK, slot=slot)

    @classmethod
    def lock(cls) -> Action:
        return cls(ActionKind.LOCK)

    @classmethod
    def forfeit(cls) -> Action:
        return cls(ActionKind.FORFEIT)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value}
        for name in _FIELDS[self.kind]:
            data[name] = getattr(self, name)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        """A client's action; anything malformed is a Refusal."""
        if not isinstance(data, Mapping) or data.get("kind") not in set(ActionKind):
            raise Refusal("invalid_action", f"an action's kind is one of {sorted(ActionKind)}")
        kind = ActionKind(data["kind"])
        wanted = _FIELDS[kind]
        if set(data) - {"kind", *wanted}:
            raise Refusal("invalid_action", f"a {kind} action has only {list(wanted)}")
        values: dict[str, int] = {}
        for name in wanted:
            value = data.get(name)
            if type(value) is not int:
                raise Refusal("invalid_action", f"a {kind} action needs a whole number {name}")
            values[name] = value
        return cls(kind, **values)
