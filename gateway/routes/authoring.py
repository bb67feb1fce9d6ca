"""Authoring (Authors only): drafts of any kind of content, their lifecycle, the audit.

A content ``body`` is camelCase on the wire like everything else; the authoring
service and the games' validators name its members in snake_case, so the gateway
converts it both ways (gateway/casing.py).
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request

from gateway.casing import camel, load, snakeize
from gateway.http import RouteDoc, api, json_input, query_args
from gateway.problem_codes import AUTHORING
from gateway.routes.authoring_schemas import (
    ApprovalOutcomePageSchema,
    ApproveBatchRequest,
    AuditPageSchema,
    ContentListQuery,
    ContentPageSchema,
    ContentSchema,
    CreateContentRequest,
    EditContentRequest,
    KindFormPageSchema,
    ReviewQueuePageSchema,
    TransitionRequest,
)
from gateway.routes.base import WRITE_ERRORS, Caller
from gateway.routes.economy_schemas import CLIENT_KEY_PATTERN
from gateway.routes.pages import PageQuery, whole
from shared.errors import InvalidInput

TAGS = ("authoring",)
BATCH_TIMEOUT_SECONDS = 60.0  # ours: a hundred approvals, one transaction each
_CLIENT_KEY = re.compile(CLIENT_KEY_PATTERN)
OPTIONAL_IDEMPOTENCY_HEADER = {
    "name": "Idempotency-Key",
    "in": "header",
    "required": False,
    "description": "Your key for this batch (1-64 printable ASCII characters): the same "
    "key again answers what the first answered, item by item, and changes nothing; "
    "another batch under it is 422 idempotency_key_reused",
    "schema": {"type": "string", "pattern": CLIENT_KEY_PATTERN},
}


def optional_client_key(request: Request) -> str | None:
    """The request's ``Idempotency-Key``, if it sent one: 422 when malformed."""
    key = request.headers.get("Idempotency-Key")
    if key is not None and not _CLIENT_KEY.fullmatch(key):
        raise InvalidInput(
            "invalid_idempotency_key",
            "an Idempotency-Key has 1 to 64 printable ASCII characters, no spaces",
        )
    return key


def with_camel_names(form_fields: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A form's field names as the body's members are named on the wire (camelCase):
    they are values here, which ``camelize`` leaves alone."""
    named = []
    for field in form_fields:
        field = {**field, "name": camel(field["name"])}
        if "fields" in field:
            field["fields"] = with_camel_names(field["fields"])
        if "item" in field:
            field["item"] = with_camel_names([field["item"]])[0]
        named.append(field)
    return named


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

    # -- review at volume: the queue and batch approval (services/authoring/review.py) --

    @api(
        "GET",
        "/authoring/review-queue",
        RouteDoc(
            "Content in review that you did not submit, oldest submission first (?cursor=&limit=)",
            ReviewQueuePageSchema,
            query=PageQuery,
            auth="author",
            errors=(422,),
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def list_review_queue(self, request: Request) -> Any:
        """``GET /authoring/review-queue?limit=2`` -> ``{"items": [{"id": "...",
        "state": "in_review", "version": 2, "submittedBy": "auth0|alice", ...}],
        "next": "1796130000000000-0f3c..."}``"""
        author = await self._author(request)
        args = load(PageQuery(), query_args(request))
        return await self.services.call("authoring", "review_queue", actor=author.sub, **args)

    @api(
        "POST",
        "/authoring/review-queue/approvals",
        RouteDoc(
            "Approve a batch of content in review, each item approved or refused on its own",
            ApprovalOutcomePageSchema,
            ApproveBatchRequest,
            auth="author",
            errors=(400, 413, 422),
            tags=TAGS,
            codes=AUTHORING,
            headers=(OPTIONAL_IDEMPOTENCY_HEADER,),
            operation_id="approveReviewBatch",
        ),
    )
    async def approve_review_batch(self, request: Request) -> Any:
        """``{"items": [{"id": "...", "expectedVersion": 2}, {"id": "...",
        "expectedVersion": 5}]}`` -> ``{"items": [{"id": "...", "outcome": "approved",
        "state": "approved", "version": 3}, {"id": "...", "outcome": "refused",
        "problem": {"status": 403, "code": "own_submission", "detail": "..."}}],
        "next": null, "approved": 1, "refused": 1}``"""
        author = await self._author(request)
        key = optional_client_key(request)
        args = load(ApproveBatchRequest(), json_input(request))
        items = [
            {"content_id": str(item["id"]), "expected_version": item["expected_version"]}
            for item in args["items"]
        ]
        outcomes = await self.services.call(
            "authoring",
            "approve_batch",
            timeout=BATCH_TIMEOUT_SECONDS,
            actor=author.sub,
            items=items,
            idempotency_key=key,
        )
        approved = sum(1 for outcome in outcomes if outcome["outcome"] == "approved")
        return {**whole(outcomes), "approved": approved, "refused": len(outcomes) - approved}

    # -- the editor: a form per kind (services/authoring/forms.py) ------------------------

    @api(
        "GET",
        "/authoring/forms",
        RouteDoc(
            "Every kind's form: its fields, choices and bounds, as authoring validates them",
            KindFormPageSchema,
            auth="author",
            tags=TAGS,
            codes=AUTHORING,
        ),
    )
    async def list_content_forms(self, request: Request) -> Any:
        """``GET /authoring/forms`` -> ``{"items": [{"game": "quest", "kind": "event",
        "fields": [{"name": "radiusM", "label": "Radius (metres)", "type": "integer",
        "required": true, "min": 5, "max": 500, ...}, ...]}, ...], "next": null}``"""
        await self._author(request)
        found = await self.services.call("authoring", "forms")
        return whole({**form, "fields": with_camel_names(form["fields"])} for form in found)
