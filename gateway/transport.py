"""The HTTP transport: uvicorn's httptools protocol, with our limits and problems.

* A request the HTTP parser cannot read (a malformed request line, header or chunk)
  never reaches the application: uvicorn answers it with a bare ``text/plain`` 400.
  Every error of the API is problem+json with a stable code, so this one is too:
  ``malformed_request``, and the connection closes (nothing after it can be trusted).
* The parser keeps a request's head (request line and headers) in memory until it is
  complete, with no limit of its own: 2 MB of one header were read whole. A head still
  incomplete after ``MAX_HEAD_BYTES`` (counted per read, so at most one socket read more
  is ever held) is refused with 431 ``headers_too_large`` and the connection closed.
  That leaves room for the largest token the verifier reads (8 KiB, gateway/auth.py),
  which is answered 401 by the application, as before.
"""

from __future__ import annotations

import json
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MAX_HEAD_BYTES = 32 * 1024


def _problem(status: int, reason: str, code: str, detail: str) -> bytes:
    body = json.dumps(
        {
            "type": f"https://deckyard.dev/problems/{code}",
            "title": reason,
            "status": status,
            "code": code,
            "detail": detail,
        }
    ).encode()
    head = (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/problem+json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode()
    return head + body


MALFORMED_REQUEST = _problem(
    400,
    "Bad Request",
    "malformed_request",
    "the request is not valid HTTP/1.1 (request line, a header or a chunk)",
)
HEADERS_TOO_LARGE = _problem(
    431,
    "Request Header Fields Too Large",
    "headers_too_large",
    f"the request line and headers may be at most {MAX_HEAD_BYTES} bytes",
)


class ProblemHttpProtocol(HttpToolsProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_head = True
        self._head_bytes = 0

    def data_received(self, data: bytes) -> None:
        if self._in_head:
            self._head_bytes += len(data)
        super().data_received(data)
        # Counted after the parser saw the data: a head and its body in one read is fine.
        too_large = self._in_head and self._head_bytes > MAX_HEAD_BYTES
        if too_large and not self.transport.is_closing():
            self.transport.write(HEADERS_TOO_LARGE)
            self.transport.close()

    def on_headers_complete(self) -> None:
        self._in_head = False
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._in_head, self._head_bytes = True, 0

    def send_400_response(self, msg: str) -> None:
        self.transport.write(MALFORMED_REQUEST)
        self.transport.close()
