"""A real gateway for the e2e tests: ``python -m gateway.server`` in a process of its own.

The gateway runs on asyncio (uvloop), the test process under eventlet, as the
services' nameko containers need: so each test's gateway is a child process, started
with the test stack's settings as its environment (its own RabbitMQ vhost and RPC
exchange), on free ports it reports through ``--ports-file``. ``GatewayProcess`` starts
at once and ``wait`` blocks until it serves, so a fixture can start the services'
containers meanwhile.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from shared.config import Settings

START_TIMEOUT_SECONDS = 30.0


def gateway_environment(settings: Settings, **overrides: Any) -> dict[str, str]:
    """The environment a gateway reads, for ``settings``, plus config-style overrides
    (the same names: ``PLAYER_LEASE_SECONDS=0``, ``CORS_ORIGINS="https://a.example"``)."""
    env = {
        "AMQP_URI": settings.amqp_uri,
        "RPC_EXCHANGE": settings.rpc_exchange,
        "DATABASE_URL": settings.database_url,
        "DATABASE_PREFIX": settings.database_prefix,
        "DEV_AUTH": "1" if settings.dev_auth else "",
        "AUTH0_DOMAIN": settings.auth0_domain,
        "AUTH0_AUDIENCE": settings.auth0_audience,
        "AUTH0_ROLES_CLAIM": settings.auth0_roles_claim,
        "BIND_HOST": "127.0.0.1",
        "GATEWAY_PORT": "0",
        "STATUS_PORT": "0",
        "RPC_TIMEOUT_SECONDS": str(settings.rpc_timeout),
        "MAX_BODY_BYTES": str(settings.max_body_bytes),
        "RATE_LIMIT_PLAYER_PER_MINUTE": str(settings.rate_limit_player_per_minute),
        "RATE_LIMIT_PLAYER_BURST": str(settings.rate_limit_player_burst),
        "RATE_LIMIT_ADDRESS_PER_MINUTE": str(settings.rate_limit_address_per_minute),
        "RATE_LIMIT_ADDRESS_BURST": str(settings.rate_limit_address_burst),
        "RATE_LIMIT_AUTHOR_PER_MINUTE": str(settings.rate_limit_author_per_minute),
        "RATE_LIMIT_AUTHOR_BURST": str(settings.rate_limit_author_burst),
        "PLAYER_LEASE_SECONDS": str(settings.player_lease_seconds),
        "PLAYER_TRUST_SECONDS": str(settings.player_trust_seconds),
        "TRUSTED_PROXY_HOPS": str(settings.trusted_proxy_hops),
        "TRUSTED_PROXY_HEADER": settings.trusted_proxy_header,
        "API_SERVERS": ",".join(settings.api_servers),
        "CORS_ORIGINS": ",".join(settings.cors_origins),
        "DELETION_REAUTH_SECONDS": str(settings.deletion_reauth_seconds),
        "LOG_LEVEL": "WARNING",
    }
    env.update({name: str(value) for name, value in overrides.items()})
    return env


class GatewayProcess:
    def __init__(self, settings: Settings, **overrides: Any) -> None:
        self._directory = tempfile.TemporaryDirectory(prefix="deckyard-gateway-")
        self._ports_file = Path(self._directory.name) / "ports.json"
        self._log = open(Path(self._directory.name) / "gateway.log", "w+b")  # noqa: SIM115
        environment = {**os.environ, **gateway_environment(settings, **overrides)}
        command = [sys.executable, "-m", "gateway.server", "--ports-file", str(self._ports_file)]
        self.process = subprocess.Popen(
            command, env=environment, stdout=self._log, stderr=subprocess.STDOUT
        )
        self._ports: dict[str, int] | None = None

    def wait(self) -> GatewayProcess:
        deadline = time.monotonic() + START_TIMEOUT_SECONDS
        while self._ports is None:
            if self._ports_file.exists() and self._ports_file.stat().st_size:
                self._ports = json.loads(self._ports_file.read_text())
                break
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"the gateway did not start:\n{self.output()}")
            time.sleep(0.02)
        return self

    @property
    def port(self) -> int:
        return self.wait()._ports["api"]  # type: ignore[index]

    @property
    def status_port(self) -> int:
        return self.wait()._ports["status"]  # type: ignore[index]

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def output(self) -> str:
        self._log.flush()
        self._log.seek(0)
        return self._log.read().decode(errors="replace")

    def kill(self) -> None:
        """SIGKILL: a crash, nothing shut down cleanly."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()
        kept = os.environ.get("DECKYARD_GATEWAY_LOGS")  # a directory: keep each log there
        if kept:
            Path(kept, f"gateway-{self.process.pid}.log").write_text(self.output())
        self._log.close()
        self._directory.cleanup()
