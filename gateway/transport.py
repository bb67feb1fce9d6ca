"""The HTTP transport: uvicorn's httptools protocol, answering its own refusals as problems.

A request the HTTP parser cannot read (a malformed request line, header or chunk)
never reaches the application: uvicorn answers it with a bare ``text/plain`` 400.
Every error of the API is problem+json with a stable code, so this one is too:
``malformed_request``, and the connection closes (nothing after it can be trusted).
"""

from __future__ import annotations

import json

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

MALFORMED_REQUEST = json.dumps(
    {
        "type": "https://deckyard.dev/problems/malformed_request",
        "title": "Bad request",
        "status": 400,
        "code": "malformed_request",
        "detail": "the request is not valid HTTP/1.1 (request line, a header or a chunk)",
    }
).encode()


class ProblemHttpProtocol(HttpToolsProtocol):
    def send_400_response(self, msg: str) -> None:
        head = (
            b"HTTP/1.1 400 Bad Request\r\n"
            b"content-type: application/problem+json\r\n"
            b"content-length: " + str(len(MALFORMED_REQUEST)).encode() + b"\r\n"
            b"connection: close\r\n\r\n"
        )
        self.transport.write(head + MALFORMED_REQUEST)
        self.transport.close()
