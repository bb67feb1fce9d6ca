"""nameko's web server, except that its port is its own.

nameko listens with ``eventlet.listen``, which sets SO_REUSEPORT: a second process on
the same port (a second ``deckyard run``) then starts without complaint and the kernel
splits the connections between the two. Here the port is bound without it, so the
second process fails to start with "Address already in use".
"""

from __future__ import annotations

import eventlet
from nameko.web.handlers import HttpRequestHandler
from nameko.web.server import WebServer


class ExclusiveWebServer(WebServer):  # type: ignore[misc]
    _starting: bool

    def start(self) -> None:
        if not self._starting:
            self._starting = True
            self._sock = eventlet.listen(self.bind_addr, reuse_port=False)
            self._sock.settimeout(None)  # as nameko: kombu issue 838
            self._serv = self.get_wsgi_server(self._sock, self.get_wsgi_app())
            self._gt = self.container.spawn_managed_thread(self.run)


class ExclusiveHttpHandler(HttpRequestHandler):  # type: ignore[misc]
    server = ExclusiveWebServer()


http = ExclusiveHttpHandler.decorator
