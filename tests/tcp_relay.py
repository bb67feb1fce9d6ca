"""A TCP relay the tests can cut: a process's link to the broker, broken on purpose.

``TcpRelay(target_port)`` listens on a free local port and pumps bytes both ways to
the target (green threads: the test process runs under eventlet). ``cut()`` closes
every relayed connection and refuses new ones; ``restore()`` accepts again. A process
pointed at the relay (say, a gateway's ``AMQP_URI``) sees its broker vanish and come
back, while the broker itself and every other process go on.
"""

from __future__ import annotations

import contextlib
import socket

import eventlet


class TcpRelay:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self._target = (target_host, target_port)
        self._listener = eventlet.listen(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._open = True
        self._sockets: set[socket.socket] = set()
        self._acceptor = eventlet.spawn(self._accept)

    def _accept(self) -> None:
        while True:
            client, _ = self._listener.accept()
            if not self._open:
                client.close()
                continue
            try:
                upstream = eventlet.connect(self._target)
            except OSError:
                client.close()
                continue
            self._sockets.update((client, upstream))
            eventlet.spawn(self._pump, client, upstream)
            eventlet.spawn(self._pump, upstream, client)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        # The other direction's pump may close these ends while this one reads: eventlet
        # then raises EOFError (not an OSError) in this reader. Either way it is over.
        with contextlib.suppress(OSError, EOFError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.close()
            self._sockets.discard(end)

    def cut(self) -> None:
        self._open = False
        # Shut down, never close from here: the pumps are blocked reading these sockets,
        # and eventlet fails whoever waits on a socket closed under it. A shut-down socket
        # reads empty: each pump ends and closes its own ends.
        for end in list(self._sockets):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)
        while self._sockets:
            eventlet.sleep(0.01)

    def restore(self) -> None:
        self._open = True

    def close(self) -> None:
        self.cut()
        self._acceptor.kill()
        self._listener.close()
