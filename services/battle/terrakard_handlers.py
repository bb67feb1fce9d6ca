"""TerraKard's use cases in battle: the tutorial, start an attack (a ticket spent, the
target's protection checked), act in it (an answer marked with the key authoring gives
battle alone), the arena's targets, the player's arena profile, the defender's reports,
and the delivery of rewards to cards. Reading an attack, its history and the sweeper
are the generic ones (handlers.py); an attack's end changes the arena through
terrakard_arena.py (docs/terrakard.md, "The arena (ours)").
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from games.terrakard import arena as rules_of
from games.terrakard import demo_defenders
from games.terrakard.actions import ActionKind, marked
from games.terrakard.config import LEVEL_POINTS
from games.terrakard.demo_defenders import DEMO_PLAYER_IDS
from services.battle import handlers, host, match_seeds
from services.battle.games import hosted
from services.battle.games import terrakard as tk
from services.battle.handlers import UnitOfWorkFactory
from services.battle.host import Match
from services.battle.terrakard_empty import why_empty
from services.battle.terrakard_store import ArenaPlayer, Reward, SqlArena, day_start, utc_day
from shared import pages
from shared.clock import Clock
from shared.errors import Conflict, DeckyardError, Forbidden, InvalidInput, NotFound
from shared.randomness import RandomSource

log = logging.getLogger(__name__)

ARENA_SIZE = 10  # ours: targets offered at once


@dataclass(frozen=True)
class StartAttack:
    player_id: uuid.UUID
    deck_id: uuid.UUID
    target_id: uuid.UUID  # the arena's id of the defender, never an account id
    questions: bool | None = None  # this attack only; None: the player's setting


def _arena(uow: Any) -> SqlArena:
    store: SqlArena | None = uow.arena
    assert store is not None, "battle's unit of work brings the arena"
    return store


def _visit(uow: Any, player_id: uuid.UUID, now: datetime) -> ArenaPlayer:
    """The player's arena row, made at the first visit (tickets, protection from now)."""
    store = _arena(uow)
    store.ensure(player_id, now)
    store.seen(player_id, now)
    found = store.get(player_id)
    assert found is not None
    return found


def _profile(player: ArenaPlayer) -> tk.Profile:
    return tk.Profile(player.player_id, player.level, player.trophies)


def _admit_all(uow: Any, player_ids: Any) -> None:
    """Every player's gate, in id order (two starts between the same players, crossed,
    never wait on each other)."""
    for player_id in sorted({p for p in player_ids if p is not None}):
        uow.players.admit(player_id)


