"""``GET /docs``: the API reference, Swagger UI on ``/openapi.json``, from this host only.

Swagger UI (npm ``swagger-ui-dist``, pinned in web/package-lock.json) is copied into the
built client by web/vite.config.ts, under ``swagger-ui/``, and the gateway serves it
with the client's other files. Nothing comes from another host: no CDN, and Swagger
UI's validator badge (which would send the document to validator.swagger.io) is off.

Without that build (no Node where the platform was installed, or ``WEB_ROOT`` empty)
the page is the plain table of routes (gateway/openapi.py), which needs no script; the
reference page carries that table too, in ``<noscript>``.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from gateway.openapi import render_docs_page

VIEWER_DIR = "swagger-ui"  # in WEB_ROOT, written by web/vite.config.ts
VIEWER_SCRIPT = f"/{VIEWER_DIR}/swagger-ui-bundle.js"
VIEWER_STYLE = f"/{VIEWER_DIR}/swagger-ui.css"

# validatorUrl null: no badge, so the document is never sent to validator.swagger.io.
_START = (
    "SwaggerUIBundle({url: '/openapi.json', dom_id: '#reference', validatorUrl: null,"
    " deepLinking: true, tryItOutEnabled: false, persistAuthorization: false});"
)


def viewer_installed(web_root: str) -> bool:
    """Whether the built client holds Swagger UI (web/dist/swagger-ui/)."""
    return bool(web_root) and (Path(web_root) / VIEWER_SCRIPT.lstrip("/")).is_file()


def render_reference_page(spec: dict[str, Any]) -> str:
    """Swagger UI on ``/openapi.json``; the table of routes for a browser without scripts."""
    table = render_docs_page(spec)
    body = table[table.index("<body>") + len("<body>") : table.rindex("</body>")]
    title = html.escape(spec["info"]["title"])
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<meta name=viewport content='width=device-width, initial-scale=1'>"
        f"<title>{title} reference</title>"
        f"<link rel=stylesheet href={VIEWER_STYLE}></head><body>"
        f"<div id=reference></div><noscript>{body}</noscript>"
        f"<script src={VIEWER_SCRIPT}></script><script>{_START}</script>"
        "</body></html>"
    )


def docs_page(spec: dict[str, Any], web_root: str) -> str:
    """The reference when Swagger UI was built into the client, else the plain table."""
    return render_reference_page(spec) if viewer_installed(web_root) else render_docs_page(spec)
