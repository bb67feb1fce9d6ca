"""TerraKard in battle: an attack's seats and what they bring, the knowledge questions'
faces, and what the attacker may see (docs/terrakard.md, "Hosting").

The attacker is a player acting live; the defender is a saved plan (seat kind
``plan``: its owner never acts). At the start battle asks accounts both levels, cards
the attacker's deck and the defender's active plan (or the automatic plan), and
authoring the published questions' faces (never their keys). A key is asked for only
when an answer arrives, and only by battle (``terrakard_answer_key``). Views are the
engine's attacker view with the match's own fields: never the plan, the reserve, an
unrevealed card or a key.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from games.terrakard import demo_defenders
from games.terrakard.actions import ActionKind
from games.terrakard.content import Card
from games.terrakard.engine import Settings
from games.terrakard.game import TERRAKARD
from games.terrakard.plans import DefensePlan
from games.terrakard.report import defense_report
from games.terrakard.state import ATTACKER, DEFENDER, AttackerSide, AttackState, DefenseSide, Phase
from services.battle import terrakard_arena as arena_effects
from services.battle.host import HostedGame, Match, Seat, SeatKind, Step
from shared.errors import Conflict, InvalidInput

GAME = TERRAKARD.game
ATTACK_MODE = "attack"
# Ours: the arena and the attack start allow a level difference of at most this much.
LEVEL_GAP = 2
# Ours: the same attacker may attack the same defender once in this many hours.
REPEAT_HOURS = 12
TUTORIAL_MODE = arena_effects.TUTORIAL_MODE
TRAINING_PLAN = "Training plan"  # ours: the tutorial's defense, as the attacker sees it


class Client(Protocol):
    def call(self, method: str, **kwargs: Any) -> Any: ...


class Services(Protocol):
    cards: Client
    accounts: Client
    authoring: Client


def pseudonym(player_id: uuid.UUID | None) -> str:
    """Ours: a player's TerraKard pseudonym, derived from the id (accounts keeps no
    names); a deleted player's is "Deleted player"; a demo defender's, its name marked
    "(demo)"."""
    if player_id is None:
        return "Deleted player"
    demo = demo_defenders.by_player(player_id)
    if demo is not None:  # not a player: named as a demo (games/terrakard/demo_defenders.py)
        return demo.display_name
    return "Keeper-" + hashlib.sha256(str(player_id).encode()).hexdigest()[:6]


def _with_questions(
    cards: Sequence[Mapping[str, Any]], lineages: Mapping[str, str], faces: Mapping[str, Any]
) -> list[dict[str, Any]]:
    return [{**card, "question": faces.get(lineages.get(str(card["id"]), ""))} for card in cards]


TERRAIN_PURPOSE = "terrakard.terrain"
TERRAIN_SOURCE = "attack"


def terrain_rolled(services: Services, attacker_id: uuid.UUID, match_id: uuid.UUID) -> Settings:
    """The attack's terrain, a provably fair roll of the attacker's own seeds
    (docs/fairness.md): cards draws it uniformly among this season's terrains (by name,
    in the list's order) and stores it, keyed by the attack, before it is shown; the
    engine then draws from that one terrain."""
    terrains = Settings().terrains
    found = services.cards.call(
        "fair_choice",
        player_id=str(attacker_id),
        purpose=TERRAIN_PURPOSE,
        key="terrain",
        source_type=TERRAIN_SOURCE,
        source_id=str(match_id),
        options=[t.name for t in terrains],
    )
    return Settings(terrains=(next(t for t in terrains if t.name == found["outcome"]),))


@dataclass(frozen=True)
class Profile:
    """What an attack's start needs of a player's arena row."""

    player_id: uuid.UUID
    level: int
    trophies: int


def attacker_deck(
    services: Services, attacker: Profile, deck_id: uuid.UUID, questions: bool
) -> tuple[Seat, AttackerSide]:
    """The attacker's seat and its deck snapshot at their level."""
    deck = services.cards.call(
        "terrakard_deck_for_attack",
        player_id=str(attacker.player_id),
        deck_id=str(deck_id),
        level=attacker.level,
    )
    side = AttackerSide(tuple(Card.from_dict({**c, "question": None}) for c in deck["cards"]),
                        questions)  # fmt: skip
    seat = Seat(ATTACKER, SeatKind.PLAYER, attacker.player_id,
                uuid.UUID(str(deck["deck_id"])), int(deck["version"]))  # fmt: skip
    return seat, side


