"""The defender's report (rules/terrakard.txt: "the defender is told and can watch the
fight again"): what happened to the plan, round by round. The attack itself can be
watched again by replaying its seed and action log (games/terrakard/engine.py).

Ours, what it holds: the terrain; whether the plan was automatic; for each round the
attacker's card (name, category, rarity; whether the server played it), the defense
card (and whether it was the reserve), the damage both ways and the hit points after;
the round the reserve came in and its condition; the question's round, difficulty and
whether it was answered right, wrong, skipped or timed out (not the answer chosen);
the stars and how the attack ended.
"""

from __future__ import annotations

from typing import Any

from games.terrakard.content import Card
from games.terrakard.state import AttackState, RoundRecord


def _face(card: Card) -> dict[str, Any]:
    return {"name": card.name, "category": str(card.category), "rarity": str(card.rarity)}


def round_view(state: AttackState, record: RoundRecord) -> dict[str, Any]:
    """One played round, as either seat may see it (both cards were revealed)."""
    plan = state.defense.plan
    played = record.played
    defense = plan.reserve if played.reserve else plan.rounds[record.number - 1]
    return {
        "round": record.number,
        "attacker_card": {**_face(state.attacker.deck[played.card]), "auto": played.auto},
        "defense_card": {**_face(defense), "reserve": played.reserve},
        "to_defense": record.to_defense,
        "to_attacker": record.to_attacker,
        "attacker_hp": record.attacker_hp,
        "defense_hp": record.defense_hp,
        "knowledge": record.knowledge,
    }


def defense_report(state: AttackState) -> dict[str, Any]:
    asked = state.question
    reserve = None
    if state.reserve_round is not None:
        reserve = {"round": state.reserve_round, **state.defense.plan.condition.to_dict()}
    return {
        "terrain": state.terrain.name,
        "automatic": state.defense.automatic,
        "posture": str(state.defense.plan.posture),
        "rounds": [round_view(state, r) for r in state.rounds],
        "reserve": reserve,
        "question": None
        if asked is None
        else {
            "round": asked.round,
            "difficulty": str(asked.difficulty),
            "answered": None if asked.answered is None else str(asked.answered),
        },
        "stars": state.stars,
        "defense_won": state.finished and not state.attacker_won,
        "reason": None if state.finish_reason is None else str(state.finish_reason),
        "attacker_hp": state.attacker_hp,
        "defense_hp": state.defense_hp,
    }
