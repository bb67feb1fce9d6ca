"""The client's address, as seen through a known number of trusted proxies.

Behind the Kubernetes ingress every request comes from an ingress pod, so the
socket peer names the proxy, not the player. The proxies in front of the
gateway write the address they saw into a header (``X-Forwarded-For``, or RFC
7239 ``Forwarded``), each appending one entry on the right. Only the entries
our own proxies appended can be believed: anything further left was sent by the
client and says whatever it likes. So with ``hops`` trusted proxies the client
is the ``hops``-th entry from the right, and nothing left of it is ever read:

* ``hops`` 0 (the default, no proxy): the socket peer; headers are ignored;
* fewer entries than ``hops``, or the ``hops``-th one is not an IP address:
  the socket peer (coarse - it is the proxy - but never the client's word);
* entries are cut at every comma without regard to quotes, so a client's
  unbalanced quote or stray comma can only spoil entries left of ours, which
  are never read (a proxy's own entry holds no comma).

Only the configured header is read; a client's copy of the other one changes
nothing. A request carrying the header on several lines is read as one list,
in order (``request_environ`` joins them with commas).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shared.config import FORWARDING_HEADERS

X_FORWARDED_FOR, FORWARDED = FORWARDING_HEADERS
UNKNOWN = "unknown"

# A node as proxies write it: an IPv4 address with an optional port, or an IPv6
# address bare or in brackets with an optional port (RFC 7239 section 6).
_NODE = re.compile(
    r"(?P<v4>\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?"
    r"|\[(?P<v6>[0-9A-Fa-f:.]+)\](?::\d{1,5})?"
    r"|(?P<bare6>[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*)",
    re.ASCII,  # \d is 0-9 only, not every script's digits
)


@dataclass(frozen=True)
class ClientAddresses:
    """Finds the client address of a WSGI request; ``hops`` proxies are trusted."""

    hops: int = 0
    header: str = X_FORWARDED_FOR

    def __post_init__(self) -> None:
        if self.hops < 0:
            raise ValueError("the number of trusted proxy hops cannot be negative")
        if self.header not in FORWARDING_HEADERS:
            raise ValueError(f"the forwarding header is one of {', '.join(FORWARDING_HEADERS)}")

    def of(self, environ: Mapping[str, Any]) -> str:
        peer = str(environ.get("REMOTE_ADDR") or UNKNOWN)
        if self.hops == 0:
            return peer
        key = "HTTP_" + self.header.upper().replace("-", "_")
        entries = str(environ.get(key) or "").split(",")
        if not entries[-1].strip() or len(entries) < self.hops:
            return peer  # no header, or fewer entries than trusted proxies wrote
        entry = entries[-self.hops]
        address = ip_of_forwarded(entry) if self.header == FORWARDED else ip_of_node(entry)
        return address or peer


def ip_of_node(node: str) -> str | None:
    """The address of one ``X-Forwarded-For`` entry or ``for=`` node, normalised."""
    match = _NODE.fullmatch(node.strip())
    if match is None:
        return None
    try:
        address = ipaddress.ip_address(match["v4"] or match["v6"] or match["bare6"])
    except ValueError:
        return None
    return str(address)


def ip_of_forwarded(element: str) -> str | None:
    """The ``for=`` address of one ``Forwarded`` element (``for=...;proto=...;by=...``)."""
    for pair in element.split(";"):
        name, equals, value = pair.strip().partition("=")
        if equals and name.strip().lower() == "for":
            value = value.strip()
            if len(value) >= 2 and value[0] == value[-1] == '"':
                value = value[1:-1].replace("\\", "")  # a quoted-string; no node needs escapes
            return ip_of_node(value)
    return None


def request_environ(request: Any) -> dict[str, str]:
    """The part of a WSGI environ ``ClientAddresses.of`` reads, from an ASGI request:
    the socket peer and the forwarding headers (several lines joined with commas, in
    order, as a WSGI server joins them)."""
    client = request.scope.get("client")
    environ = {"REMOTE_ADDR": client[0] if client else UNKNOWN}
    for header in FORWARDING_HEADERS:
        values = request.headers.getlist(header)
        if values:
            environ["HTTP_" + header.upper().replace("-", "_")] = ",".join(values)
    return environ