def tutorial_setup(
    services: Services, attacker: Profile, deck_id: uuid.UUID
) -> tuple[list[Seat], dict[str, Any]]:
    """Ours: the tutorial, a first attack against the training plan (cards'), which is
    no one's: its seat has no player; no question is asked."""
    seat, side = attacker_deck(services, attacker, deck_id, False)
    plan = services.cards.call("terrakard_training_plan")["plan"]
    defender = DefenseSide(DefensePlan.from_dict(plan), TRAINING_PLAN, 1, 0, automatic=True)
    seats = [seat, Seat(DEFENDER, SeatKind.PLAN, None, None, None)]
    return seats, {ATTACKER: side, DEFENDER: defender}


def attack_setup(
    services: Services,
    attacker: Profile,
    deck_id: uuid.UUID,
    defender_profile: Profile,
    questions: bool,
) -> tuple[list[Seat], dict[str, Any]]:
    """The seats of an attack and their snapshots: the attacker's deck at their level,
    the defender's plan (or automatic plan) with its cards' question faces."""
    attacker_id, defender_id = attacker.player_id, defender_profile.player_id
    defender_level = defender_profile.level
    if attacker_id == defender_id:
        raise InvalidInput("cannot_attack_yourself", "you cannot attack your own defense")
    if abs(attacker.level - defender_level) > LEVEL_GAP:
        raise Conflict("target_not_allowed", "this player's level is not close to yours")
    attacker_seat, attacker_side = attacker_deck(services, attacker, deck_id, questions)
    demo = demo_defenders.by_player(defender_id)
    if demo is None:
        defense = services.cards.call(
            "terrakard_defense_for_attack", player_id=str(defender_id), level=defender_level
        )
    else:  # its plan, from the catalogue as published now (no one's copies)
        defense = services.cards.call("terrakard_demo_defense", key=demo.key)
    lineages = defense["lineages"]
    faces = services.authoring.call(
        "terrakard_questions", lineage_ids=sorted(set(lineages.values()))
    )
    plan = dict(defense["plan"])
    plan["rounds"] = _with_questions(plan["rounds"], lineages, faces)
    plan["reserve"] = _with_questions([plan["reserve"]], lineages, faces)[0]
    defender = DefenseSide(
        DefensePlan.from_dict(plan),
        pseudonym(defender_id),
        defender_level,
        defender_profile.trophies,
        automatic=bool(defense["automatic"]),
    )
    plan_id = defense["plan_id"]
    seats = [
        attacker_seat,
        Seat(DEFENDER, SeatKind.PLAN, defender_id,
             None if plan_id is None else uuid.UUID(str(plan_id)), defense["version"]),
    ]  # fmt: skip
    return seats, {ATTACKER: attacker_side, DEFENDER: defender}


def pending_question(state: AttackState) -> str | None:
    """The id of the question waiting for an answer, if one is."""
    if state.phase is not Phase.QUESTION or state.played is None:
        return None
    plan = state.defense.plan
    card = plan.reserve if state.played.reserve else plan.rounds[state.round - 1]
    return None if card.question is None else card.question.question_id


def client_part(action: Mapping[str, Any]) -> dict[str, Any]:
    """What a client sent of a logged action: an answer without the server's mark."""
    if action.get("kind") == ActionKind.ANSWER:
        return {k: v for k, v in action.items() if k != "correct"}
    return dict(action)


# -- views --------------------------------------------------------------------------------


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _attacker(match: Match) -> Seat:
    return next(s for s in match.seats if s.name == ATTACKER)


def _defender(match: Match) -> Seat:
    return next(s for s in match.seats if s.name == DEFENDER)


def defender_of(match: Match) -> uuid.UUID | None:
    """The owner of the defending plan."""
    return _defender(match).player_id


def _engine_view(state: AttackState) -> dict[str, Any]:
    """The engine's attacker view without the defender's copy ids (another account's
    identifiers): a revealed defense card shows its face only."""
    view = TERRAKARD.view(state, ATTACKER)
    revealed = view.get("revealed_now")
    if revealed is not None:
        card = {k: v for k, v in revealed["card"].items() if k != "id"}
        view["revealed_now"] = {**revealed, "card": card}
    return view


