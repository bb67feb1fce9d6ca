"""Declaring routes and reading requests: what every route module uses.

``api`` marks a handler of the gateway (an ``async`` method of a route mixin) as a
public route with its documentation (``RouteDoc``: summary, schemas, auth, codes),
which the OpenAPI document is built from; ``internal`` marks a route of the status
port only. ``gateway/asgi.py`` serves them. A handler answers with a JSON value (the
route's ``status``), a ``(status, value)`` pair, or a ``Response``; every failure is
an exception that ``gateway/problems.py`` turns into problem+json.

The body is read (with the size limit) before the handler runs, so the handler reads
it synchronously: ``json_input(request)``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from marshmallow import Schema
from starlette.requests import Request

from shared.errors import BadRequest, InvalidInput
from shared.logs import REQUEST_ID as REQUEST_ID  # the request's id, for its RPCs and logs

DEFAULT_MAX_BODY_BYTES = 64 * 1024
BODY_STATE = "deckyard_body"  # where the read body waits in ``request.state``


@dataclass(frozen=True)
class RouteDoc:
    summary: str
    response: type[Schema] | None = None
    request: type[Schema] | None = None
    auth: str = "none"  # "none", "player" or "author"
    status: int = 200
    errors: tuple[int, ...] = ()
    tags: tuple[str, ...] = field(default_factory=tuple)
    content_type: str = "application/json"
    # Other statuses answered with the response schema, not problem+json (/ready's 503).
    also: tuple[int, ...] = ()
    query: type[Schema] | None = None  # the query parameters the route reads
    headers: tuple[dict[str, Any], ...] = ()  # OpenAPI parameters "in": "header" it reads
    # The problem codes of its area, by status (gateway/problem_codes.py); the OpenAPI
    # document enumerates them with the gateway's own for every status the route lists.
    codes: Mapping[int, tuple[str, ...]] = field(default_factory=dict, hash=False)
    # OpenAPI operationId; derived from the handler's name when empty (gateway/openapi.py).
    operation_id: str = ""


@dataclass(frozen=True)
class Route:
    """One method on one path. ``url`` is written as ``/quest/attempts/<uuid:attempt_id>``
    (converters ``uuid``, ``int``, ``economy`` (one of ``ECONOMY_GAMES``), or none for a
    path segment)."""

    method: str
    url: str
    doc: RouteDoc
    internal: bool = False  # the status port's, never the API's

    @property
    def pattern(self) -> re.Pattern[str]:
        return path_pattern(self.url)


ROUTES_ATTRIBUTE = "deckyard_routes"


def _route(method: str, url: str, doc: RouteDoc, internal: bool) -> Callable[[Any], Any]:
    def mark(handler: Any) -> Any:
        routes = [*getattr(handler, ROUTES_ATTRIBUTE, ()), Route(method, url, doc, internal)]
        setattr(handler, ROUTES_ATTRIBUTE, tuple(routes))
        return handler

    return mark


def api(method: str, url: str, doc: RouteDoc) -> Callable[[Any], Any]:
    """A public route: on the API port and in the OpenAPI document."""
    return _route(method, url, doc, internal=False)


def internal(method: str, url: str, doc: RouteDoc) -> Callable[[Any], Any]:
    """A route of the status port only: not on the API port, not in the OpenAPI document."""
    return _route(method, url, doc, internal=True)


class RouteClash(RuntimeError):
    """Two routes the gateway cannot both serve: it refuses to start rather than lose one."""


def routes_of(cls: type) -> list[tuple[str, Route]]:
    """(handler name, route) of every route a gateway class declares, by path and method.

    The class statement's bases are the list of route classes; each class's routes are
    read from its own ``__dict__``. Read through ``dir()`` of the combined class, a name
    that two mixins define is one attribute, and the other mixin's route is silently
    gone; so a route's handler name defined by a second class of ``cls``, or a second
    route of one method and path on one port, is a ``RouteClash`` naming both.
    """
    classes = cls.__mro__
    found: list[tuple[str, Route]] = []
    owner: dict[str, str] = {}  # handler name -> "module.Class.name"
    for declaring in classes:
        for name, member in vars(declaring).items():
            routes = getattr(member, ROUTES_ATTRIBUTE, ())
            if not routes:
                continue
            where = _where(declaring, name)
            other = next((c for c in classes if c is not declaring and name in vars(c)), None)
            if other is not None:
                raise RouteClash(f"{where} and {_where(other, name)}: one handler name twice")
            found.extend((name, route) for route in routes)
            owner[name] = where
    served: dict[tuple[bool, str, str], str] = {}
    for name, route in found:
        for method in route.method.split(","):
            key = (route.internal, method.strip().upper(), _VARIABLE.sub(_unnamed, route.url))
            if key in served:
                raise RouteClash(
                    f"{served[key]} and {owner[name]}: both {key[1]} {route.url}"
                    + (" (status port)" if route.internal else "")
                )
            served[key] = owner[name]
    return sorted(found, key=lambda item: (item[1].url, item[1].method))


def _where(declaring: type, name: str) -> str:
    return f"{declaring.__module__}.{declaring.__qualname__}.{name}"


def _unnamed(variable: re.Match[str]) -> str:
    """A path variable without its name: ``<uuid:id>`` and ``<uuid:deck_id>`` match alike."""
    return f"<{variable.group(1) or ''}>"


# The games with a currency ledger and packs (services/cards/economy_data/currencies.json;
# a unit test keeps the two equal): the ``economy`` converter's values.
ECONOMY_GAMES = ("chronovore", "terrakard")
# The games whose players invite each other by pseudonym (services/battle/pvp.py TABLES):
# the ``versus`` converter's values.
VERSUS_GAMES = ("chronovore", "quest")

_VARIABLE = re.compile(r"<(?:([^:<>]+):)?([^<>]+)>")
_CONVERTERS = {
    "economy": "|".join(ECONOMY_GAMES),  # grouped by path_pattern's named group
    "versus": "|".join(VERSUS_GAMES),
    "uuid": r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
    "int": r"[0-9]{1,18}",  # beyond that no index exists (and int() of 5,000 digits fails)
    "": r"[^/]+",
}


def path_pattern(url: str) -> re.Pattern[str]:
    """The regular expression of a route's path, one named group per variable."""
    parts, last = [], 0
    for match in _VARIABLE.finditer(url):
        converter, name = match.group(1) or "", match.group(2)
        parts.append(re.escape(url[last : match.start()]))
        parts.append(f"(?P<{name}>{_CONVERTERS[converter]})")
        last = match.end()
    parts.append(re.escape(url[last:]))
    return re.compile("".join(parts))


