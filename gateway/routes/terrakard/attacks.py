"""TerraKard's arena, attacks and defense reports (docs/terrakard.md, "Hosting").

An attack is played live against another player's saved plan: start, read, act at the
version you saw (with an Idempotency-Key), history. Answers carry only the choice: the
server marks them (the answer key never leaves the services). A defender is told by
push (``match.defended``) and reads its reports here.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import BATTLE
from gateway.routes.base import Caller
from gateway.routes.quest.battles import IDEMPOTENCY_HEADER, idempotency_key
from gateway.routes.terrakard.schemas import (
    ArenaSchema,
    AttackActionRequest,
    AttackHistorySchema,
    AttackResultSchema,
    AttackSchema,
    AttacksPageSchema,
    AttacksQuery,
    DefenseReportSchema,
    DefenseReportsSchema,
    ProfileSchema,
    SettingsSchema,
    StartAttackRequest,
    StartTutorialRequest,
)

TAGS = ("terrakard",)
WRITE_ERRORS = (400, 404, 409, 413, 422, 503)


class TerraKardAttackRoutes(Caller):
    @api(
        "GET",
        "/terrakard/profile",
        RouteDoc("Your arena: tickets, protection and shield, trophies, experience and "
                 "level, the tutorial, today's objectives", ProfileSchema, auth="player",
                 errors=(503,), tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def get_terrakard_profile(self, request: Request) -> Any:
        """-> ``{"tickets": 4, "maxTickets": 5, "nextTicketAt": "...", "protectedUntil":
        null, "shieldUntil": null, "trophies": 30, "experience": 60, "level": 2,
        "tutorialFinished": true, "objectives": [{"key": "attack_three_times", "progress":
        1, "goal": 3, "done": false, "experience": 20, ...}], ...}``"""
        player_id = await self._player_id(request)
        return await self.services.call("battle", "terrakard_profile", player_id=player_id)

    @api(
        "PUT",
        "/terrakard/settings",
        RouteDoc("Your settings: knowledge questions on or off in your attacks, from the "
                 "next one (an attack under way keeps its own)", SettingsSchema,
                 SettingsSchema, auth="player", errors=(400, 413, 422, 503), tags=TAGS,
                 codes=BATTLE),
    )  # fmt: skip
    async def edit_terrakard_settings(self, request: Request) -> Any:
        """``{"questions": false}`` -> ``{"questions": false}`` (also in the profile)"""
        player_id = await self._player_id(request)
        args = load(SettingsSchema(), json_input(request))
        return await self.services.call(
            "battle", "terrakard_change_settings", player_id=player_id,
            questions=args["questions"],
        )  # fmt: skip

    @api(
        "POST",
        "/terrakard/tutorial",
        RouteDoc("The tutorial: a first attack, against the training plan (no ticket); "
                 "once it ends you may attack and be attacked", AttackSchema,
                 StartTutorialRequest, auth="player", status=201, errors=WRITE_ERRORS,
                 tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def start_terrakard_tutorial(self, request: Request) -> tuple[int, Any]:
        """``{"deckId": "..."}`` -> 201 the attack (``mode`` ``tutorial``, defender
        ``Training plan``), played with the attack routes"""
        player_id = await self._player_id(request)
        args = load(StartTutorialRequest(), json_input(request))
        started = await self.services.call(
            "battle", "terrakard_start_tutorial", player_id=player_id,
            deck_id=str(args["deck_id"]),
        )  # fmt: skip
        return 201, started

    @api(
        "GET",
        "/terrakard/arena",
        RouteDoc("Players you may attack: close to your level and, first, to your trophies",
                 ArenaSchema, auth="player",
                 errors=(503,), tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def get_terrakard_arena(self, request: Request) -> Any:
        """-> ``{"level": 1, "trophies": 20, "items": [{"targetId": "...", "pseudonym":
        "Keeper-3fa2c1", "level": 1, "trophies": 10, "automatic": false}]}``"""
        player_id = await self._player_id(request)
        return await self.services.call("battle", "terrakard_arena", player_id=player_id)

    @api(
        "POST",
        "/terrakard/attacks",
        RouteDoc("Attack a target with one of your decks: its plan is snapshotted and "
                 "reserved for you, one ticket spent (409 target_under_attack if another "
                 "attacker was first, no_ticket, target_protected, tutorial_not_finished)",
                 AttackSchema, StartAttackRequest, auth="player", status=201,
                 errors=WRITE_ERRORS, tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def start_terrakard_attack(self, request: Request) -> tuple[int, Any]:
        """``{"deckId": "...", "targetId": "..."}`` -> 201 the attack in its
        reconnaissance: ``{"id": "...", "phase": "reconnaissance", "version": 0,
        "reconnaissance": {"pseudonym": ..., "terrain": {...}, "categories": [...]}}``"""
        player_id = await self._player_id(request)
        args = load(StartAttackRequest(), json_input(request))
        started = await self.services.call(
            "battle", "terrakard_start_attack", player_id=player_id,
            deck_id=str(args["deck_id"]), target_id=str(args["target_id"]),
            questions=args.get("questions"),  # absent: the player's setting
        )  # fmt: skip
        return 201, started

    @api(
        "GET",
        "/terrakard/attacks",
        RouteDoc("Your attacks (the tutorial too), newest first (?cursor=&limit=)",
                 AttacksPageSchema, auth="player", query=AttacksQuery, errors=(422,),
                 tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def list_terrakard_attacks(self, request: Request) -> Any:
        """-> ``{"items": [{"id": "...", "mode": "attack", "defender": "Keeper-3fa2c1",
        "terrain": "Fog", "status": "finished", "outcome": "two_stars", "stars": 2,
        ...}], "next": "1796130000000000-0f3c..."}``"""
        player_id = await self._player_id(request)
        args = load(AttacksQuery(), query_args(request))
        return await self.services.call(
            "battle", "terrakard_attacks", player_id=player_id, cursor=args["cursor"],
            limit=args["limit"],
        )  # fmt: skip

    @api(
        "GET",
        "/terrakard/attacks/<uuid:attack_id>",
        RouteDoc("One of your attacks, as you may see it", AttackSchema, auth="player",
                 errors=(404,), tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def get_terrakard_attack(self, request: Request, attack_id: Any) -> Any:
        """-> the attack (time that ran out is played first)"""
        return await self.services.call(
            "battle", "terrakard_attack", player_id=await self._player_id(request),
            match_id=str(attack_id),
        )  # fmt: skip

    @api(
        "POST",
        "/terrakard/attacks/<uuid:attack_id>/actions",
        RouteDoc("Begin, play a card, answer or skip the question, or give up, at the "
                 "version you saw", AttackResultSchema, AttackActionRequest, auth="player",
                 errors=WRITE_ERRORS, tags=TAGS, headers=(IDEMPOTENCY_HEADER,), codes=BATTLE,
                 operation_id="actInTerraKardAttack"),
    )  # fmt: skip
    async def act_in_terrakard_attack(self, request: Request, attack_id: Any) -> Any:
        """``{"expectedVersion": 2, "action": {"kind": "play", "card": 3}}`` -> the attack
        at its new version with ``events``"""
        player_id = await self._player_id(request)
        args = load(AttackActionRequest(), json_input(request))
        return await self.services.call(
            "battle", "terrakard_act", player_id=player_id, match_id=str(attack_id),
            expected_version=args["expected_version"], action=args["action"],
            idempotency_key=idempotency_key(
                request.headers.get("Idempotency-Key"), args["idempotency_key"]
            ),
        )  # fmt: skip

    @api(
        "GET",
        "/terrakard/attacks/<uuid:attack_id>/history",
        RouteDoc("Your attack's log, as you may see it", AttackHistorySchema, auth="player",
                 errors=(404,), tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def get_terrakard_attack_history(self, request: Request, attack_id: Any) -> Any:
        """-> ``{"matchId": "...", "entries": [{"seq": 1, "action": {"kind": "begin"}}]}``"""
        return await self.services.call(
            "battle", "terrakard_history", player_id=await self._player_id(request),
            match_id=str(attack_id),
        )  # fmt: skip

    @api(
        "GET",
        "/terrakard/defense-reports",
        RouteDoc("The attacks against your defense, newest first (?cursor=&limit=)",
                 DefenseReportsSchema, auth="player", query=AttacksQuery, errors=(422,),
                 tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def list_terrakard_defense_reports(self, request: Request) -> Any:
        """-> ``{"items": [{"matchId": "...", "attacker": "Keeper-3fa2c1", "result":
        "victory", "report": {...}}], "next": null}``"""
        args = load(AttacksQuery(), query_args(request))
        return await self.services.call(
            "battle", "terrakard_defense_reports", player_id=await self._player_id(request),
            cursor=args["cursor"], limit=args["limit"],
        )  # fmt: skip

    @api(
        "GET",
        "/terrakard/defense-reports/<uuid:attack_id>",
        RouteDoc("One attack against your defense, with its log to watch it again",
                 DefenseReportSchema, auth="player", errors=(404,), tags=TAGS, codes=BATTLE),
    )  # fmt: skip
    async def get_terrakard_defense_report(self, request: Request, attack_id: Any) -> Any:
        """-> the report and ``replay``: every step as the defender may see it"""
        return await self.services.call(
            "battle", "terrakard_defense_report", player_id=await self._player_id(request),
            match_id=str(attack_id),
        )  # fmt: skip
