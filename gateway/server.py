"""Running the gateway: uvicorn (uvloop, httptools, websockets) on two ports.

The API (and the push channel) on ``GATEWAY_PORT``, the operators' routes on
``STATUS_PORT``, one event loop, one ``Gateway``. The sockets are bound here, without
``SO_REUSEPORT``: a second gateway on a busy port fails to start instead of silently
sharing the traffic (``deckyard run`` says so before it starts; see
deckyard/preflight.py). Port 0 takes a free port; ``--ports-file`` writes the ports
taken, once the gateway serves (the test suite starts gateways this way).

SIGTERM and SIGINT stop both servers gracefully: no new connection is accepted,
requests in flight finish (``GRACEFUL_SECONDS`` at most), open sockets are closed
with 1012 "service restart" so their clients reconnect to another replica.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import logging
import signal
import socket
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Literal

import uvicorn

from gateway.app import Gateway
from gateway.transport import ProblemHttpProtocol
from shared import tracing
from shared.config import Settings, load_settings
from shared.logs import configure_logging

log = logging.getLogger("deckyard.gateway")

GRACEFUL_SECONDS = 10
MAX_WEBSOCKET_MESSAGE_BYTES = 16 * 1024  # a client sends only auth and ping messages
BACKLOG = 4096


class _Server(uvicorn.Server):
    """uvicorn's server without its own signal handling: ``serve`` handles both servers'."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # TIME_WAIT only, not sharing
    sock.bind((host, port))
    sock.listen(BACKLOG)
    sock.setblocking(False)
    return sock


def _config(
    app: object, lifespan: Literal["on", "off"], date_header: bool = True
) -> uvicorn.Config:
    return uvicorn.Config(
        app,  # type: ignore[arg-type]
        loop="uvloop",
        date_header=date_header,  # off on a test stack: the test clock's (routes/dev_clock.py)
        http=ProblemHttpProtocol,
        ws="websockets-sansio",
        lifespan=lifespan,
        access_log=False,
        log_config=None,
        server_header=False,
        # The client's address is ours to find, through the trusted proxies only
        # (gateway/clientaddress.py): uvicorn's own would believe 127.0.0.1's headers.
        proxy_headers=False,
        ws_max_size=MAX_WEBSOCKET_MESSAGE_BYTES,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        timeout_keep_alive=75,
        timeout_graceful_shutdown=GRACEFUL_SECONDS,
        backlog=BACKLOG,
    )


async def serve(settings: Settings, ports_file: Path | None = None) -> None:
    gateway = Gateway(settings)
    api_socket = bind(settings.bind_host, settings.gateway_port)
    status_socket = bind(settings.bind_host, settings.status_port)
    api_app = gateway.dated(tracing.traced_asgi(gateway.api_app()))
    api = _Server(_config(api_app, lifespan="on", date_header=not settings.clock_control))
    status = _Server(_config(gateway.status_app(), lifespan="off"))

    def stop() -> None:
        api.should_exit = status.should_exit = True

    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop)
    serving = asyncio.gather(api.serve([api_socket]), status.serve([status_socket]))
    while not (api.started and status.started):
        if serving.done():
            await serving  # a failed start: its error
            return
        await asyncio.sleep(0.02)
    ports = {
        "api": api_socket.getsockname()[1],
        "status": status_socket.getsockname()[1],
    }
    log.info("gateway on http://%s:%s", settings.bind_host, ports["api"])
    log.info("gateway status on http://%s:%s/internal/status", settings.bind_host, ports["status"])
    if ports_file is not None:
        ports_file.write_text(json.dumps(ports))
    # What is loaded now lives as long as the process: keep it out of the collector's
    # full passes, which otherwise walk all of it and stall requests (docs/performance.md).
    gc.collect()
    gc.freeze()
    try:
        await serving
    finally:
        api.should_exit = status.should_exit = True


def run(settings: Settings, ports_file: Path | None = None) -> None:
    configure_logging(settings.log_format, settings.log_level, service="gateway")
    tracing.configure()  # traces only when OTEL_EXPORTER_OTLP_ENDPOINT is set
    import uvloop

    uvloop.run(serve(settings, ports_file))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m gateway.server", description=__doc__)
    parser.add_argument("--ports-file", type=Path, help="write the ports taken here (JSON)")
    args = parser.parse_args(argv)
    run(load_settings(), args.ports_file)
    return 0


if __name__ == "__main__":
    sys.exit(main())
