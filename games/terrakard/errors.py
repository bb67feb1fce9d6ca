"""The stable codes of TerraKard's refusals (games.kit.refusal): API clients may switch
on them; the battle service answers them with 409 (a stale view, usually)."""

from __future__ import annotations

from enum import StrEnum


class RefusalCode(StrEnum):
    INVALID_ACTION = "invalid_action"  # a malformed action
    ATTACK_FINISHED = "attack_finished"
    NOT_YOUR_SEAT = "not_your_seat"  # the defense is a saved plan: it never acts
    WRONG_PHASE = "wrong_phase"  # e.g. a card during the question
    UNKNOWN_CARD = "unknown_card"
    CARD_ALREADY_PLAYED = "card_already_played"
    UNKNOWN_CHOICE = "unknown_choice"
    ANSWER_NOT_MARKED = "answer_not_marked"  # the host did not mark the answer
    NOT_OVERDUE = "not_overdue"  # a timeout before the deadline