def path_values(url: str, groups: Mapping[str, str]) -> dict[str, Any]:
    """The matched variables as their converters make them (``int`` an int; uuid text kept
    as sent, lower-cased as the services store ids)."""
    values: dict[str, Any] = {}
    for match in _VARIABLE.finditer(url):
        converter, name = match.group(1) or "", match.group(2)
        raw = groups[name]
        values[name] = int(raw) if converter == "int" else raw.lower() if converter else raw
    return values


def json_body(request: Request) -> Any:
    """The request's JSON body; a clear 400 for anything that is not JSON.

    JSON between systems is UTF-8 (RFC 8259 8.1): the bytes are decoded strictly,
    so invalid or surrogate-encoding bytes, a byte order mark, or UTF-16/32 (which
    ``json.loads`` would otherwise guess) are malformed too.
    """
    mimetype = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if mimetype != "application/json":
        raise BadRequest("unsupported_media_type", "send the body as application/json")
    body: bytes = getattr(request.state, BODY_STATE, b"")
    try:
        text = (body or b"null").decode("utf-8")
        return json.loads(text, parse_constant=_not_json)
    except (ValueError, UnicodeDecodeError, RecursionError) as exc:
        raise BadRequest("malformed_json", "the body is not valid JSON") from exc


def _not_json(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")


def json_input(request: Request) -> Any:
    """The JSON body a route reads: ``json_body``, with only text the services can store."""
    value = json_body(request)
    refuse_unstorable_text(value)
    return value


def query_args(request: Request) -> dict[str, str]:
    """The query parameters a route reads (the first of repeated ones), with only text
    the services can store."""
    args: dict[str, str] = {}
    for name, value in request.query_params.multi_items():
        args.setdefault(name, value)
    refuse_unstorable_text(args)
    return args


def refuse_unstorable_text(value: Any) -> None:
    """422 for a string (value or key, at any depth) with a NUL or an unpaired surrogate.

    Both are valid JSON escapes (``\\u0000``, ``\\ud800``), but PostgreSQL text and
    jsonb cannot hold NUL, and an unpaired surrogate is not Unicode text (it cannot
    be encoded to UTF-8): anywhere downstream they fail as a 500. The walk is
    iterative, as deep as ``json.loads`` allowed.
    """
    pending = [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str):
            if not _STORABLE.fullmatch(item):
                raise InvalidInput(
                    "invalid_text",
                    "text may not contain NUL characters or unpaired surrogates",
                )
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)


_STORABLE = re.compile(r"[^\x00\ud800-\udfff]*")  # no NUL, no surrogate
