"""A small client for the public API, as a player's app would use it.

One client for the end-to-end tests (tests/e2e) and the benchmarks (bench/), so both
speak the API the same way (camelCase bodies, bearer tokens, JSON in and out):

- ``call`` is the lean JSON path: one keep-alive ``http.client`` connection (optionally
  from a given loopback source address), a JSON body, and ``Answer(status, body,
  headers, seconds)``; a transport failure is status 0, never an exception. The
  benchmarks time requests through it, so it adds nothing a measurement would see.
- ``request`` and ``get`` are the full HTTP path for tests that send odd bodies, headers
  or query strings: a ``requests`` session, answering ``requests.Response``.
- ``token`` mints a development access token (gateway/devauth.py) for any subject.
"""

from __future__ import annotations

import http.client
import json
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import requests

DEFAULT_TIMEOUT = 15.0


@dataclass(frozen=True)
class Answer:
    status: int  # 0: the connection failed; ``body`` then says why
    body: Any  # the parsed JSON, or the start of a body that is not JSON
    headers: dict[str, str] = field(default_factory=dict)  # names in lower case
    seconds: float = 0.0  # from sending to the whole answer read


class ApiClient:
    def __init__(
        self,
        base_url: str,
        settings: Any = None,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        source_address: str | None = None,
    ) -> None:
        self.base_url = base_url
        self.settings = settings
        self.timeout = timeout
        self.http = requests.Session()
        address = urlsplit(base_url)
        self._host, self._port = address.hostname or "127.0.0.1", address.port or 80
        self._source = (source_address, 0) if source_address else None
        self._conn: http.client.HTTPConnection | None = None

    # -- tokens ---------------------------------------------------------------------------

    def token(self, sub: str, roles: Any = (), **kwargs: Any) -> str:
        """A development access token for ``sub`` (the settings name audience and claim)."""
        from gateway.devauth import mint_token

        token: str = mint_token(
            sub,
            audience=self.settings.auth0_audience,
            roles=roles,
            roles_claim=self.settings.auth0_roles_claim,
            **kwargs,
        )
        return token

    # -- the lean JSON path ---------------------------------------------------------------

    def call(
        self,
        method: str,
        path: str,
        token: str | None = None,
        body: Any = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """One request on the keep-alive connection; ``body`` is sent as JSON."""
        sent = dict(headers or {})
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        started = time.perf_counter()
        try:
            if self._conn is None:
                self._conn = http.client.HTTPConnection(
                    self._host, self._port, timeout=self.timeout, source_address=self._source
                )
            self._conn.request(method, path, body=data, headers=sent)
            response = self._conn.getresponse()
            raw = response.read()
            if response.will_close:
                self.close()
        except (OSError, http.client.HTTPException) as exc:
            self.close()  # the next call opens a new connection
            return Answer(0, str(exc), {}, time.perf_counter() - started)
        elapsed = time.perf_counter() - started
        try:
            parsed = json.loads(raw) if raw else None
        except ValueError:
            parsed = raw[:300].decode(errors="replace")
        answer_headers = {name.lower(): value for name, value in response.getheaders()}
        return Answer(response.status, parsed, answer_headers, elapsed)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    # -- the full HTTP path ---------------------------------------------------------------

    def get(self, path: str, token: str | None = None, **kwargs: Any) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        kwargs.setdefault("timeout", self.timeout)
        return self.http.get(self.base_url + path, headers=headers, **kwargs)

    def request(self, method: str, path: str, **kwargs: Any) -> requests.Response:
        kwargs.setdefault("timeout", self.timeout)
        return self.http.request(method, self.base_url + path, **kwargs)

    def me(self, sub: str, roles: Any = ()) -> requests.Response:
        return self.get("/me", token=self.token(sub, roles))
