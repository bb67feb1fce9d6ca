"""What the attacker's seat can ask for, as small JSON-friendly values.

- ``begin``: end the reconnaissance and start round 1.
- ``play`` (``card``: the index in the attack deck): this round's card.
- ``answer`` (``choice``: 0, 1 or 2, and ``correct``): the knowledge question's answer.
  Correctness is the server's: the engine never holds an answer key. A host marks a
  client's answer with ``marked(action, answer_key)`` before applying it (whatever the
  client sent as ``correct`` is overwritten); the engine refuses an unmarked answer.
- ``skip``: no answer (no effect).
- ``give_up``: a defeat; the ticket stays spent.
- ``timeout``: what time alone does once the phase's deadline has passed (the host's
  ``timeouts``); refused before it.

The defender's seat is a saved plan: it never acts.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from games.kit.frozen import Frozen
from games.kit.refusal import Refusal
from games.terrakard.errors import RefusalCode


class ActionKind(StrEnum):
    BEGIN = "begin"
    PLAY = "play"
    ANSWER = "answer"
    SKIP = "skip"
    GIVE_UP = "give_up"
    TIMEOUT = "timeout"


class Action(Frozen):
    """Frozen by convention (``games.kit.frozen.Frozen``: compiled, a native class)."""

    kind: ActionKind
    card: int | None  # play
    choice: int | None  # answer
    correct: bool | None  # answer, as the server marked it

    def __init__(
        self,
        kind: ActionKind,
        card: int | None = None,
        choice: int | None = None,
        correct: bool | None = None,
    ) -> None:
        self.kind = kind
        self.card = card
        self.choice = choice
        self.correct = correct

    def fields(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "card": self.card,
            "choice": self.choice,
            "correct": self.correct,
        }

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": str(self.kind)}
        if self.kind is ActionKind.PLAY:
            data["card"] = self.card
        if self.kind is ActionKind.ANSWER:
            data["choice"] = self.choice
            if self.correct is not None:
                data["correct"] = self.correct
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping):
            raise Refusal(RefusalCode.INVALID_ACTION, "an action is a JSON object")
        try:
            kind = ActionKind(str(data.get("kind")))
        except ValueError:
            raise Refusal(
                RefusalCode.INVALID_ACTION, f"unknown action kind {data.get('kind')!r}"
            ) from None
        allowed = {"kind"} | {
            ActionKind.PLAY: {"card"},
            ActionKind.ANSWER: {"choice", "correct"},
        }.get(kind, set())
        if set(data) - allowed:
            raise Refusal(RefusalCode.INVALID_ACTION, f"{kind} takes only {sorted(allowed)}")
        if kind is ActionKind.PLAY:
            return cls(kind, card=_index(data.get("card"), "card"))
        if kind is ActionKind.ANSWER:
            correct = data.get("correct")
            if correct is not None and not isinstance(correct, bool):
                raise Refusal(RefusalCode.INVALID_ACTION, "correct is true or false")
            return cls(kind, choice=_index(data.get("choice"), "choice"), correct=correct)
        return cls(kind)


def _index(value: Any, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise Refusal(RefusalCode.INVALID_ACTION, f"{name} is an index (0 or more)")
    return value


# The actions without a card or a choice, and the plays of the first cards, made once:
# an Action is frozen, so one object serves every attack (legal_actions lists them at
# every step).
_BEGIN = Action(ActionKind.BEGIN)
_SKIP = Action(ActionKind.SKIP)
_GIVE_UP = Action(ActionKind.GIVE_UP)
_TIMEOUT = Action(ActionKind.TIMEOUT)
PLAYS = tuple(Action(ActionKind.PLAY, card=i) for i in range(16))  # play(i), i < 16


def begin() -> Action:
    return _BEGIN


def play(card: int) -> Action:
    if 0 <= card < len(PLAYS):
        return PLAYS[card]
    return Action(ActionKind.PLAY, card=card)


def answer(choice: int, correct: bool) -> Action:
    return Action(ActionKind.ANSWER, choice=choice, correct=correct)


def skip() -> Action:
    return _SKIP


def give_up() -> Action:
    return _GIVE_UP


def timeout() -> Action:
    return _TIMEOUT


def marked(action: Action, answer_key: int) -> Action:
    """A client's answer as the server marks it: right when its choice is the key.
    Any other action comes back as it was."""
    if action.kind is not ActionKind.ANSWER:
        return action
    return Action(ActionKind.ANSWER, choice=action.choice, correct=action.choice == answer_key)