def start_attack(
    cmd: StartAttack,
    services: tk.Services,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> dict[str, Any]:
    """Confirm a target: one ticket spent, the attacker's shield lifted, the plan
    snapshotted, the defense reserved for this attack, in one transaction (one live
    attack per defender and per attacker: the seats' unique index decides a race; the
    defender's arena row, locked, orders two confirmations)."""
    now = clock.now()
    since = now - timedelta(hours=tk.REPEAT_HOURS)
    demo = demo_defenders.by_target(cmd.target_id)
    if demo is not None:  # battle offers it only where the demo seed wrote its row
        defender_id = demo.player_id
    else:
        found = services.cards.call("terrakard_target", target_id=str(cmd.target_id))
        defender_id = uuid.UUID(str(found["player_id"]))
    with unit_of_work() as uow:
        _admit_all(uow, [cmd.player_id])
        attacker = _visit(uow, cmd.player_id, now)
        defender = _arena(uow).get(defender_id)
        _check_attack(uow, cmd.player_id, defender_id, attacker, defender, since, now)
    assert defender is not None
    questions = attacker.questions if cmd.questions is None else cmd.questions
    # Outside any transaction: three services answer.
    seats, brings = tk.attack_setup(
        services, _profile(attacker), cmd.deck_id, _profile(defender), questions
    )
    game = hosted(tk.GAME)
    match_id = new_id()
    settings = tk.terrain_rolled(services, cmd.player_id, match_id)
    match, initial, steps = host.start(
        game, match_id, tk.ATTACK_MODE, seats, brings, settings, rng.seed_for_child(), now
    )
    match = match_seeds.salted(match, rng)
    with unit_of_work() as uow:
        _admit_all(uow, match.players)
        rows = _arena(uow).lock([cmd.player_id, defender_id])
        attacker, defender = rows[cmd.player_id], rows.get(defender_id)
        _check_attack(uow, cmd.player_id, defender_id, attacker, defender, since, now)
        tickets = rules_of.spend_ticket(attacker.tickets, now)
        if tickets is None:
            raise _no_ticket(attacker.tickets, now)
        # Rulebook: "Attacking lifts your shield".
        _arena(uow).save(replace(attacker, tickets=tickets, shield_until=None, seen_at=now))
        if not uow.matches.add_if_no_active(match, initial):
            if uow.matches.active_id(cmd.player_id, tk.GAME, tk.ATTACK_MODE) is not None:
                raise _busy_attacker(uow, cmd.player_id)
            raise Conflict("target_under_attack", "this defense is being attacked; try another")
        uow.matches.add_steps(match.id, steps)
    return game.views.match(match, seats[0])


def _check_attack(
    uow: Any,
    attacker_id: uuid.UUID,
    defender_id: uuid.UUID,
    attacker: ArenaPlayer,
    defender: ArenaPlayer | None,
    since: datetime,
    now: datetime,
) -> None:
    """The target rules at the confirmation (rulebook, "Targets and level")."""
    if attacker_id == defender_id:
        raise InvalidInput("cannot_attack_yourself", "you cannot attack your own defense")
    if attacker.tutorial_done_at is None:
        raise Conflict("tutorial_not_finished", "finish the tutorial before you attack")
    if uow.matches.active_id(attacker_id, tk.GAME, tk.ATTACK_MODE) is not None:
        raise _busy_attacker(uow, attacker_id)
    if defender is None or defender.tutorial_done_at is None:
        raise Conflict("target_not_allowed", "this player has not finished the tutorial")
    until = rules_of.protected_until(defender.started_at, defender.shield_until)
    if until > now and demo_defenders.by_player(defender_id) is None:  # a demo: never
        raise Conflict(
            "target_protected",
            "this player is protected (new player, or a shield after a heavy defeat)",
            {"until": until.isoformat()},
        )
    if defender_id in uow.matches.opponents_since(attacker_id, tk.GAME, tk.ATTACK_MODE, since):
        raise Conflict(
            "target_recently_attacked",
            f"you attacked this player less than {tk.REPEAT_HOURS} hours ago",
        )
    if rules_of.tickets_now(attacker.tickets, now).count < 1:
        raise _no_ticket(attacker.tickets, now)


def _no_ticket(held: rules_of.Tickets, now: datetime) -> Conflict:
    current = rules_of.tickets_now(held, now)
    next_at = rules_of.next_ticket_at(current)
    return Conflict(
        "no_ticket",
        "you have no attack ticket left; tickets refill over time",
        {"next_ticket_at": None if next_at is None else next_at.isoformat()},
    )


def start_tutorial(
    player_id: uuid.UUID,
    deck_id: uuid.UUID,
    services: tk.Services,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    rng: RandomSource,
    new_id: Callable[[], uuid.UUID] = uuid.uuid4,
) -> dict[str, Any]:
    """Ours: the tutorial, a first attack against the training plan; no ticket. Once it
    ends (whatever the result) the player may attack and be attacked."""
    now = clock.now()
    with unit_of_work() as uow:
        _admit_all(uow, [player_id])
        player = _visit(uow, player_id, now)
    if player.tutorial_done_at is not None:
        raise Conflict("tutorial_finished", "you have already finished the tutorial")
    seats, brings = tk.tutorial_setup(services, _profile(player), deck_id)
    game = hosted(tk.GAME)
    match_id = new_id()
    # The tutorial's terrain and seed are as fair and as verifiable as any attack's.
    settings = tk.terrain_rolled(services, player_id, match_id)
    match, initial, steps = host.start(
        game, match_id, tk.TUTORIAL_MODE, seats, brings, settings, rng.seed_for_child(), now
    )
    match = match_seeds.salted(match, rng)
    with unit_of_work() as uow:
        _admit_all(uow, [player_id])
        if not uow.matches.add_if_no_active(match, initial):
            raise Conflict(
                "active_match_exists",
                "your tutorial is under way",
                {"match_id": str(uow.matches.active_id(player_id, tk.GAME, tk.TUTORIAL_MODE))},
            )
        uow.matches.add_steps(match.id, steps)
    return tk.attack_view(match)


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
        _admit_players_of(uow, cmd.match_id)
        answer = handlers.act(plain, uow, clock, mark)
    if answer.get("status") == "finished":
        try:  # at once if cards answers; otherwise the sweep delivers them
            deliver_rewards(services, unit_of_work, clock, cmd.match_id)
        except Exception:  # the action is committed: its answer stands
            log.exception("rewards of %s left to the sweep", cmd.match_id)
    return answer


def _admit_players_of(uow: Any, match_id: uuid.UUID) -> None:
    """The gates of every player of the match before its row (the gate first, then
    rows): its end writes the defender's arena row too."""
    match = uow.matches.get(match_id)
    if match is not None and match.game == tk.GAME:
        _admit_all(uow, match.players)


def read_attack(
    player_id: uuid.UUID, match_id: uuid.UUID, unit_of_work: UnitOfWorkFactory, clock: Clock,
    history: bool = False,
) -> dict[str, Any]:  # fmt: skip
    """An attack as of now (time may end it: then the arena changes with it)."""
    with unit_of_work() as uow:
        _admit_players_of(uow, match_id)
        if history:
            return handlers.history(player_id, match_id, uow, clock, tk.GAME)
        return handlers.get_match(player_id, match_id, uow, clock, tk.GAME)


def arena(
    player_id: uuid.UUID, services: tk.Services, unit_of_work: UnitOfWorkFactory, clock: Clock
) -> dict[str, Any]:
    """Ours: up to ``ARENA_SIZE`` players who finished the tutorial, whose level is
    within ``LEVEL_GAP`` of yours, not protected, seen in the last days, not defending a
    live attack, not you, not attacked by you in the last ``REPEAT_HOURS`` hours; the
    closest in trophies first. The demo defenders a demo install has are offered among
    them (never protected nor inactive: games/terrakard/demo_defenders.py). An empty
    offer says why and, when the rules fix it, until when (``empty``)."""
    now = clock.now()
    since = now - timedelta(hours=tk.REPEAT_HOURS)
    with unit_of_work() as uow:
        _admit_all(uow, [player_id])
        me = _visit(uow, player_id, now)
        store = _arena(uow)
        recent = uow.matches.opponents_since(player_id, tk.GAME, tk.ATTACK_MODE, since)
        low, high = max(1, me.level - tk.LEVEL_GAP), me.level + tk.LEVEL_GAP
        excluded = [player_id, *recent]
        found = store.targets(
            low, high, me.trophies, [*excluded, *DEMO_PLAYER_IDS], now, ARENA_SIZE
        ) + store.demo_targets(low, high, excluded)
        # Stable: the players keep the database's order among the same distance.
        found = sorted(found, key=lambda f: abs(f.trophies - me.trophies))[:ARENA_SIZE]
        nearby = None
        if not found and me.tutorial_done_at is not None:
            nearby = store.nearby(low, high, player_id, list(recent), now)
    players = [str(f.player_id) for f in found if demo_defenders.by_player(f.player_id) is None]
    targets = {
        str(t["player_id"]): t
        for t in (
            services.cards.call("terrakard_targets_of", player_ids=players) if players else []
        )
    }
    items = [item for item in (_target(f, targets) for f in found) if item is not None]
    empty = None
    if not items:
        done = me.tutorial_done_at is not None
        empty = why_empty(done, nearby, tk.LEVEL_GAP, tk.REPEAT_HOURS)
    return {
        "level": me.level,
        "trophies": me.trophies,
        "items": items,
        "next": None,  # an offer of a few targets, not a list that grows (docs/api.md)
        "empty": empty,
    }


def _target(found: ArenaPlayer, targets: dict[str, Any]) -> dict[str, Any] | None:
    """One offered target (None: a player cards no longer knows as one)."""
    demo = demo_defenders.by_player(found.player_id)
    if demo is not None:
        target_id, automatic = str(demo.target_id), False
    elif str(found.player_id) in targets:
        target = targets[str(found.player_id)]
        target_id, automatic = str(target["target_id"]), not target["has_plan"]
    else:
        return None
    return {
        "target_id": target_id,
        "pseudonym": tk.pseudonym(found.player_id),
        "level": found.level,
        "trophies": found.trophies,
        "automatic": automatic,
        "demo": demo is not None,
    }


def seed_demo_defenders(unit_of_work: UnitOfWorkFactory, clock: Clock) -> int:
    """The demo install's demo defenders in the arena (``deckyard seed`` with the demo
    content only; idempotent): how many."""
    with unit_of_work() as uow:
        return _arena(uow).seed_demo(clock.now())


def change_settings(
    player_id: uuid.UUID, questions: bool, unit_of_work: UnitOfWorkFactory, clock: Clock
) -> dict[str, Any]:
    """The player's TerraKard settings (knowledge questions on or off), from their next
    attack: an attack already started keeps what it started with (its snapshot)."""
    with unit_of_work() as uow:
        _admit_all(uow, [player_id])
        _visit(uow, player_id, clock.now())
        _arena(uow).set_questions(player_id, questions)
    return {"questions": questions}


def profile(
    player_id: uuid.UUID, unit_of_work: UnitOfWorkFactory, clock: Clock,
    rules: rules_of.ArenaRules = rules_of.ARENA,
) -> dict[str, Any]:  # fmt: skip
    """The player's arena: tickets (and when the next one comes), protection and
    shield, trophies, experience and level, the tutorial, today's objectives and
    victory packs."""
    now = clock.now()
    with unit_of_work() as uow:
        _admit_all(uow, [player_id])
        me = _visit(uow, player_id, now)
        progress = _arena(uow).objectives(player_id, utc_day(now))
        packs = _arena(uow).packs_since(player_id, day_start(now))
    tickets = rules_of.tickets_now(me.tickets, now, rules)
    next_at = rules_of.next_ticket_at(tickets, rules)
    protected = me.started_at + rules.new_player_protection
    shield = me.shield_until if me.shield_until is not None and me.shield_until > now else None
    return {
        "tickets": tickets.count,
        "max_tickets": rules.max_tickets,
        "next_ticket_at": None if next_at is None else next_at.isoformat(),
        "protected_until": protected.isoformat() if protected > now else None,
        "shield_until": None if shield is None else shield.isoformat(),
        "trophies": me.trophies,
        "experience": me.experience,
        "level": me.level,
        "next_level_at": next_level(me.experience),
        "tutorial_finished": me.tutorial_done_at is not None,
        "questions": me.questions,
        "victory_packs_today": packs,
        "victory_packs_per_day": rules.victory_packs_per_day,
        "objectives": [
            {
                "key": o.key,
                "description": o.description,
                "progress": min(o.count, progress.get(o.key, (0, False))[0]),
                "goal": o.count,
                "done": progress.get(o.key, (0, False))[1],
                "experience": o.experience,
            }
            for o in rules.objectives
        ],
        "day": utc_day(now).isoformat(),
    }


def next_level(experience: int) -> int | None:
    """The experience the next level needs, or None past the last threshold."""
    return next((t for t in LEVEL_POINTS if t > experience), None)


def level(player_id: uuid.UUID, unit_of_work: UnitOfWorkFactory) -> dict[str, Any]:
    """The TerraKard level (from TerraKard experience; 1 before any)."""
    with unit_of_work() as uow:
        found = _arena(uow).get(player_id)
    experience = 0 if found is None else found.experience
    return {"experience": experience, "level": rules_of.level_of(experience)}


REWARDS_PER_DELIVERY = 20  # ours: rewards delivered per sweep (per transaction)


def deliver_rewards(
    services: tk.Services,
    unit_of_work: UnitOfWorkFactory,
    clock: Clock,
    match_id: uuid.UUID | None = None,
) -> int:
    """Grant in cards what attacks' ends earned (a victory pack, rampart tokens), each
    under its own idempotency key, and mark it delivered; a failure leaves it for the
    next sweep. A purged player's (``account_locked``) is dropped. Returns how many."""
    done = 0
    with unit_of_work() as uow:
        store = _arena(uow)
        for reward in store.pending(REWARDS_PER_DELIVERY, match_id):
            try:
                _grant(services, reward)
            except Forbidden:
                log.info("reward of %s for a purged player dropped", reward.match_id)
            except DeckyardError as error:
                log.warning("reward of %s not delivered yet: %s", reward.match_id, error)
                continue
            store.delivered(reward, clock.now())
            done += 1
    return done


def _grant(services: tk.Services, reward: Reward) -> None:
    player = str(reward.player_id)
    if reward.kind == "pack":
        services.cards.call(
            "grant_packs", player_id=player, game=tk.GAME, kind=reward.item,
            quantity=reward.amount, source_type="attack", source_id=str(reward.match_id),
            idempotency_key=reward.idempotency_key,
        )  # fmt: skip
    else:
        services.cards.call(
            "grant", player_id=player, game=tk.GAME, currency=reward.item,
            amount=reward.amount, reason="successful defense",
            idempotency_key=reward.idempotency_key,
        )  # fmt: skip


def defense_reports(
    player_id: uuid.UUID, cursor: str | None, limit: int, unit_of_work: UnitOfWorkFactory
) -> dict[str, Any]:
    """Finished attacks on the player's defense, newest first, a page at a time:
    ``{"items", "next"}``."""
    limit = max(1, min(pages.MAX_PAGE, limit))
    with unit_of_work() as uow:
        found = uow.matches.defended(player_id, tk.GAME, pages.position(cursor), limit + 1)
    return pages.page(found, limit, _finished_position, tk.report_view)


def _finished_position(match: Match) -> pages.Position:
    assert match.finished_at is not None  # only finished attacks are reported
    return match.finished_at, match.id


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


def attacks(
    player_id: uuid.UUID, cursor: str | None, limit: int, unit_of_work: UnitOfWorkFactory
) -> dict[str, Any]:
    """The player's own attacks (the tutorial too), newest first, a page at a time:
    ``{"items", "next"}``, ``next`` the cursor of the following page or None."""
    limit = max(1, min(pages.MAX_PAGE, limit))
    with unit_of_work() as uow:
        found = uow.matches.played_by(player_id, tk.GAME, pages.position(cursor), limit + 1)
    return pages.page(found, limit, lambda m: (m.created_at, m.id), tk.attack_summary)
