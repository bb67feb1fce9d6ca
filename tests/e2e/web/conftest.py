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
from sqlalchemy import create_engine, func, select

from deckyard.api_client import ApiClient
from services.authoring.orm import content, plumbing
from services.authoring.seed import seed
from shared.clock import SystemClock
from shared.config import SERVICE_NAMES
from shared.db import Database, make_engine
from tests.conftest import http_port
from tests.e2e.terrakard.test_fresh_install import PROPAGATION_SECONDS, deckyard, fresh
from tests.helpers import wait_for

__all__ = ["fresh"]  # the fixture, for fresh_web_platform

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
    origin = client_server[0]
    for name in SERVICE_NAMES:
        moved = name == "battle" and battle_clock is not None
        start_service(name, replacements={"clock": battle_clock} if moved else None)
    gateway = start_service("gateway", CORS_ORIGINS=origin)
    api = f"http://127.0.0.1:{http_port(gateway)}"
    seed_catalogue(settings, api)
    return serve_client(client_server, settings, api)


def serve_client(client_server: tuple[str, dict[str, Any]], settings: Any, api: str) -> str:
    """The page's config.json pointed at the gateway ``api`` (development sign-in, a short
    poll); answers the page's URL."""
    origin, client_config = client_server
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
def fresh_web_platform(fresh, start_service, client_server):
    """A fresh install of its own (new databases, its own vhost: tests/e2e/terrakard/
    test_fresh_install.py's ``fresh``) migrated and seeded by the operator's very command,
    demo content included (``deckyard migrate --seed demo``, as compose's does; ``deckyard
    run`` seeds the same): nothing on it but what the install publishes, its TerraKard
    demo defenders too, which never reach the session's shared database (other tests
    count the arena's targets there). Every service and a gateway the client's origin may
    call; answers the page's URL once the seed's cards reach the cards service."""
    deckyard(fresh, "migrate", "--seed", "demo")
    containers = [start_service(name, settings_override=fresh) for name in SERVICE_NAMES]
    gateway = start_service("gateway", settings_override=fresh, CORS_ORIGINS=client_server[0])
    api = f"http://127.0.0.1:{http_port(gateway)}"
    wait_for(lambda: catalogue_reached_cards(fresh, api), timeout=PROPAGATION_SECONDS, step=1)
    yield serve_client(client_server, fresh, api)
    # Stopped before ``fresh`` drops their databases (container_factory's own teardown
    # comes after every other fixture's).
    for container in containers:
        container.kill()
    gateway.stop()


CARD_KINDS = ("creature", "power_card", "monster", "event_card", "card")  # of the 3 games


def catalogue_reached_cards(settings: Any, api: str) -> bool:
    """Every card the seed published in authoring is listed by cards (the seed's events
    reach cards one by one): a starter, a starting collection, every pack can be had."""
    engine = create_engine(settings.database_url_for("authoring"))
    try:
        with engine.connect() as connection:
            published = dict(
                connection.execute(
                    select(content.c.game, func.count())
                    .where(content.c.state == "published", content.c.kind.in_(CARD_KINDS))
                    .group_by(content.c.game)
                ).all()
            )
    finally:
        engine.dispose()
    return all(
        len(requests.get(f"{api}/cards/catalogue", params={"game": game}).json()["items"]) == count
        for game, count in published.items()
    )


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
