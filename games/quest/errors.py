"""The one refusal of the Quest engine: an action the rules refuse.

``apply`` raises it before changing anything (the input state is never
mutated anyway), so a refused request leaves the match as it was. It carries
no HTTP status: the battle service answers it with a 409 Conflict, since the
usual cause is a stale client acting on an old view.
"""

from __future__ import annotations

from enum import StrEnum

from games.kit.refusal import Refusal


class RefusalCode(StrEnum):
    """The stable codes an ``IllegalAction`` carries (API clients may switch on them)."""

    MATCH_FINISHED = "match_finished"
    WRONG_PHASE = "wrong_phase"  # e.g. a move during initial selection
    NOT_YOUR_TURN = "not_your_turn"
    NOTHING_TO_SELECT = "nothing_to_select"  # this side has no selection to make now
    UNKNOWN_MOVE = "unknown_move"
    UNKNOWN_CREATURE = "unknown_creature"
    UNKNOWN_POWER_CARD = "unknown_power_card"
    NOT_ENOUGH_POWER = "not_enough_power"
    CONDITION_UNMET = "condition_unmet"
    STUNNED = "stunned"
    CREATURE_DEFEATED = "creature_defeated"
    CREATURE_ALREADY_ACTIVE = "creature_already_active"
    POWER_CARD_DISCARDED = "power_card_discarded"
    NO_ACTIVE_CREATURE = "no_active_creature"
    INVALID_ACTION = "invalid_action"  # a malformed action dict


class IllegalAction(Refusal):
    """``IllegalAction(code, message, details)``; ``code`` is a ``RefusalCode`` value."""
