"""A stand-in for the Auth0 Management API, for tests: never the real tenant.

A small HTTP server (eventlet's WSGI server on 127.0.0.1, a free port) that
answers the two calls account deletion makes through auth0-python:

- ``POST /oauth/token`` (client credentials): a bearer token, if the client id
  and secret are the ones it was given;
- ``DELETE /api/v2/users/{id}`` with that token: 204, recording the user id.

``fail_next(n)`` makes the next ``n`` deletions answer 503 (Auth0 unavailable).
Every deletion call is recorded with its status, successful or not.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import parse_qs, unquote

import eventlet
import eventlet.wsgi

from shared.config import Settings

CLIENT_ID = "standin-client"
CLIENT_SECRET = "standin-secret"  # a test value, for the stand-in only
USERS_PREFIX = "/api/v2/users/"


@dataclass
class DeleteCall:
    user_id: str
    status: int


@dataclass
class Auth0StandIn:
    client_id: str = CLIENT_ID
    client_secret: str = CLIENT_SECRET
    calls: list[DeleteCall] = field(default_factory=list)
    tokens_issued: int = 0
    _failures_left: int = 0
    _tokens: set[str] = field(default_factory=set)
    _server: Any = None
    _port: int = 0

    # -- control -------------------------------------------------------------------------

    def start(self) -> Auth0StandIn:
        sock = eventlet.listen(("127.0.0.1", 0))
        self._port = sock.getsockname()[1]
        self._server = eventlet.spawn(
            eventlet.wsgi.server, sock, self._app, log_output=False, debug=False
        )
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.kill()
            self._server = None

    def __enter__(self) -> Auth0StandIn:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def fail_next(self, times: int) -> None:
        """The next ``times`` deletions answer 503 Service Unavailable."""
        self._failures_left = times

    @property
    def domain(self) -> str:
        return f"127.0.0.1:{self._port}"

    @property
    def deleted(self) -> list[str]:
        return [call.user_id for call in self.calls if call.status == 204]

    def settings(self, settings: Settings) -> Settings:
        """``settings`` with the Management API pointed here."""
        return replace(
            settings,
            auth0_mgmt_domain=self.domain,
            auth0_mgmt_protocol="http",
            auth0_mgmt_client_id=self.client_id,
            auth0_mgmt_client_secret=self.client_secret,
        )

    # -- the API -------------------------------------------------------------------------

    def _app(self, environ: dict[str, Any], start_response: Any) -> list[bytes]:
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        if method == "POST" and path == "/oauth/token":
            status, body = self._token(environ)
        elif method == "DELETE" and path.startswith(USERS_PREFIX):
            status, body = self._delete(environ, unquote(path[len(USERS_PREFIX) :]))
        else:
            status, body = 404, {"statusCode": 404, "error": "Not Found", "message": path}
        payload = b"" if status == 204 else json.dumps(body).encode()
        headers = [("Content-Type", "application/json")] if payload else []
        start_response(f"{status} {_REASONS[status]}", headers)
        return [payload]

    def _token(self, environ: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        raw = environ["wsgi.input"].read(int(environ.get("CONTENT_LENGTH") or 0)).decode()
        if "json" in environ.get("CONTENT_TYPE", ""):
            form = json.loads(raw or "{}")
        else:
            form = {k: v[0] for k, v in parse_qs(raw).items()}
        if (
            form.get("grant_type") != "client_credentials"
            or form.get("client_id") != self.client_id
            or form.get("client_secret") != self.client_secret
        ):
            return 401, {"error": "access_denied", "error_description": "Unauthorized"}
        self.tokens_issued += 1
        token = f"standin-token-{self.tokens_issued}"
        self._tokens.add(token)
        return 200, {
            "access_token": token,
            "token_type": "Bearer",
            "expires_in": 86400,
            "scope": "delete:users",
        }

    def _delete(self, environ: dict[str, Any], user_id: str) -> tuple[int, dict[str, Any]]:
        token = environ.get("HTTP_AUTHORIZATION", "").removeprefix("Bearer ")
        if token not in self._tokens:
            self.calls.append(DeleteCall(user_id, 401))
            return 401, {"statusCode": 401, "error": "Unauthorized", "message": "bad token"}
        if self._failures_left > 0:
            self._failures_left -= 1
            self.calls.append(DeleteCall(user_id, 503))
            return 503, {"statusCode": 503, "error": "Service Unavailable", "message": "try later"}
        self.calls.append(DeleteCall(user_id, 204))
        return 204, {}


_REASONS = {200: "OK", 204: "No Content", 401: "Unauthorized", 404: "Not Found", 503: "Unavailable"}
