"""TerraKard's plans and players in PostgreSQL. Every query is scoped to the owning
player, so another player's plan id reads exactly like an unknown one."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert
from sqlalchemy.orm import Session

from services.cards.orm import terrakard_plans, terrakard_players


@dataclass(frozen=True)
class Plan:
    id: uuid.UUID
    player_id: uuid.UUID
    name: str
    version: int
    rounds: tuple[uuid.UUID, ...]
    reserve: uuid.UUID
    condition: Mapping[str, Any]
    posture: str
    created_at: datetime
    updated_at: datetime

    @property
    def copy_ids(self) -> tuple[uuid.UUID, ...]:
        return (*self.rounds, self.reserve)


@dataclass(frozen=True)
class TerraKardPlayer:
    player_id: uuid.UUID
    started_at: datetime
    active_plan_id: uuid.UUID | None
    level: int
    target_id: uuid.UUID


def _player(row: Any) -> TerraKardPlayer:
    return TerraKardPlayer(
        row.player_id, row.started_at, row.active_plan_id, row.level, row.target_id
    )


def _plan(row: Any) -> Plan:
    r = row._mapping
    return Plan(
        r["id"], r["player_id"], r["name"], r["version"],
        tuple(uuid.UUID(c) for c in r["rounds"]), r["reserve"], r["condition"], r["posture"],
        r["created_at"], r["updated_at"],
    )  # fmt: skip


class SqlTerraKard:
    def __init__(self, session: Session) -> None:
        self._session = session

    # -- players --------------------------------------------------------------------------

    def player(self, player_id: uuid.UUID, *, for_update: bool = False) -> TerraKardPlayer | None:
        query = select(terrakard_players).where(terrakard_players.c.player_id == player_id)
        row = self._session.execute(query.with_for_update() if for_update else query).first()
        return None if row is None else _player(row)

    def by_target(self, target_id: uuid.UUID) -> TerraKardPlayer | None:
        row = self._session.execute(
            select(terrakard_players).where(terrakard_players.c.target_id == target_id)
        ).first()
        return None if row is None else _player(row)

    def players_by_ids(self, player_ids: Sequence[uuid.UUID]) -> list[TerraKardPlayer]:
        rows = self._session.execute(
            select(terrakard_players).where(terrakard_players.c.player_id.in_(list(player_ids)))
        ).all()
        return [_player(r) for r in rows]

    def start_if_new(self, player_id: uuid.UUID, level: int, now: datetime) -> bool:
        """The player's row, once (a concurrent start waits, then finds it)."""
        inserted = self._session.execute(
            insert(terrakard_players)
            .values(
                player_id=player_id,
                target_id=uuid.uuid4(),
                started_at=now,
                level=level,
                seen_at=now,
            )
            .on_conflict_do_nothing(index_elements=["player_id"])
            .returning(terrakard_players.c.player_id)
        ).first()
        return inserted is not None

    def seen(self, player_id: uuid.UUID, level: int, now: datetime) -> None:
        self._session.execute(
            update(terrakard_players)
            .where(terrakard_players.c.player_id == player_id)
            .values(level=level, seen_at=now)
        )

    def activate(self, player_id: uuid.UUID, plan_id: uuid.UUID | None) -> None:
        self._session.execute(
            update(terrakard_players)
            .where(terrakard_players.c.player_id == player_id)
            .values(active_plan_id=plan_id)
        )

    def defenders(
        self, low: int, high: int, exclude: Sequence[uuid.UUID], limit: int
    ) -> list[TerraKardPlayer]:
        """Players of a level in [low, high] who can defend (a starting collection:
        a saved plan or the automatic one), most recently seen first."""
        rows = self._session.execute(
            select(terrakard_players)
            .where(
                terrakard_players.c.level.between(low, high),
                terrakard_players.c.player_id.not_in(list(exclude)),
            )
            .order_by(terrakard_players.c.seen_at.desc(), terrakard_players.c.player_id)
            .limit(limit)
        ).all()
        return [_player(r) for r in rows]

    # -- plans ----------------------------------------------------------------------------

    def count_plans(self, player_id: uuid.UUID) -> int:
        return int(
            self._session.execute(
                select(func.count())
                .select_from(terrakard_plans)
                .where(terrakard_plans.c.player_id == player_id)
            ).scalar_one()
        )

    def plan(
        self, player_id: uuid.UUID, plan_id: uuid.UUID, *, for_update: bool = False
    ) -> Plan | None:
        query = select(terrakard_plans).where(
            terrakard_plans.c.id == plan_id, terrakard_plans.c.player_id == player_id
        )
        row = self._session.execute(query.with_for_update() if for_update else query).first()
        return None if row is None else _plan(row)

    def plans(self, player_id: uuid.UUID) -> list[Plan]:
        rows = self._session.execute(
            select(terrakard_plans)
            .where(terrakard_plans.c.player_id == player_id)
            .order_by(terrakard_plans.c.created_at, terrakard_plans.c.id)
        ).all()
        return [_plan(row) for row in rows]

    def save_plan(self, plan: Plan) -> None:
        values = {
            "name": plan.name,
            "version": plan.version,
            "rounds": [str(c) for c in plan.rounds],
            "reserve": plan.reserve,
            "condition": dict(plan.condition),
            "posture": plan.posture,
            "updated_at": plan.updated_at,
        }
        self._session.execute(
            insert(terrakard_plans)
            .values(id=plan.id, player_id=plan.player_id, created_at=plan.created_at, **values)
            .on_conflict_do_update(index_elements=["id"], set_=values)
        )

    def remove_plan(self, plan_id: uuid.UUID) -> None:
        self._session.execute(delete(terrakard_plans).where(terrakard_plans.c.id == plan_id))
