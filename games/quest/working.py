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

from typing import Any

from games.kit.frozen import evolve
from games.quest.cards import CreatureCard
from games.quest.state import Creature, MatchState, Side
from games.quest.statuses import Statuses

NO_STATUSES = Statuses()


class Fighter:
    """An active Creature as this action leaves it so far."""

    __slots__ = ("before", "card", "hp", "index", "name", "power", "side", "statuses", "used_moves")

    def __init__(self, side: Side, index: int, creature: Creature) -> None:
        self.before = creature
        self.side = str(side)  # as events name it
        self.index = index
        self.card: CreatureCard = creature.card
        self.name = creature.card.name
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
        return evolve(
            before,
            hp=self.hp,
            power=self.power,
            statuses=self.statuses,
            used_moves=self.used_moves,
        )


class Step:
    """One normal-turn action of ``actor`` on ``state`` in working form.

    ``me`` and ``them``: the actor's and the opponent's active Creatures (a normal turn
    always has both). ``side_changes``: fields of each side to change (``active``,
    ``discarded``, ``choice``). ``events``: what happened, in order.
    """

    __slots__ = ("actor", "events", "me", "opponent", "side_changes", "state", "them")

    def __init__(self, state: MatchState, actor: Side) -> None:
        self.state = state
        self.actor = actor
        opponent = Side.CPU if actor is Side.PLAYER else Side.PLAYER
        self.opponent = opponent
        own, theirs = (
            (state.player, state.cpu) if actor is Side.PLAYER else (state.cpu, state.player)
        )
        if own.active is None or theirs.active is None:
            raise ValueError("a normal-turn action needs both active Creatures")
        self.me = Fighter(actor, own.active, own.creatures[own.active])
        self.them = Fighter(opponent, theirs.active, theirs.creatures[theirs.active])
        self.side_changes: dict[Side, dict[str, Any]] = {actor: {}, opponent: {}}
        self.events: list[dict[str, Any]] = []

    def fighter(self, side: Side) -> Fighter:
        return self.me if side is self.actor else self.them

    def has_living(self, side: Side) -> bool:
        """Whether ``side`` has a living Creature (its active one as it is now)."""
        fighter = self.fighter(side)
        if fighter.hp > 0:
            return True
        creatures = self.state.side(side).creatures
        return any(c.hp > 0 for i, c in enumerate(creatures) if i != fighter.index)

    def clear_defeated(self) -> bool:
        """A defeated Creature's effects end with it (docs, "Terms"). Whether one is."""
        defeated = False
        for fighter in (self.me, self.them):
            if fighter.hp == 0:
                defeated = True
                if fighter.statuses != NO_STATUSES:
                    fighter.statuses = NO_STATUSES
        return defeated

    def freeze(self, **fields: Any) -> MatchState:
        """The new match: the Creatures and sides that changed, and ``fields``."""
        state = self.state
        for fighter, side in ((self.me, self.actor), (self.them, self.opponent)):
            changes = self.side_changes[side]
            creature = fighter.freeze()
            if creature is not fighter.before:
                creatures = list(state.side(side).creatures)
                creatures[fighter.index] = creature
                changes["creatures"] = tuple(creatures)
            if changes:
                fields[str(side)] = evolve(state.side(side), **changes)
        return evolve(state, **fields)
