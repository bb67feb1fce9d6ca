"""What one seat may see of an attack: the only thing a host serialises.

The attacker sees its own deck, the reconnaissance (the defender's pseudonym, level
and trophies, the terrain, and the defense cards' categories in the cycle's order, not
the plan's; none under Fog), the defense cards as they are revealed, the question while
it waits (its prompt, three answers and stake; never an answer key, which the engine
does not have) and each round's damage. It never sees an unrevealed plan card, the
reserve before it comes in, the reserve's condition before it is met, nor the posture.

The defender (its plan defended on its own) sees its plan, the attacker's cards as they
were played, and everything that happened: the report of games/terrakard/report.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.kit.protocol import Event
from games.terrakard.content import CYCLE
from games.terrakard.report import defense_report, round_view
from games.terrakard.rules import knowledge_of, legal_actions, stake
from games.terrakard.state import ATTACKER, DEFENDER, AttackState, Phase
from games.terrakard.terrains import percent, terrain_to_dict


def reconnaissance(state: AttackState) -> dict[str, Any]:
    defense = state.defense
    categories = None
    if not state.terrain.hides_categories:
        planned = [c.category for c in defense.plan.rounds]
        categories = [str(c) for c in sorted(planned, key=CYCLE.index)]
    return {
        "pseudonym": defense.pseudonym,
        "level": defense.level,
        "trophies": defense.trophies,
        "terrain": terrain_to_dict(state.terrain),
        "categories": categories,
    }


def _question(state: AttackState) -> dict[str, Any] | None:
    asked = state.question
    if asked is None:
        return None
    shown: dict[str, Any] = asked.to_dict()
    if state.phase is Phase.QUESTION and state.played is not None:
        plan = state.defense.plan
        card = plan.reserve if state.played.reserve else plan.rounds[state.round - 1]
        assert card.question is not None
        shown.update(card.question.to_dict(), stake=stake(state))
    knowledge = knowledge_of(state)
    shown["effect"] = None if knowledge is None else percent(knowledge.effect)
    return shown


def _common(state: AttackState, seat: str) -> dict[str, Any]:
    return {
        "seat": seat,
        "phase": str(state.phase),
        "round": state.round,
        "deadline": None if state.deadline is None else state.deadline.isoformat(),
        "version": state.version,
        "attacker_hp": state.attacker_hp,
        "defense_hp": state.defense_hp,
        "start_hp": state.start_hp,
        "terrain": state.terrain.name,
        "rounds": [round_view(state, r) for r in state.rounds],
        "question": _question(state),
        "result": None
        if not state.finished
        else {
            "stars": state.stars,
            "winner": ATTACKER if state.attacker_won else DEFENDER,
            "reason": str(state.finish_reason),
        },
        "legal_actions": [a.to_dict() for a in legal_actions(state, seat)],
    }


def _revealed_now(state: AttackState) -> dict[str, Any] | None:
    """The defense card revealed this round while the question waits."""
    if state.played is None:
        return None
    plan = state.defense.plan
    card = plan.reserve if state.played.reserve else plan.rounds[state.round - 1]
    return {"round": state.round, "reserve": state.played.reserve, "card": card.public_dict()}


def view(state: AttackState, seat: str) -> dict[str, Any]:
    """A JSON-friendly dict for ``seat`` ("attacker" or "defender")."""
    if seat == ATTACKER:
        deck = state.attacker.deck
        return {
            **_common(state, seat),
            "reconnaissance": reconnaissance(state),
            "deck": [
                {**card.public_dict(), "index": i, "used": i in state.used}
                for i, card in enumerate(deck)
            ],
            "questions": state.attacker.questions,
            "revealed_now": _revealed_now(state),
        }
    if seat == DEFENDER:
        return {
            **_common(state, seat),
            "plan": state.defense.plan.to_dict(),
            "automatic": state.defense.automatic,
            "report": defense_report(state) if state.finished else None,
        }
    raise ValueError(f"no seat {seat!r} in an attack")


def view_events(events: Iterable[Event], seat: str) -> list[Event]:
    """The events as ``seat`` may see them. The engine's events carry nothing a seat may
    not see (a defense card appears when revealed; no answer key exists here); a copy
    each, so a host may change them freely."""
    if seat not in (ATTACKER, DEFENDER):
        raise ValueError(f"no seat {seat!r} in an attack")
    return [dict(e) for e in events]
