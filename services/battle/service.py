"""The battle nameko service: entrypoints only."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any, TypeVar

from nameko.timer import timer
from sqlalchemy.orm import Session

from services.battle import handlers, match_lists, orm, presence, purge, pvp
from services.battle import terrakard_handlers as terrakard
from services.battle.dependencies import CardsRpc, CpuDeckProvider, ServicesRpc
from services.battle.games.terrakard import GAME as TERRAKARD_GAME
from services.battle.metrics import measure_matches
from services.battle.pvp_schemas import (
    AcceptSchema,
    InvitationRefSchema,
    InviteSchema,
    PresenceReportSchema,
    QueueJoinSchema,
    TablePlayerSchema,
)
from services.battle.pvp_store import pvp_unit_of_work
from services.battle.repository import BattleUnitOfWork, unit_of_work
from services.battle.schemas import (
    ActSchema,
    ForfeitSchema,
    GamePlayerSchema,
    MatchRefSchema,
    PlayerSchema,
    StartAttackSchema,
    StartMatchSchema,
    TerraKardSettingsSchema,
)
from services.battle.terrakard_purge import end_attacks_of
from shared.clock import Clock, SystemClock
from shared.consumers import consume
from shared.db import run_unit_of_work
from shared.dependencies import ClockProvider, DatabaseProvider, RandomProvider
from shared.events import ACCOUNT_DELETION_REQUESTED
from shared.health import HealthEndpoints, ServiceGauges
from shared.reliable_events import reliable_event_handler
from shared.rpc import rpc
from shared.schemas import load

T = TypeVar("T")
ACT = ActSchema()  # built once: the hot path (schemas are stateless once built)
SWEEP_INTERVAL_SECONDS = 5  # ours: an abandoned turn times out within seconds of its deadline


def end_shared_matches(session: Session, player_id: uuid.UUID, now: datetime) -> None:
    """In the purge: a deleted player's live matches against others end (Chronovore's
    as left, TerraKard attacks as given up); attacks on their plan go on."""
    pvp.end_matches_of(session, player_id, now)
    end_attacks_of(session, player_id, now)


class BattleService(HealthEndpoints):
    name = "battle"

    db = DatabaseProvider(orm.plumbing)
    clock = ClockProvider()
    random = RandomProvider()
    cards = CardsRpc()
    cpu_deck = CpuDeckProvider()
    services = ServicesRpc()
    service_gauges = ServiceGauges(measure_matches)  # + matches by game and status
    # Real time for the gateway replicas' leases (the liveness of a process, not a game
    # rule: services/battle/presence.py); the game's time is ``clock``.
    lease_clock: Clock = SystemClock()

    def _uow(self) -> AbstractContextManager[BattleUnitOfWork]:
        return unit_of_work(self.db)

    def _run(self, work: Callable[[BattleUnitOfWork], T]) -> T:
        """``work`` in a unit of work, run again on a deadlock or a serialization failure
        (``shared.db.run_unit_of_work``: then 503 ``transaction_conflict``, never a 500)."""
        return run_unit_of_work(self._uow, work)

    @reliable_event_handler(ACCOUNT_DELETION_REQUESTED.source, ACCOUNT_DELETION_REQUESTED.name)
    def on_account_deletion_requested(self, message: dict[str, Any]) -> None:
        """Purge the player's personal data here and answer PersonalDataPurged."""
        consume(
            ACCOUNT_DELETION_REQUESTED,
            message,
            self.db.transaction,
            lambda event, tx: purge.purge_personal_data(
                event, tx, self.clock, end_shared=end_shared_matches
            ),
        )

    @rpc
    def start_match(self, player_id: str, deck_id: str) -> dict[str, Any]:
        """Start a Quest CPU match with a saved deck -> the player's view (version 1)."""
        args = load(StartMatchSchema(), {"player_id": player_id, "deck_id": deck_id})
        cmd = handlers.StartMatch(args["player_id"], args["deck_id"])
        return handlers.start_match(
            cmd, self.cards, partial(unit_of_work, self.db), self.clock, self.random, self.cpu_deck
        )

    @rpc
    def start_chronovore_match(self, player_id: str, deck_id: str) -> dict[str, Any]:
        """A Chronovore CPU match with a legal saved deck -> the player's view (round 1,
        the CPU locked in, the 2-minute deadline)."""
        args = load(StartMatchSchema(), {"player_id": player_id, "deck_id": deck_id})
        cmd = handlers.StartMatch(args["player_id"], args["deck_id"])
        return handlers.start_chronovore_match(
            cmd, self.cards, partial(unit_of_work, self.db), self.clock, self.random
        )

    @rpc
    def get_match(self, player_id: str, match_id: str, game: str = "quest") -> dict[str, Any]:
        ref = {"player_id": player_id, "match_id": match_id, "game": game}
        args = load(MatchRefSchema(), ref)
        return self._run(
            lambda uow: handlers.get_match(
                args["player_id"], args["match_id"], uow, self.clock, args["game"]
            )
        )

    @rpc
    def active_match(self, player_id: str, game: str = "quest") -> dict[str, Any]:
        args = load(GamePlayerSchema(), {"player_id": player_id, "game": game})
        return self._run(
            lambda uow: handlers.active_match(args["player_id"], uow, self.clock, args["game"])
        )

    @rpc
    def act(self, **payload: Any) -> dict[str, Any]:
        """``expected_version``, ``action`` ({kind, index?}), ``idempotency_key``? -> the
        view and this action's events as the player may see them."""
        args = load(ACT, payload)
        return self._run(lambda uow: handlers.act(handlers.Act(**args), uow, self.clock))

    @rpc
    def forfeit(self, **payload: Any) -> dict[str, Any]:
        args = load(ForfeitSchema(), payload)
        forfeit = handlers.Act(**args, action={"kind": "forfeit"})
        return self._run(lambda uow: handlers.act(forfeit, uow, self.clock))

    @rpc
    def match_history(self, player_id: str, match_id: str, game: str = "quest") -> dict[str, Any]:
        ref = {"player_id": player_id, "match_id": match_id, "game": game}
        args = load(MatchRefSchema(), ref)
        return self._run(
            lambda uow: handlers.history(
                args["player_id"], args["match_id"], uow, self.clock, args["game"]
            )
        )

    @rpc
    def cpu_matches(
        self, player_id: str, game: str = "quest", cursor: str | None = None, limit: int = 50
    ) -> dict[str, Any]:
        """The player's own CPU matches of ``game``, newest first: ``{"items", "next"}``."""
        args = load(GamePlayerSchema(), {"player_id": player_id, "game": game})
        return match_lists.cpu_matches(
            args["player_id"], args["game"], cursor, int(limit), partial(unit_of_work, self.db)
        )

    # -- TerraKard (docs/terrakard.md, "Hosting") -------------------------------------------

    @rpc
    def terrakard_start_attack(self, **payload: Any) -> dict[str, Any]:
        """``deck_id, defender_id, questions?`` -> the attack as the attacker sees it."""
        cmd = terrakard.StartAttack(**load(StartAttackSchema(), payload))
        return terrakard.start_attack(
            cmd, self.services, partial(unit_of_work, self.db), self.clock, self.random
        )

    @rpc
    def terrakard_start_tutorial(self, player_id: str, deck_id: str) -> dict[str, Any]:
        """The tutorial: a first attack against the training plan -> the attack."""
        args = load(StartMatchSchema(), {"player_id": player_id, "deck_id": deck_id})
        return terrakard.start_tutorial(
            args["player_id"], args["deck_id"], self.services, partial(unit_of_work, self.db),
            self.clock, self.random,
        )  # fmt: skip

    @rpc
    def terrakard_profile(self, player_id: str) -> dict[str, Any]:
        """Tickets, protection, shield, trophies, experience, level, objectives."""
        args = load(PlayerSchema(), {"player_id": player_id})
        return terrakard.profile(args["player_id"], partial(unit_of_work, self.db), self.clock)

    @rpc
    def terrakard_change_settings(self, player_id: str, questions: bool) -> dict[str, Any]:
        """``questions`` on or off for the player's next attacks -> ``{"questions": ...}``."""
        args = load(TerraKardSettingsSchema(), {"player_id": player_id, "questions": questions})
        return terrakard.change_settings(
            args["player_id"], args["questions"], partial(unit_of_work, self.db), self.clock
        )

    @rpc
    def terrakard_level(self, player_id: str) -> dict[str, Any]:
        """``{"experience": 35, "level": 1}``: the level sets the deck and plan budgets."""
        args = load(PlayerSchema(), {"player_id": player_id})
        return terrakard.level(args["player_id"], partial(unit_of_work, self.db))

    @rpc
    def terrakard_attack(self, player_id: str, match_id: str) -> dict[str, Any]:
        args = load(MatchRefSchema(), {"player_id": player_id, "match_id": match_id})
        return terrakard.read_attack(
            args["player_id"], args["match_id"], partial(unit_of_work, self.db), self.clock
        )

    @rpc
    def terrakard_act(self, **payload: Any) -> dict[str, Any]:
        """``expected_version``, ``action`` ({kind, card?, choice?}), ``idempotency_key``?"""
        args = load(ACT, payload)
        cmd = handlers.Act(**{**args, "game": TERRAKARD_GAME})
        return terrakard.act(cmd, self.services, partial(unit_of_work, self.db), self.clock)

    @rpc
    def terrakard_history(self, player_id: str, match_id: str) -> dict[str, Any]:
        args = load(MatchRefSchema(), {"player_id": player_id, "match_id": match_id})
        return terrakard.read_attack(
            args["player_id"], args["match_id"], partial(unit_of_work, self.db), self.clock,
            history=True,
        )  # fmt: skip

    @rpc
    def terrakard_arena(self, player_id: str) -> dict[str, Any]:
        args = load(PlayerSchema(), {"player_id": player_id})
        return terrakard.arena(
            args["player_id"], self.services, partial(unit_of_work, self.db), self.clock
        )

    @rpc
    def terrakard_attacks(
        self, player_id: str, cursor: str | None = None, limit: int = 50
    ) -> dict[str, Any]:
        """The player's own attacks, newest first: ``{"items", "next"}``."""
        args = load(PlayerSchema(), {"player_id": player_id})
        return terrakard.attacks(
            args["player_id"], cursor, int(limit), partial(unit_of_work, self.db)
        )

    @rpc
    def terrakard_defense_reports(
        self, player_id: str, cursor: str | None = None, limit: int = 20
    ) -> dict[str, Any]:
        """Finished attacks on the player's defense, newest first: ``{"items", "next"}``."""
        args = load(PlayerSchema(), {"player_id": player_id})
        return terrakard.defense_reports(
            args["player_id"], cursor, int(limit), partial(unit_of_work, self.db)
        )

    @rpc
    def terrakard_defense_report(self, player_id: str, match_id: str) -> dict[str, Any]:
        args = load(MatchRefSchema(), {"player_id": player_id, "match_id": match_id})
        return terrakard.defense_report(
            args["player_id"], args["match_id"], partial(unit_of_work, self.db)
        )

    # -- against another player (docs/chronovore.md, docs/quest-pvp.md) ------------------------
    # Invitations take the route's ``game`` (Chronovore's live matches by default, Quest's
    # asynchronous ones); so do the queues (Chronovore's, Quest's live matches).

    def _pvp(
        self, game: str = "chronovore", tables: Mapping[str, pvp.Table] = pvp.TABLES
    ) -> pvp.Pvp:
        return pvp.Pvp(
            partial(pvp_unit_of_work, self.db),
            self.cards,
            self.clock,
            self.random,
            table=tables[game],
        )

    def _queue(self, game: str) -> pvp.Pvp:
        return self._pvp(game, pvp.QUEUE_TABLES)

    @rpc
    def pvp_join_queue(self, **payload: Any) -> dict[str, Any]:
        """``player_id, deck_id, game`` (Chronovore's by default) -> ``{"status": "queued" |
        "matched", "matchId", ...}``"""
        args = load(QueueJoinSchema(), payload)
        return pvp.join_queue(self._queue(args["game"]), args["player_id"], args["deck_id"])

    @rpc
    def pvp_leave_queue(self, **payload: Any) -> None:
        args = load(TablePlayerSchema(), payload)
        pvp.leave_queue(self._queue(args["game"]), args["player_id"])

    @rpc
    def pvp_queue(self, **payload: Any) -> dict[str, Any]:
        args = load(TablePlayerSchema(), payload)
        return pvp.queue_status(self._queue(args["game"]), args["player_id"])

    @rpc
    def pvp_invite(self, **payload: Any) -> dict[str, Any]:
        """``player_id, to`` (a pseudonym), ``deck_id`` -> the invitation"""
        args = load(InviteSchema(), payload)
        found = replace(
            self._pvp(args["game"]), table=pvp.invitation_table(args["game"], args["mode"])
        )
        return pvp.invite(found, args["player_id"], args["to"], args["deck_id"])

    @rpc
    def pvp_invitations(
        self, cursor: str | None = None, limit: int = 20, **payload: Any
    ) -> dict[str, Any]:
        """``player_id, game`` -> the player's pseudonym and a page of their invitations,
        newest first: ``{"you", "items", "next"}``"""
        args = load(TablePlayerSchema(), payload)
        return pvp.invitations(self._pvp(args["game"]), args["player_id"], cursor, int(limit))

    @rpc
    def pvp_matches(
        self, cursor: str | None = None, limit: int = 50, **payload: Any
    ) -> dict[str, Any]:
        """``player_id, game`` -> a page of the player's matches against players, newest
        first, and their record: ``{"items", "next", "record", "active_limit"}``"""
        args = load(TablePlayerSchema(), payload)
        return pvp.matches_of(self._pvp(args["game"]), args["player_id"], cursor, int(limit))

    @rpc
    def pvp_accept(self, **payload: Any) -> dict[str, Any]:
        """``player_id, invitation_id, deck_id`` -> the new match as the accepter sees it"""
        args = load(AcceptSchema(), payload)
        found = self._pvp(args["game"])
        return pvp.accept(found, args["player_id"], args["invitation_id"], args["deck_id"])

    @rpc
    def pvp_decline(self, **payload: Any) -> dict[str, Any]:
        args = load(InvitationRefSchema(), payload)
        return pvp.decline(self._pvp(args["game"]), args["player_id"], args["invitation_id"])

    @rpc
    def pvp_cancel(self, **payload: Any) -> dict[str, Any]:
        args = load(InvitationRefSchema(), payload)
        return pvp.cancel(self._pvp(args["game"]), args["player_id"], args["invitation_id"])

    # -- push connections (docs/quest-pvp.md, "Reconnect") ---------------------------------

    @rpc
    def push_presence(self, **payload: Any) -> None:
        """A gateway replica's report: ``replica_id``, ``players`` {player id: open push
        connections there}, ``lease_seconds`` until its next report."""
        args = load(PresenceReportSchema(), payload)
        with self.db.transaction() as tx:
            presence.report(
                tx.session,
                args["replica_id"],
                args["players"],
                self.clock.now(),
                self.lease_clock.now(),
                timedelta(seconds=args["lease_seconds"]),
            )

    @timer(interval=SWEEP_INTERVAL_SECONDS)
    def expire_overdue_turns(self) -> None:
        """Time out turns nobody played; end live matches of players gone too long;
        expire invitations, pair players left waiting."""
        self._run(lambda uow: handlers.expire_overdue(uow, self.clock))
        now, real_now = self.clock.now(), self.lease_clock.now()
        presence.end_disconnected(partial(presence.unit_of_work, self.db), now, real_now)
        with self.db.transaction() as tx:
            presence.forget_old(tx.session, real_now, now)
        for game in pvp.QUEUE_TABLES:  # Chronovore's invitations expire in its sweep
            pvp.sweep(self._queue(game))

    @timer(interval=SWEEP_INTERVAL_SECONDS)
    def deliver_terrakard_rewards(self) -> None:
        """What TerraKard attacks' ends earned in cards, until cards has it."""
        terrakard.deliver_rewards(self.services, partial(unit_of_work, self.db), self.clock)
