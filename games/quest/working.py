"""The working form of one normal-turn action: mutable values, frozen once at the end.

A move, a Power card, a swap or a timeout changes at most the two active Creatures,
the acting side's active index or discard pile, and the match's turn fields. ``Step``
copies what may change into plain mutable values (a ``Fighter`` for each active
Creature), lets the effect interpreter (effects.py) and the end of the turn
(turns.py) work on them in place, and builds the new frozen ``MatchState`` once with
``freeze``: one new Creature per Creature that changed, one new side per side that
changed, one new match. The input state is never touched, so ``apply`` stays pure.

The objects here never outlive one ``apply``; nothing else may hold them.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from games.quest.state import Creature, FinishReason, MatchState, Phase, Side, SideState
from games.quest.statuses import NO_STATUSES


class Fighter:
    """An active Creature as this action leaves it so far."""

    __slots__ = ("before", "card", "hp", "index", "name", "power", "side", "statuses", "used_moves")

    def __init__(self, side: str, index: int, creature: Creature) -> None:
        self.before = creature
        self.side = side  # as events name it: "player" or "cpu"
        self.index = index
        card = self.card = creature.card
        self.name = card.name
        self.hp = creature.hp
        self.power = creature.power
        self.statuses = creature.statuses
        self.used_moves = creature.used_moves

    def event(self, kind: str, **extra: Any) -> dict[str, Any]:
        """An event about this Creature (the shape of ``effects.creature_event``)."""
        return {"type": kind, "side": self.side, "creature": self.index, "name": self.name, **extra}

    def freeze(self) -> Creature:
        """The Creature as a frozen value: the one it was if nothing changed."""
        before = self.before
        if (
            self.hp == before.hp
            and self.power == before.power
            and self.statuses is before.statuses
            and self.used_moves is before.used_moves
        ):
            return before
        return Creature(before.card, self.hp, self.power, self.statuses, self.used_moves)


# Module-level names for the sides (an enum class's attribute lookup is slow).
_PLAYER: Final = Side.PLAYER
_CPU: Final = Side.CPU


class Step:
    """One normal-turn action of ``actor`` on ``state`` in working form.

    ``me`` and ``them``: the actor's and the opponent's active Creatures (a normal turn
    always has both). ``side_changes``: fields of each side to change (``active``,
    ``discarded``, ``choice``). ``events``: what happened, in order. The effect
    interpreter (effects.resolve) sets the rest, its scratch for one move or card:
    ``move_type``, ``damage_seen``, ``dodged``, ``dealt``, ``used_modifiers``.
    """

    __slots__ = (
        "actor",
        "damage_seen",
        "dealt",
        "dodged",
        "events",
        "me",
        "move_type",
        "opponent",
        "own",
        "side_changes",
        "state",
        "theirs",
        "them",
        "used_modifiers",
    )

    # The effect interpreter's scratch, set by ``effects.resolve``.
    move_type: str | None  # None for a Power card: neutral damage
    damage_seen: bool
    dodged: bool
    dealt: int  # damage actually dealt by this action's damage effects so far
    used_modifiers: dict[Side, set[int]]

    def __init__(self, state: MatchState, actor: Side) -> None:
        self.state = state
        self.actor = actor
        if actor is _PLAYER:
            opponent, own, theirs = _CPU, state.player, state.cpu
            names = ("player", "cpu")
        else:
            opponent, own, theirs = _PLAYER, state.cpu, state.player
            names = ("cpu", "player")
        self.opponent = opponent
        self.own = own  # the sides as the action found them
        self.theirs = theirs
        mine, their = own.active, theirs.active
        if mine is None or their is None:
            raise ValueError("a normal-turn action needs both active Creatures")
        self.me = Fighter(names[0], mine, own.creatures[mine])
        self.them = Fighter(names[1], their, theirs.creatures[their])
        self.side_changes: dict[Side, dict[str, Any]] = {actor: {}, opponent: {}}
        self.events: list[dict[str, Any]] = []

    def fighter(self, side: Side) -> Fighter:
        return self.me if side is self.actor else self.them

    def has_living(self, side: Side) -> bool:
        """Whether ``side`` has a living Creature (its active one as it is now)."""
        fighter = self.fighter(side)
        if fighter.hp > 0:
            return True
        creatures = (self.own if side is self.actor else self.theirs).creatures
        return any(c.hp > 0 for i, c in enumerate(creatures) if i != fighter.index)

    def clear_defeated(self) -> bool:
        """A defeated Creature's effects end with it (docs, "Terms"). Whether one is."""
        defeated = False
        for fighter in (self.me, self.them):
            if fighter.hp == 0:
                defeated = True
                # No comparison first: a Statuses equal to none is a value like it.
                fighter.statuses = NO_STATUSES
        return defeated

    def freeze(
        self,
        phase: Phase,
        selecting: tuple[Side, ...],
        turn: Side | None,
        turn_number: int,
        deadline: datetime | None,
        version: int,
        winner: Side | None = None,
        finish_reason: FinishReason | None = None,
    ) -> MatchState:
        """The new match: the Creatures and sides that changed, and these match fields
        (the others as they were; ``winner`` and ``finish_reason`` are None in a match
        a normal-turn action may be taken in). One constructor call a changed value."""
        changes = self.side_changes
        own = self._side(self.me, self.own, changes[self.actor])
        theirs = self._side(self.them, self.theirs, changes[self.opponent])
        player, cpu = (own, theirs) if self.actor is _PLAYER else (theirs, own)
        return self.state.turned(
            player,
            cpu,
            phase,
            selecting,
            turn,
            turn_number,
            deadline,
            winner,
            finish_reason,
            version,
        )

    @staticmethod
    def _side(fighter: Fighter, before: SideState, changed: dict[str, Any]) -> SideState:
        """One side as the action leaves it: its fighter frozen, ``changed`` applied."""
        creatures = before.creatures
        creature = fighter.freeze()
        if creature is not fighter.before:
            listed = list(creatures)
            listed[fighter.index] = creature
            creatures = tuple(listed)
        elif not changed:
            return before
        if not changed:
            return SideState(
                creatures, before.power_cards, before.discarded, before.active, before.choice
            )
        return SideState(
            creatures,
            before.power_cards,
            changed.get("discarded", before.discarded),
            changed.get("active", before.active),
            changed.get("choice", before.choice),
        )
