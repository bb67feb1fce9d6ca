"""``GET /docs`` through the gateway's own app: Swagger UI on /openapi.json from this host
only (gateway/apidocs.py), the plain table without it; and a browser's trace context
allowed by CORS (gateway/cors.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from gateway.apidocs import VIEWER_SCRIPT, VIEWER_STYLE
from gateway.app import Gateway
from shared.config import load_settings
from tests.unit.gateway.test_asgi import call

ROOT = Path(__file__).resolve().parents[3]
SWAGGER_UI = ROOT / "web" / "node_modules" / "swagger-ui-dist"  # what web/vite.config.ts copies
PAGE = "http://localhost:5173"
SECRETS = {
    "DATABASE_URL": "postgresql://u:p@db/postgres",
    "AMQP_URI": "amqp://u:p@mq/",
    "DEV_AUTH": "1",
}


def gateway(web_root: Path | str) -> Gateway:
    env = {**SECRETS, "WEB_ROOT": str(web_root), "CORS_ORIGINS": PAGE}
    return Gateway(load_settings(env))


@pytest.fixture
def built(tmp_path: Path) -> Path:
    """A built client holding Swagger UI, as ``npm run build`` leaves web/dist."""
    (tmp_path / "index.html").write_text("<!doctype html><title>Deckyard</title>")
    (tmp_path / "swagger-ui").mkdir()
    for name in ("swagger-ui-bundle.js", "swagger-ui.css"):
        if SWAGGER_UI.is_dir():  # the real files when web/ is installed (npm ci)
            shutil.copy(SWAGGER_UI / name, tmp_path / "swagger-ui" / name)
        else:
            (tmp_path / "swagger-ui" / name).write_text("/* stand-in */")
    return tmp_path


def referenced(page: str) -> list[str]:
    """Every address the page loads a script or a style sheet from."""
    scripts = re.findall(r"<script[^>]*\bsrc=['\"]?([^'\" >]+)", page)
    styles = re.findall(r"<link[^>]*\bhref=['\"]?([^'\" >]+)", page)
    return scripts + styles


@pytest.mark.parametrize("path", ["/docs", "/v1/docs"])
def test_docs_is_swagger_ui_loaded_from_this_host_only(built, path):
    app = gateway(built).api_app()

    status, headers, body = call(app, "GET", path)
    page = body.decode()

    assert status == 200 and headers["content-type"].startswith("text/html")
    assert sorted(referenced(page)) == sorted([VIEWER_SCRIPT, VIEWER_STYLE])
    assert "SwaggerUIBundle({url: '/openapi.json'" in page
    assert "validatorUrl: null" in page  # no badge: the document never leaves for a validator
    assert not re.search(r"(src|href)=['\"]?(https?:)?//", page), "nothing from another host"
    for asset in referenced(page):
        served, _, content = call(app, "GET", asset)
        assert served == 200, asset
        assert content == (built / asset.lstrip("/")).read_bytes()
    script_type = call(app, "GET", VIEWER_SCRIPT)[1]["content-type"]
    assert "javascript" in script_type


def test_docs_page_still_lists_every_route_for_a_browser_without_scripts(built):
    page = call(gateway(built).api_app(), "GET", "/docs")[2].decode()

    noscript = page[page.index("<noscript>") : page.index("</noscript>")]
    assert "<code>/me</code>" in noscript and "<a href=/openapi.json>" in noscript


def test_without_swagger_ui_in_the_build_docs_is_the_plain_table(tmp_path):
    (tmp_path / "index.html").write_text("<!doctype html>")

    status, _, body = call(gateway(tmp_path).api_app(), "GET", "/docs")

    assert status == 200
    assert "<code>/me</code>" in body.decode()
    assert referenced(body.decode()) == []


def test_a_preflight_for_a_traced_call_allows_the_trace_context(built):
    asked = {
        "Origin": PAGE,
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization,traceparent,tracestate",
    }

    status, headers, _ = call(gateway(built).api_app(), "OPTIONS", "/me", headers=asked)

    allowed = {h.strip().lower() for h in headers["access-control-allow-headers"].split(",")}
    assert status == 204
    assert {"authorization", "traceparent", "tracestate"} <= allowed
