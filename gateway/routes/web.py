"""The browser client: its files at ``/``, its configuration, and development sign-in.

The client (``web/``, built into ``WEB_ROOT``) is served by the gateway itself, so it
calls the API on its own origin (no CORS) and one build serves every deployment: what
differs (Auth0 tenant, map tiles) comes from ``GET /config.json``, made from the
settings. ``POST /dev/token`` mints a development token for the client's development
sign-in page, only where the development issuer is trusted (``DEV_AUTH=1``).
"""

from __future__ import annotations

import mimetypes
from pathlib import Path
from typing import Any

from marshmallow import fields, validate
from starlette.requests import Request
from starlette.responses import FileResponse, Response

from gateway.casing import CamelSchema, load
from gateway.devauth import mint_token
from gateway.http import RouteDoc, api, json_input
from gateway.problems import route_not_found
from shared.config import Settings
from shared.errors import NotFound

DEV_TOKEN_TTL_SECONDS = 3600
CACHE_FOREVER = "public, max-age=31536000, immutable"  # Vite's hashed assets/


class DevTokenRequest(CamelSchema):
    sub = fields.String(required=True, validate=validate.Length(min=1, max=255))
    roles = fields.List(
        fields.String(validate=validate.OneOf(["player", "author"])), load_default=list
    )


class WebRoutes:
    settings: Settings

    @api("GET", "/config.json", RouteDoc("The browser client's configuration for this deployment"))
    async def client_config(self, request: Request) -> dict[str, Any]:
        """``GET /config.json`` -> ``{"devAuth": true, "audience": "...", "auth0": null, ...}``"""
        settings = self.settings
        auth0 = None
        if settings.auth0_domain and settings.auth0_client_id:
            auth0 = {"domain": settings.auth0_domain, "client_id": settings.auth0_client_id}
        return {
            "api_origin": "",
            "tiles_url": settings.map_tiles_url,
            "tiles_attribution": settings.map_tiles_attribution,
            "audience": settings.auth0_audience,
            "roles_claim": settings.auth0_roles_claim,
            "auth0": auth0,
            "dev_auth": settings.dev_auth,
        }

    @api(
        "POST",
        "/dev/token",
        RouteDoc(
            "A development access token (DEV_AUTH=1 only; 404 otherwise)",
            request=DevTokenRequest,
            errors=(400, 404, 413, 422),
            operation_id="createDevToken",
        ),
    )
    async def dev_token(self, request: Request) -> dict[str, Any]:
        """``{"sub": "dev|alice", "roles": ["author"]}`` -> ``{"accessToken": "...",
        "expiresIn": 3600}``"""
        if not self.settings.dev_auth:
            raise NotFound("route_not_found", "There is no such route.")
        args = load(DevTokenRequest(), json_input(request))
        token = mint_token(
            args["sub"],
            roles=[r for r in args["roles"] if r != "player"],
            ttl_seconds=DEV_TOKEN_TTL_SECONDS,
            audience=self.settings.auth0_audience,
            roles_claim=self.settings.auth0_roles_claim,
        )
        return {"access_token": token, "expires_in": DEV_TOKEN_TTL_SECONDS}

    def web_file(self, path: str) -> Response:
        """A file of the built client (``/`` is its index); a problem for anything else."""
        root = self.settings.web_root
        if not root:
            return route_not_found()
        base = Path(root).resolve()
        try:
            wanted = (base / (path.lstrip("/") or "index.html")).resolve()
            inside = base in wanted.parents or wanted == base
            if not inside or not wanted.is_file():
                return route_not_found()
        except (ValueError, OSError):  # a NUL (%00), a name too long for the file system
            return route_not_found()
        media_type = mimetypes.guess_type(wanted.name)[0] or "application/octet-stream"
        headers = {"Cache-Control": CACHE_FOREVER if "/assets/" in path else "no-cache"}
        return FileResponse(wanted, media_type=media_type, headers=headers)
