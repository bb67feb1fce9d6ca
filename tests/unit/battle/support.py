"""Helpers for the battle service's unit tests (no tests here): the seed catalogue as
the cards service would return it, and an in-memory unit of work."""

from __future__ import annotations

import copy
import json
import uuid
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from games.quest.cpu import CPU_DECK
from services.battle.handlers import StartMatch, start_match
from services.battle.host import Match
from services.battle.repository import BattleUnitOfWork, KeyedStep
from shared.clock import FixedClock
from shared.randomness import SeededRandomSource
from shared.testing import FakePlayerGate

T0 = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
CATALOGUE = Path(__file__).parents[3] / "services/authoring/seed/quest_cards.json"
STARTER = ("Quillip", "Inkwisp", "Glimmowl", "Field Kit", "Reserve Focus")


def seed_definitions() -> dict[str, dict[str, Any]]:
    """The seed catalogue by name, as cards' LineageDefinitionSchema dumps it (each card
    the founding version of its lineage)."""
    entries = json.loads(CATALOGUE.read_text(encoding="utf-8"))
    return {
        e["body"]["name"]: {
            "id": str(uuid.uuid5(uuid.NAMESPACE_URL, e["body"]["name"])),
            "kind": e["kind"],
            "game": "quest",
            "name": e["body"]["name"],
            "lineage_name": e["body"]["name"],
            "rarity": e["body"]["rarity"],
            "definition": e["body"],
        }
        for e in entries
    }


class FakeCards:
    """The cards service: one legal deck per player (the Wit starter), the seed catalogue."""

    def __init__(self, names: tuple[str, ...] = STARTER) -> None:
        self.definitions = seed_definitions()
        self.names = names
        self.calls: list[str] = []
        self.deck_games: list[str | None] = []

    def deck_for_match(
        self, player_id: str, deck_id: str, game: str | None = None
    ) -> dict[str, Any]:
        self.calls.append("deck_for_match")
        self.deck_games.append(game)
        cards = [
            {
                "copy_id": str(uuid.uuid4()),
                "definition_id": self.definitions[n]["id"],
                "kind": self.definitions[n]["kind"],
                "definition": self.definitions[n]["definition"],
            }
            for n in self.names
        ]
        return {"deck_id": deck_id, "version": 1, "cards": cards}

    def active_definitions_named(
        self, game: str, kind: str, names: list[str]
    ) -> list[dict[str, Any]]:
        self.calls.append("active_definitions_named")
        wanted = {n.strip().lower() for n in names}
        found = [
            d
            for d in self.definitions.values()
            if d["kind"] == kind and d["name"].strip().lower() in wanted
        ]
        return sorted(found, key=lambda d: d["name"])


class FakeMatches:
    def __init__(self) -> None:
        self.rows: dict[uuid.UUID, Match] = {}
        self.initial: dict[uuid.UUID, Any] = {}
        self.log: dict[uuid.UUID, list[dict[str, Any]]] = {}
        self.saves = 0

    def add_if_no_active(self, match, initial):
        players = [s.player_id for s in match.seats if s.kind == "player"]
        if match.one_active and any(
            self.active_id(p, match.game, match.mode) is not None for p in players
        ):
            return False
        self.rows[match.id] = match
        self.initial[match.id] = initial
        self.log[match.id] = []
        return True

    def active_id(self, player_id, game, mode):
        return next(
            (
                m.id
                for m in self.rows.values()
                if m.seat_of(player_id) and (m.game, m.mode, m.status) == (game, mode, "active")
            ),
            None,
        )

    def started_count(self, player_id, game, mode):
        return sum(
            1
            for m in self.rows.values()
            if m.seat_of(player_id) and (m.game, m.mode) == (game, mode)
        )

    def get(self, match_id, for_update=False):
        return self.rows.get(match_id)

    def save(
        self,
        match,
        previous_version,
        steps=(),
        idempotency_key=None,
        response=None,
        expected_version=None,
    ):
        assert self.rows[match.id].version == previous_version
        self.rows[match.id] = match
        self.saves += 1
        self.add_steps(match.id, steps, idempotency_key, response, expected_version)

    def add_steps(
        self, match_id, steps, idempotency_key=None, response=None, expected_version=None
    ):
        seqs = [e["step"].version for e in self.log[match_id]]
        for i, step in enumerate(steps):
            assert step.version not in seqs  # the (match_id, seq) key
            row = {"step": step, "key": None, "response": None, "expected": None}
            if i == 0:
                if idempotency_key is not None:
                    assert all(e["key"] != idempotency_key for e in self.log[match_id])
                    row.update(expected=expected_version)
                row.update(key=idempotency_key, response=copy.deepcopy(response))
            self.log[match_id].append(row)

    def keyed_step(self, match_id, key):
        for row in self.log[match_id]:
            if row["key"] == key:
                return KeyedStep(row["step"], row["response"], row["expected"])
        return None

    def steps(self, match_id):
        return [row["step"] for row in self.log[match_id]]

    def initial_state(self, match_id):
        return self.initial[match_id]

    def played_by(self, player_id, game, before, limit, modes=None):
        found = [
            m
            for m in self.rows.values()
            if m.seat_of(player_id) and m.game == game and (modes is None or m.mode in modes)
        ]
        found.sort(key=lambda m: (m.created_at, m.id), reverse=True)
        if before is not None:
            found = [m for m in found if (m.created_at, m.id) < before]
        return found[:limit]

    def overdue(self, now, limit):
        due = [
            m
            for m in self.rows.values()
            if m.status == "active" and m.deadline is not None and m.deadline <= now
        ]
        return sorted(due, key=lambda m: m.deadline)[:limit]


class FakeEvents:
    def __init__(self) -> None:
        self.added: list[Any] = []

    def add_event(self, event) -> None:
        assert all(e.event_id != event.event_id for e in self.added)  # the outbox's unique id
        self.added.append(event)


class FakeStore:
    """One in-memory database: each unit of work sees it; nothing rolls back (tests check
    that refusals change nothing by comparing before and after)."""

    def __init__(self) -> None:
        self.matches = FakeMatches()
        self.events = FakeEvents()
        self.players = FakePlayerGate()

    @contextmanager
    def uow(self):
        yield BattleUnitOfWork(self.matches, self.events, self.players)


def started(store=None, clock=None, cards=None, player_id=None, seed=7):
    """A started match through the handler: (store, clock, view)."""
    store = store or FakeStore()
    clock = clock or FixedClock(T0)
    view = start_match(
        StartMatch(player_id or uuid.uuid4(), uuid.uuid4()),
        cards or FakeCards(),
        store.uow,
        clock,
        SeededRandomSource(seed),
        CPU_DECK,
    )
    return store, clock, view
