"""Authoring (Authors only): drafts of any kind of content, their lifecycle, the audit.

A content ``body`` is camelCase on the wire like everything else; the authoring
service and the games' validators name its members in snake_case, so the gateway
converts it both ways (gateway/casing.py).
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request

from gateway.casing import load, snakeize
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import AUTHORING
from gateway.routes.authoring_schemas import (
    AuditPageSchema,
    ContentListQuery,
    ContentPageSchema,
    ContentSchema,
    CreateContentRequest,
    EditContentRequest,
    TransitionRequest,
)
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.pages import whole

TAGS = ("authoring",)


class AuthoringRoutes(Caller):
    @api(
        "POST",
        "/authoring/content",
        RouteDoc(
            "Create a draft of any kind of content",
            ContentSchema,
            CreateContentRequest,
            auth="author",
            status=201,
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def create_content(self, request: Request) -> tuple[int, Any]:
        """``{"kind": "question", "game": "quest", "body": {...}}`` -> 201 the draft, version 1"""
        author = await self._author(request)
        args = load(CreateContentRequest(), json_input(request))
        replaces = str(args["replaces"]) if args["replaces"] else None
        created = await self.services.call(
            "authoring",
            "create",
            actor=author.sub,
            kind=args["kind"],
            game=args["game"],
            body=snakeize(args["body"]),
            replaces=replaces,
        )
        return 201, created

    @api(
        "GET",
        "/authoring/content",
        RouteDoc(
            "List content, newest first (?kind=&state=&cursor=&limit=)",
            ContentPageSchema,
            query=ContentListQuery,
            auth="author",
            errors=(422,),
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def list_content(self, request: Request) -> Any:
        """``GET /authoring/content?state=draft&limit=2`` -> ``{"items": [{"id": "...",
        ...}], "next": "1796130000000000-0f3c..."}``"""
        await self._author(request)
        args = load(ContentListQuery(), query_args(request))
        return await self.services.call("authoring", "list", **args)

    @api(
        "GET",
        "/authoring/content/<uuid:content_id>",
        RouteDoc(
            "Read content, private fields included",
            ContentSchema,
            auth="author",
            errors=(404,),
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def get_content(self, request: Request, content_id: Any) -> Any:
        """``GET /authoring/content/<id>`` -> ``{"id": "...", "lineageId": "...",
        "state": "draft", "version": 1, "body": {...}, "createdAt": "..."}``"""
        await self._author(request)
        return await self.services.call("authoring", "get", content_id=str(content_id))

    @api(
        "PUT",
        "/authoring/content/<uuid:content_id>",
        RouteDoc(
            "Edit a draft",
            ContentSchema,
            EditContentRequest,
            auth="author",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def edit_content(self, request: Request, content_id: Any) -> Any:
        """``{"expectedVersion": 1, "body": {...}}`` -> the draft at version 2"""
        author = await self._author(request)
        args = load(EditContentRequest(), json_input(request))
        return await self.services.call(
            "authoring",
            "edit",
            actor=author.sub,
            content_id=str(content_id),
            expected_version=args["expected_version"],
            body=snakeize(args["body"]),
        )

    @api(
        "POST",
        "/authoring/content/<uuid:content_id>/transitions",
        RouteDoc(
            "Submit, approve, return, publish or retire",
            ContentSchema,
            TransitionRequest,
            auth="author",
            errors=WRITE_ERRORS,
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def transition_content(self, request: Request, content_id: Any) -> Any:
        """``{"to": "in_review", "expectedVersion": 2}`` -> the content at version 3"""
        author = await self._author(request)
        args = load(TransitionRequest(), json_input(request))
        return await self.services.call(
            "authoring",
            "transition",
            actor=author.sub,
            content_id=str(content_id),
            to=args["to"],
            expected_version=args["expected_version"],
            reason=args["reason"],
        )

    @api(
        "GET",
        "/authoring/content/<uuid:content_id>/audit",
        RouteDoc(
            "The audit trail: who did what, when, from and to which state",
            AuditPageSchema,
            auth="author",
            errors=(404,),
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def content_audit(self, request: Request, content_id: Any) -> Any:
        """``GET /authoring/content/<id>/audit`` -> ``{"items": [{"version": 2, "actor":
        "...", "action": "transition", "from": "draft", "to": "in_review", "at": "..."}],
        "next": null}``"""
        await self._author(request)
        return whole(await self.services.call("authoring", "audit", content_id=str(content_id)))
