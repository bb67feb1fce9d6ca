"""Starting nameko containers for the chosen services, and stopping them cleanly."""

from __future__ import annotations

import logging
import signal
from collections.abc import Sequence
from typing import Any

import eventlet
from nameko.containers import get_container_cls

from deckyard.registry import service_class
from shared.config import Settings
from shared.db import use_cooperative_psycopg

log = logging.getLogger("deckyard")


def container_config(
    settings: Settings, service: str, position: int, alone: bool
) -> dict[str, Any]:
    """The gateway listens on GATEWAY_PORT; each service's health endpoint on
    HEALTH_PORT, or on consecutive ports after it when several share a process."""
    if service == "gateway":
        address = f"{settings.bind_host}:{settings.gateway_port}"
        return settings.nameko_config(
            WEB_SERVER_ADDRESS=address, MAX_BODY_BYTES=settings.max_body_bytes, max_workers=100
        )
    port = settings.health_port if alone else settings.health_port + position
    return settings.nameko_config(WEB_SERVER_ADDRESS=f"{settings.bind_host}:{port}")


def run_services(settings: Settings, services: Sequence[str]) -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    use_cooperative_psycopg()
    alone = len([s for s in services if s != "gateway"]) <= 1
    containers = []
    for position, name in enumerate(services):
        config = container_config(settings, name, position, alone)
        container = get_container_cls(config)(service_class(name), config)
        containers.append(container)
    for container in containers:
        container.start()
        log.info("started %s", container.service_name)
    if "gateway" in services:
        log.info("gateway on http://%s:%s", settings.bind_host, settings.gateway_port)

    def shutdown(signum: int, frame: Any) -> None:
        for container in containers:
            eventlet.spawn(container.stop)

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    waiters = [eventlet.spawn(container.wait) for container in containers]
    for waiter in waiters:
        try:
            waiter.wait()
        except Exception:
            log.exception("a service stopped with an error; stopping the others")
            for container in containers:
                container.kill()
            raise
