"""A small client for the public API, as a player's app would use it."""

from __future__ import annotations

import requests

from gateway.devauth import mint_token


class ApiClient:
    def __init__(self, base_url: str, settings) -> None:
        self.base_url = base_url
        self.settings = settings
        self.http = requests.Session()

    def token(self, sub: str, roles=(), **kwargs) -> str:
        return mint_token(
            sub,
            audience=self.settings.auth0_audience,
            roles=roles,
            roles_claim=self.settings.auth0_roles_claim,
            **kwargs,
        )

    def get(self, path: str, token: str | None = None, **kwargs) -> requests.Response:
        headers = kwargs.pop("headers", {})
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        return self.http.get(self.base_url + path, headers=headers, timeout=15, **kwargs)

    def request(self, method: str, path: str, **kwargs) -> requests.Response:
        kwargs.setdefault("timeout", 15)
        return self.http.request(method, self.base_url + path, **kwargs)

    def me(self, sub: str, roles=()) -> requests.Response:
        return self.get("/me", token=self.token(sub, roles))