def attack_view(match: Match) -> dict[str, Any]:
    seat = _attacker(match)
    return {
        **_scrub(_engine_view(match.state), _defender_copies(match)),
        "id": str(match.id),
        "mode": match.mode,
        "deck_id": None if seat.ref_id is None else str(seat.ref_id),
        "defender": _defender_name(match),
        "status": str(match.status),
        "outcome": seat.result,
        "created_at": _time(match.created_at),
        "finished_at": _time(match.finished_at),
    }


def attack_summary(match: Match) -> dict[str, Any]:
    """One line of the attacker's list: whom, where, how it ended (no plan, no copy)."""
    state: AttackState = match.state
    return {
        "id": str(match.id),
        "mode": match.mode,
        "defender": _defender_name(match),
        "terrain": state.terrain.name,
        "status": str(match.status),
        "outcome": _attacker(match).result,
        "stars": state.stars if state.finished else None,
        "rounds_played": len(state.rounds),
        "created_at": _time(match.created_at),
        "finished_at": _time(match.finished_at),
    }


def _defender_name(match: Match) -> str:
    if match.mode == TUTORIAL_MODE:
        return TRAINING_PLAN
    return pseudonym(_defender(match).player_id)


def _defender_copies(match: Match) -> frozenset[str]:
    return frozenset(c.card_id for c in match.state.defense.plan.cards)


def _scrub(value: Any, hidden: frozenset[str]) -> Any:
    """``value`` without any ``id`` naming one of the defender's copies (another
    account's identifiers): a revealed card is shown by its face."""
    if isinstance(value, dict):
        return {k: _scrub(v, hidden) for k, v in value.items() if not (k == "id" and v in hidden)}
    if isinstance(value, list):
        return [_scrub(v, hidden) for v in value]
    return value


def _events(match: Match, steps: Sequence[Step]) -> list[dict[str, Any]]:
    events = TERRAKARD.view_events([e for s in steps for e in s.events], ATTACKER)
    return list(_scrub(events, _defender_copies(match)))


def history_view(match: Match, steps: Sequence[Step]) -> dict[str, Any]:
    hidden = _defender_copies(match)
    return {
        "match_id": str(match.id),
        "status": str(match.status),
        "outcome": _attacker(match).result,
        "version": match.version,
        "entries": [
            {
                "seq": s.version,
                "action": client_part(s.action),
                "at": _time(s.at),
                "events": _scrub(TERRAKARD.view_events(s.events, ATTACKER), hidden),
            }
            for s in steps
        ],
    }


def report_view(match: Match, steps: Sequence[Step] | None = None) -> dict[str, Any]:
    """A finished attack as its defender sees it: the report (and, asked for one attack,
    the whole log to watch it again)."""
    found: dict[str, Any] = {
        "match_id": str(match.id),
        "attacker": pseudonym(_attacker(match).player_id),
        "result": _defender(match).result,
        "attacker_result": _attacker(match).result,
        "finished_at": _time(match.finished_at),
        "report": defense_report(match.state),
    }
    if steps is not None:
        # The attacker's copies are another account's identifiers: faces only.
        hidden = frozenset(c.card_id for c in match.state.attacker.deck)
        found["replay"] = [
            {"seq": s.version, "action": client_part(s.action), "at": _time(s.at),
             "events": _scrub(TERRAKARD.view_events(s.events, DEFENDER), hidden)}
            for s in steps
        ]  # fmt: skip
    return found


class TerraKardViews:
    """The attack routes' answers: the attacker's seat only (the defender reads reports)."""

    def match(self, match: Match, seat: Seat) -> dict[str, Any]:
        return attack_view(match)

    def result(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return {**attack_view(match), "events": _events(match, steps)}

    def history(self, match: Match, seat: Seat, steps: Sequence[Step]) -> dict[str, Any]:
        return history_view(match, steps)


# Ours: one live attack per attacker, and (the plan seat's rule) one per defender:
# "the defense is reserved for your attack".
# A finished attack (or tutorial) changes the arena in the same transaction.
HOSTED = HostedGame(
    TERRAKARD, TerraKardViews(), None, one_active=frozenset({ATTACK_MODE, TUTORIAL_MODE}),
    client_part=client_part, on_finished=arena_effects.on_finished,
)  # fmt: skip
