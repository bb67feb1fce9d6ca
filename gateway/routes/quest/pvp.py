"""Quest against another player, asynchronously: your matches and your record
(docs/quest-pvp.md; invitations by pseudonym: gateway/routes/invitations.py).

An accepted invitation's match is played through the battle routes (``battles.py``: view,
actions with the expected version and an idempotency key, forfeit, history), each seat
seeing only its own cards; both players are told of every change through push
(``match.your_turn`` / ``match.updated``, then ``match.finished``).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.http import RouteDoc, api
from gateway.problem_codes import BATTLE
from gateway.routes.base import Caller
from gateway.routes.quest.pvp_schemas import PvpMatchesSchema

TAGS = ("quest against a player",)


class QuestPvpRoutes(Caller):
    @api(
        "GET",
        "/quest/pvp-matches",
        RouteDoc(
            "Your asynchronous matches against players (active first) and your win/loss record",
            PvpMatchesSchema,
            auth="player",
            tags=TAGS,
            codes=BATTLE,
            operation_id="listQuestPvpMatches",
        ),
    )
    async def quest_pvp_matches(self, request: Request) -> Any:
        """``GET /quest/pvp-matches`` -> ``{"items": [{"id": "...", "opponentName":
        "Keeper-3fa2c1", "yourTurn": true, ...}], "record": {"wins": 2, "losses": 1,
        "uncounted": 0}, "activeLimit": 10}``"""
        return await self.services.call(
            "battle", "pvp_matches", player_id=await self._player_id(request), game="quest"
        )
