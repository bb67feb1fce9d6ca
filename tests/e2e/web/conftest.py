"""The browser client against the real platform: web/dist served by a small static server,
the API by a gateway that allows that origin (CORS); the journeys (journeys.py) drive
Debian's chromium through Playwright (``make browser-machine`` installs it; nothing is
downloaded).

A deployment's gateway serves the client itself at ``/`` (gateway/routes/web.py); here a
static server does, so that the test writes the page's config.json (a short pollSeconds):
the page and the API are two origins, which config.json's apiOrigin and CORS cover.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import requests

from deckyard.api_client import ApiClient
from services.authoring.orm import plumbing
from services.authoring.seed import seed
from shared.clock import SystemClock
from shared.config import SERVICE_NAMES
from shared.db import Database, make_engine
from tests.conftest import http_port
from tests.helpers import wait_for

ROOT = Path(__file__).resolve().parents[3]
DIST = ROOT / "web" / "dist"
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))


def build_client() -> Path:
    """web/dist, rebuilt by ``make web`` when a source changed (instant otherwise)."""
    if shutil.which("npm") is None:
        pytest.fail("the browser tests need Node.js and npm to build web/ (make web)")
    subprocess.run(["make", "-s", "web"], cwd=ROOT, check=True)
    return DIST


class _ClientFiles(SimpleHTTPRequestHandler):
    """web/dist, and the runtime config.json that points the page at the test's gateway."""

    client_config: dict[str, Any] = {}

    def do_GET(self) -> None:
        if self.path.split("?")[0].endswith("/config.json"):
            body = json.dumps(self.client_config).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the test's output is the browser's story, not every file served."""


@pytest.fixture
def client_server() -> Iterator[tuple[str, dict[str, Any]]]:
    """(origin, config) of a static server for web/dist; fill config before the page loads."""
    dist = build_client()
    client_config: dict[str, Any] = {}
    handler = type("Handler", (_ClientFiles,), {"client_config": client_config})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(dist)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", client_config
    finally:
        server.shutdown()
        server.server_close()


def seed_catalogue(settings: Any, api: str) -> None:
    """The catalogue and demo content as `deckyard run` publishes them (idempotent), once
    the cards service shows the starter cards."""
    engine = make_engine(settings.database_url_for("authoring"), pool_size=1)
    try:
        seed(Database(engine, plumbing, SystemClock().now), SystemClock())
    finally:
        engine.dispose()

    def starters_listed() -> bool:
        names = {
            card["name"]
            for card in requests.get(f"{api}/cards/catalogue?game=quest").json()["items"]
        }
        return {"Quillip", "Field Kit", "Reserve Focus"} <= names

    wait_for(starters_listed, timeout=30)


@pytest.fixture
def battle_clock() -> Any:
    """The battle service's clock: its own (None), unless a test module overrides this
    fixture with a clock it moves (TerraKard's new players are protected for days)."""
    return None


@pytest.fixture
def web_platform(start_service, settings, client_server, battle_clock):
    """Every service, the seeded catalogue, and a gateway that lets the client's origin
    call it; answers the page's URL."""
    origin, client_config = client_server
    for name in SERVICE_NAMES:
        moved = name == "battle" and battle_clock is not None
        start_service(name, replacements={"clock": battle_clock} if moved else None)
    gateway = start_service("gateway", CORS_ORIGINS=origin)
    api = f"http://127.0.0.1:{http_port(gateway)}"
    seed_catalogue(settings, api)
    client_config.update(
        {
            "apiOrigin": api,
            "devAuth": True,
            "audience": settings.auth0_audience,
            "rolesClaim": settings.auth0_roles_claim,
            "pollSeconds": 1,
        }
    )
    return origin + "/"


@pytest.fixture
def web_api(web_platform, client_server, settings) -> ApiClient:
    """The API the page calls, for what a test prepares outside the browser."""
    return ApiClient(client_server[1]["apiOrigin"], settings)


def run_journey(journey: str, url: str, *names: str) -> None:
    """One journey of journeys.py in chromium, in a process without eventlet; ``names``:
    the players the test prepared, who sign in by them."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: make browser-machine (apt-get install chromium)")
    env = {**os.environ, "CHROMIUM": str(CHROMIUM), "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.e2e.web.journeys", journey, url, *names],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"the {journey} journey failed:\n{done.stdout}\n{done.stderr}"
