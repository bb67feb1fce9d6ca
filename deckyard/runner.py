"""Starting nameko containers for the chosen services, and stopping them cleanly."""

from __future__ import annotations

import functools
import gc
import logging
import signal
import socket
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import eventlet
from nameko.containers import ServiceContainer, get_container_cls

from deckyard.registry import service_class
from shared import tracing
from shared.config import Settings
from shared.db import use_cooperative_psycopg
from shared.logs import configure_logging
from shared.rpc import BROKER_ERRORS

log = logging.getLogger("deckyard")

# What publishing or acknowledging raises while the broker is away.


class BrokerTolerantContainer(ServiceContainer):  # type: ignore[misc]
    """nameko's container, except that a worker whose result cannot reach the broker
    does not kill the service.

    nameko runs an entrypoint's result handling (the RPC reply, the acknowledgement)
    in the worker's green thread, outside the worker's own error handling: if it
    raises, the thread "exited with error" and the container kills itself. So a
    RabbitMQ restart while an RPC was being answered stopped the whole service for
    good (bench/faults/, docs/reliability.md), though the work was done and
    committed. The reply's caller has given up by then (the gateway's deadline; its
    reply queue went with its connection), and a request left unacknowledged goes
    back to the broker with the dead connection (and expires there). So the worker
    logs the lost result and the service keeps serving.
    """

    def spawn_worker(
        self,
        entrypoint: Any,
        args: Any,
        kwargs: Any,
        context_data: Any = None,
        handle_result: Callable[..., Any] | None = None,
    ) -> Any:
        if handle_result is not None:
            handle_result = _surviving_broker_loss(handle_result)
        return super().spawn_worker(
            entrypoint, args, kwargs, context_data=context_data, handle_result=handle_result
        )


def _surviving_broker_loss(handle_result: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(handle_result)
    def handle(worker_ctx: Any, result: Any, exc_info: Any) -> Any:
        try:
            return handle_result(worker_ctx, result, exc_info)
        except BROKER_ERRORS as exc:
            log.warning(
                "%s: its result could not reach the broker (%s); the broker takes the "
                "unacknowledged message back",
                worker_ctx,
                exc,
            )
            return result, exc_info

    return handle


CONTAINER_CLASS = f"{__name__}.{BrokerTolerantContainer.__name__}"


def container_config(
    settings: Settings, service: str, position: int, alone: bool
) -> dict[str, Any]:
    """The gateway listens on GATEWAY_PORT (the API) and STATUS_PORT (internal status);
    each service's health endpoint on HEALTH_PORT, or on consecutive ports after it when
    several share a process."""
    if service == "gateway":  # not a nameko container: its ports, for the preflight
        return {
            "WEB_SERVER_ADDRESS": f"{settings.bind_host}:{settings.gateway_port}",
            "STATUS_SERVER_ADDRESS": f"{settings.bind_host}:{settings.status_port}",
        }
    port = settings.health_port if alone else settings.health_port + position
    return settings.nameko_config(
        WEB_SERVER_ADDRESS=f"{settings.bind_host}:{port}", SERVICE_CONTAINER_CLS=CONTAINER_CLASS
    )


def listen_addresses(settings: Settings, services: Sequence[str]) -> list[tuple[str, str, int]]:
    """(service, host, port) of every HTTP port these services will listen on."""
    alone = _alone(services)
    addresses = []
    for position, name in enumerate(services):
        config = container_config(settings, name, position, alone)
        for key, label in (
            ("WEB_SERVER_ADDRESS", name),
            ("STATUS_SERVER_ADDRESS", f"{name} status"),
        ):
            if key in config:
                host, port = str(config[key]).rsplit(":", 1)
                addresses.append((label, host, int(port)))
    return addresses


def _alone(services: Sequence[str]) -> bool:
    return len([s for s in services if s != "gateway"]) <= 1


def where_it_runs(settings: Settings) -> str:
    """What `deckyard run` prints once its gateway answers: where the web client, the API
    and the status page are (a new player's first question; the log lines above are many).
    A wildcard bind address is shown as this machine's loopback, which a browser opens."""
    host = settings.bind_host
    shown = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    base = f"http://{shown}:{settings.gateway_port}"
    sign_in = "DEV_AUTH=1: sign in with any name" if settings.dev_auth else "sign in with Auth0"
    return "\n".join(
        [
            "Deckyard is running.",
            f"  web client  {base}/  ({sign_in})",
            f"  API         {base}/v1/...  (its routes: {base}/docs; {base}/openapi.json)",
            f"  status      http://{shown}:{settings.status_port}/internal/status",
            "Ctrl-C stops every service.",
        ]
    )


def _announce_when_listening(settings: Settings, gateway: subprocess.Popen[bytes]) -> None:
    """``where_it_runs`` on stdout as soon as the gateway's port takes a connection (the
    gateway is a child process: its port is the sign that it is up); nothing if it stops."""
    host = "127.0.0.1" if settings.bind_host in ("0.0.0.0", "", "::") else settings.bind_host
    while gateway.poll() is None:
        try:
            socket.create_connection((host, settings.gateway_port), timeout=1).close()
        except OSError:
            eventlet.sleep(0.2)  # start-up: a few seconds at most
            continue
        print(where_it_runs(settings), flush=True)
        return


def run_services(settings: Settings, services: Sequence[str]) -> None:
    # The lines outside a worker (the relay's, the gauges') name the one service a
    # process runs; with several, only the workers' do (shared/worker_logs.py).
    ours = [s for s in services if s != "gateway"]
    configure_logging(
        settings.log_format, settings.log_level, service=ours[0] if len(ours) == 1 else None
    )
    tracing.configure()  # traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set
    use_cooperative_psycopg()
    alone = _alone(services)
    containers = []
    gateway = _start_gateway_process() if "gateway" in services else None
    for position, name in enumerate(services):
        if name == "gateway":
            continue
        config = container_config(settings, name, position, alone)
        container = get_container_cls(config)(service_class(name), config)
        containers.append(container)
    for container in containers:
        container.start()
        log.info("started %s", container.service_name)
    # Everything loaded so far (modules, schemas, containers) lives as long as the
    # process: keep it out of the cyclic garbage collector's full passes, which
    # otherwise walk all of it and stall every request in flight (docs/performance.md).
    gc.collect()
    gc.freeze()

    def shutdown(signum: int, frame: Any) -> None:
        if gateway is not None and gateway.poll() is None:
            gateway.terminate()
        for container in containers:
            eventlet.spawn(container.stop)

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    waiters = [eventlet.spawn(container.wait) for container in containers]
    if gateway is not None:
        eventlet.spawn(_announce_when_listening, settings, gateway)
        waiters.append(eventlet.spawn(_wait_for_process, gateway))
    for waiter in waiters:
        try:
            waiter.wait()
        except Exception:
            log.exception("a service stopped with an error; stopping the others")
            for container in containers:
                container.kill()
            raise


def _start_gateway_process() -> subprocess.Popen[bytes]:
    """The gateway runs on asyncio (gateway/server.py), never in an eventlet process:
    the all-in-one mode starts it as a child with the same environment."""
    command = [sys.executable, "-m", "deckyard.cli", "run", "--service", "gateway"]
    return subprocess.Popen(command)


def _wait_for_process(process: subprocess.Popen[bytes]) -> None:
    while process.poll() is None:
        eventlet.sleep(0.5)
    if process.returncode not in (0, -signal.SIGTERM):
        raise RuntimeError(f"the gateway stopped with exit status {process.returncode}")
