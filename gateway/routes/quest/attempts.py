"""Quest attempts: start (or resume) the one attempt at an event, answer, read it."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import CHALLENGE
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.pages import PageQuery
from gateway.routes.quest.attempts_schemas import (
    AnswerRequest,
    AttemptPageSchema,
    AttemptSchema,
    StartAttemptRequest,
)

TAGS = ("quest",)
ANSWER_REQUEST = AnswerRequest()  # built once: the hot path (stateless once built)


class QuestAttemptRoutes(Caller):
    @api(
        "POST",
        "/quest/events/<uuid:event_id>/attempt",
        RouteDoc(
            "Start the one attempt at an event (201) or resume it (200)",
            AttemptSchema,
            StartAttemptRequest,
            auth="player",
            status=201,
            errors=WRITE_ERRORS,
            also=(200,),
            tags=TAGS,
            codes=CHALLENGE,
        ),
    )
    async def start_attempt(self, request: Request, event_id: Any) -> tuple[int, Any]:
        """``{"location": {"lat": 51.508, "lon": -0.1281, "accuracyM": 12,
        "acquiredAt": "2026-11-30T12:00:00Z"}}`` -> 201 the attempt (questions, deadline)"""
        player_id = await self._player_id(request)
        args = load(StartAttemptRequest(), json_input(request))
        # The service takes the claim as JSON in its own (snake_case) names.
        location = {**args["location"], "acquired_at": args["location"]["acquired_at"].isoformat()}
        started = await self.services.call(
            "challenge",
            "start_attempt",
            player_id=player_id,
            event_id=str(event_id),
            location=location,
        )
        return (201 if started["created"] else 200), started["attempt"]

    @api(
        "GET",
        "/quest/attempts/<uuid:attempt_id>",
        RouteDoc(
            "Your attempt: questions, options, deadline, your answers; the result once completed",
            AttemptSchema,
            auth="player",
            errors=(404,),
            tags=TAGS,
            codes=CHALLENGE,
        ),
    )
    async def get_attempt(self, request: Request, attempt_id: Any) -> Any:
        """``GET /quest/attempts/<id>`` -> ``{"id": "...", "eventId": "...",
        "status": "active", "deadline": "...", "questions": [...]}``"""
        return await self.services.call(
            "challenge",
            "get_attempt",
            player_id=await self._player_id(request),
            attempt_id=str(attempt_id),
        )

    @api(
        "GET",
        "/quest/attempts",
        RouteDoc(
            "Your attempts, newest first: event, status, score and reward (?cursor=&limit=)",
            AttemptPageSchema,
            auth="player",
            query=PageQuery,
            errors=(422,),
            tags=TAGS,
            codes=CHALLENGE,
            operation_id="listQuestAttempts",
        ),
    )
    async def list_attempts(self, request: Request) -> Any:
        """``GET /quest/attempts?limit=2`` -> ``{"items": [{"id": "...", "eventName":
        "Trafalgar Square", "status": "completed", "correctCount": 4, ...}], "next": "..."}``"""
        args = load(PageQuery(), query_args(request))
        return await self.services.call(
            "challenge", "list_attempts", player_id=await self._player_id(request), **args
        )

    @api(
        "PUT",
        "/quest/attempts/<uuid:attempt_id>/answers/<int:index>",
        RouteDoc(
            "Answer one question: {choice} or {order}; answers are final",
            AttemptSchema,
            AnswerRequest,
            auth="player",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=CHALLENGE,
            operation_id="answerQuestQuestion",
        ),
    )
    async def answer(self, request: Request, attempt_id: Any, index: int) -> Any:
        """``{"choice": "o1a2b3c4d"}`` -> the attempt with your answer recorded"""
        player_id = await self._player_id(request)
        submission = load(ANSWER_REQUEST, json_input(request))
        return await self.services.call(
            "challenge",
            "answer",
            player_id=player_id,
            attempt_id=str(attempt_id),
            index=index,
            submission=submission,
        )
