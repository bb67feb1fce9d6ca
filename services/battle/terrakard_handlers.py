"""TerraKard's use cases in battle: start an attack, act in it (an answer marked with
the key authoring gives battle alone), the arena, and the defender's reports. Reading
an attack, its history and the sweeper are the generic ones (handlers.py).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from games.terrakard.actions import ActionKind, marked
from services.battle import handlers, host, match_seeds
from services.battle.games import hosted
from services.battle.games import terrakard as tk
from services.battle.handlers import UnitOfWorkFactory
from services.battle.host import Match
from shared.clock import Clock
from shared.errors import Conflict, NotFound
from shared.randomness import RandomSource

ARENA_SIZE = 10  # ours: targets offered at once
REPORTS_LIMIT = 50


@dataclass(frozen=True)
class StartAttack:
    player_id: uuid.UUID
    deck_id: uuid.UUID
    target_id: uuid.UUID  # the arena's id of the defender, never an account id
    questions: bool = True


def start_attack(
    cmd: StartAttack,
    services: tk.Services,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> dict[str, Any]:
    """Confirm a target: the plan snapshotted, the defense reserved for this attack (one
    live attack per defender and per attacker: the seats' unique index decides a race)."""
    now = clock.now()
    since = now - timedelta(hours=tk.REPEAT_HOURS)
    found = services.cards.call("terrakard_target", target_id=str(cmd.target_id))
    defender_id = uuid.UUID(str(found["player_id"]))
    with unit_of_work() as uow:
        if uow.matches.active_id(cmd.player_id, tk.GAME, tk.ATTACK_MODE) is not None:
            raise _busy_attacker(uow, cmd.player_id)
        if defender_id in uow.matches.opponents_since(
            cmd.player_id, tk.GAME, tk.ATTACK_MODE, since
        ):
            raise Conflict(
                "target_recently_attacked",
                f"you attacked this player less than {tk.REPEAT_HOURS} hours ago",
            )
    # Outside any transaction: three services answer.
    seats, brings = tk.attack_setup(
        services, cmd.player_id, cmd.deck_id, defender_id, cmd.questions
    )
    game = hosted(tk.GAME)
    match_id = new_id()
    settings = tk.terrain_rolled(services, cmd.player_id, match_id)
    match, initial, steps = host.start(
        game, match_id, tk.ATTACK_MODE, seats, brings, settings, rng.seed_for_child(), now
    )
    match = match_seeds.salted(match, rng)
    with unit_of_work() as uow:
        for player_id in match.players:
            uow.players.admit(player_id)
        if not uow.matches.add_if_no_active(match, initial):
            if uow.matches.active_id(cmd.player_id, tk.GAME, tk.ATTACK_MODE) is not None:
                raise _busy_attacker(uow, cmd.player_id)
            raise Conflict("target_under_attack", "this defense is being attacked; try another")
        uow.matches.add_steps(match.id, steps)
    return game.views.match(match, seats[0])


def _busy_attacker(uow: Any, player_id: uuid.UUID) -> Conflict:
    found = uow.matches.active_id(player_id, tk.GAME, tk.ATTACK_MODE)
    return Conflict(
        "active_match_exists",
        "you are already attacking: finish or give up that attack first",
        {"match_id": None if found is None else str(found)},
    )


def act(
    cmd: handlers.Act,
    services: tk.Services,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
) -> dict[str, Any]:
    """An attacker's action. An answer is marked by the server: the waiting question's
    key is asked of authoring (outside the transaction), and the answer is marked only
    if that question still waits when the match is locked; otherwise it stays unmarked
    and the engine refuses it."""
    action = host.parse_action(hosted(tk.GAME), cmd.action)
    mark = None
    if action.kind is ActionKind.ANSWER:
        with unit_of_work() as uow:
            match = uow.matches.get(cmd.match_id)
            waiting = None if match is None else tk.pending_question(match.state)
        if waiting is not None:
            key = int(
                services.authoring.call("terrakard_answer_key", question_id=waiting)["answer"]
            )

            def mark(locked: Match, sent: Any) -> Any:
                if tk.pending_question(locked.state) != waiting:
                    return sent
                return marked(sent, key)

    unmarked = {k: v for k, v in cmd.action.items() if k != "correct"}  # never the client's
    plain = handlers.Act(
        cmd.player_id, cmd.match_id, cmd.expected_version, unmarked, cmd.idempotency_key, tk.GAME
    )
    with unit_of_work() as uow:
        return handlers.act(plain, uow, clock, mark)


def arena(
    player_id: uuid.UUID, services: tk.Services, unit_of_work: UnitOfWorkFactory, clock: Clock
) -> dict[str, Any]:
    """Ours: TerraKard players whose level is within ``LEVEL_GAP`` of yours, not you, not
    attacked by you in the last ``REPEAT_HOURS`` hours; the closest levels first, then
    players with a saved plan, then the most recently seen."""
    level = tk.level_of(services, player_id)
    since = clock.now() - timedelta(hours=tk.REPEAT_HOURS)
    with unit_of_work() as uow:
        recent = uow.matches.opponents_since(player_id, tk.GAME, tk.ATTACK_MODE, since)
    found = services.cards.call(
        "terrakard_defenders",
        low=max(1, level - tk.LEVEL_GAP),
        high=level + tk.LEVEL_GAP,
        exclude=[str(player_id), *(str(r) for r in recent)],
        limit=ARENA_SIZE * 5,
    )
    ranked = sorted(
        enumerate(found), key=lambda p: (abs(p[1]["level"] - level), not p[1]["has_plan"], p[0])
    )
    return {
        "level": level,
        "items": [
            {
                "target_id": str(f["target_id"]),
                "pseudonym": tk.pseudonym(uuid.UUID(str(f["player_id"]))),
                "level": f["level"],
                "trophies": tk.TROPHIES,
                "automatic": not f["has_plan"],
            }
            for _, f in ranked[:ARENA_SIZE]
        ],
    }


def defense_reports(player_id: uuid.UUID, unit_of_work: UnitOfWorkFactory) -> dict[str, Any]:
    with unit_of_work() as uow:
        found = uow.matches.defended(player_id, tk.GAME, REPORTS_LIMIT)
    return {"items": [tk.report_view(m) for m in found]}


def defense_report(
    player_id: uuid.UUID, match_id: uuid.UUID, unit_of_work: UnitOfWorkFactory
) -> dict[str, Any]:
    """One finished attack against the player's defense, with its log to watch again."""
    with unit_of_work() as uow:
        match = uow.matches.get(match_id)
        defender = None if match is None or match.game != tk.GAME else tk.defender_of(match)
        if match is None or defender != player_id or match.status is not host.Status.FINISHED:
            raise NotFound("report_not_found", "there is no such defense report")
        return tk.report_view(match, uow.matches.steps(match.id))
