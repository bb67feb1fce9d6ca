"""What the end of a TerraKard attack (or of the tutorial) changes in the arena, in the
transaction that finishes it (``HostedGame.on_finished``): trophies, experience and
level, the defender's shield, the daily objectives, and the rewards to deliver to cards
(a victory pack, rampart tokens). The rules are games/terrakard/arena.py; the numbers
are ours (docs/terrakard.md, "The arena (ours)").

Whatever finishes the match (the attacker's action, a read that catches up with time,
the sweeper), this runs once: the match turns finished once, under its row lock.
"""

from __future__ import annotations

import uuid
from dataclasses import replace
from datetime import datetime
from typing import Any

from games.terrakard import arena, demo_defenders
from games.terrakard.arena import ARENA, ArenaRules
from games.terrakard.plans import far_below_budget
from games.terrakard.state import ATTACKER, DEFENDER, AttackState
from services.battle.host import Match
from services.battle.terrakard_store import ArenaPlayer, Reward, SqlArena, day_start, utc_day

ATTACK_MODE = "attack"
TUTORIAL_MODE = "tutorial"
RAMPART_TOKENS = "rampart_tokens"


def _seat(match: Match, name: str) -> Any:
    return next(s for s in match.seats if s.name == name)


def gain_experience(
    store: SqlArena, player: ArenaPlayer, points: int, events: list[str], now: datetime,
    rules: ArenaRules = ARENA,
) -> ArenaPlayer:  # fmt: skip
    """The player with ``points`` more experience and each objective ``events`` completes
    today (its experience too); the level follows the experience."""
    day = utc_day(now)
    for event in events:
        for objective in arena.objectives_of(event, rules):
            if store.advance(player.player_id, day, objective.key, objective.count, now):
                points += objective.experience
    experience = player.experience + points
    return replace(player, experience=experience, level=arena.level_of(experience))


def poorer(state: AttackState) -> bool:
    """Rulebook: "Against an automatic plan or a plan far below the budget, the pack is
    less rich"."""
    defense = state.defense
    return defense.automatic or far_below_budget(defense.plan.cost, defense.level)


def on_finished(uow: Any, match: Match, now: datetime, rules: ArenaRules = ARENA) -> None:
    store: SqlArena | None = uow.arena
    if store is None:
        raise RuntimeError("a TerraKard match finished without the arena's store")
    attacker_id = _seat(match, ATTACKER).player_id
    result = _seat(match, ATTACKER).result
    if match.mode == TUTORIAL_MODE:
        _tutorial_done(store, attacker_id, now, rules)
        return
    if match.mode != ATTACK_MODE or result is None:
        return
    defender_id = _seat(match, DEFENDER).player_id
    if demo_defenders.by_player(defender_id) is not None:
        defender_id = None  # a demo defender keeps its level and trophies, earns nothing
    elif defender_id is not None and not uow.players.admits(defender_id):
        defender_id = None  # purged meanwhile: nothing of theirs is written
    ids = [p for p in (attacker_id, defender_id) if p is not None]
    rows = store.lock(ids)
    packs_today = 0 if attacker_id is None else store.packs_since(attacker_id, day_start(now))
    outcome = arena.attack_outcome(result, poorer(match.state), packs_today, rules)
    attacker_events, defender_events = arena.objective_events(result)
    if attacker_id is not None and attacker_id in rows:
        player = rows[attacker_id]
        player = replace(
            player, trophies=arena.with_trophies(player.trophies, outcome.attacker_trophies)
        )
        player = gain_experience(
            store, player, outcome.attacker_experience, attacker_events, now, rules
        )
        store.save(player)
        if outcome.pack is not None:
            store.add_reward(
                Reward(match.id, attacker_id, "pack", outcome.pack, 1,
                       f"terrakard:attack:{match.id}:pack"),
                now,
            )  # fmt: skip
    if defender_id is not None and defender_id in rows:
        player = rows[defender_id]
        player = replace(
            player,
            trophies=arena.with_trophies(player.trophies, outcome.defender_trophies),
            shield_until=(now + rules.shield) if outcome.shield else player.shield_until,
        )
        player = gain_experience(
            store, player, outcome.defender_experience, defender_events, now, rules
        )
        store.save(player)
        if outcome.rampart_tokens:
            store.add_reward(
                Reward(match.id, defender_id, "currency", RAMPART_TOKENS,
                       outcome.rampart_tokens, f"terrakard:defense:{match.id}:rampart"),
                now,
            )  # fmt: skip


def _tutorial_done(
    store: SqlArena, player_id: uuid.UUID | None, now: datetime, rules: ArenaRules
) -> None:
    """Ours: the tutorial is finished when its attack ends, whatever the result."""
    if player_id is None:
        return
    player = store.lock([player_id]).get(player_id)
    if player is None or player.tutorial_done_at is not None:
        return
    player = gain_experience(store, replace(player, tutorial_done_at=now),
                             rules.tutorial_experience, [], now, rules)  # fmt: skip
    store.save(player)
