"""The image's HEALTHCHECK: alive when the gateway or the service answers /health."""

import http.server
import socket
import threading

import pytest

from deckyard import healthcheck


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Health(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/health" else 404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def answering_port():
    server = http.server.HTTPServer(("127.0.0.1", 0), Health)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("variable", ["HEALTH_PORT", "GATEWAY_PORT"])
def test_healthy_when_this_process_answers_on_either_port(monkeypatch, answering_port, variable):
    monkeypatch.setenv("HEALTH_PORT", str(free_port()))
    monkeypatch.setenv("GATEWAY_PORT", str(free_port()))
    monkeypatch.setenv(variable, str(answering_port))
    assert healthcheck.main() == 0


def test_unhealthy_when_nothing_answers(monkeypatch):
    monkeypatch.setenv("HEALTH_PORT", str(free_port()))
    monkeypatch.setenv("GATEWAY_PORT", str(free_port()))
    assert healthcheck.main() == 1
