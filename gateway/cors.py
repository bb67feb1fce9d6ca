"""Cross-origin requests from browsers (CORS), for the origins ``CORS_ORIGINS`` lists.

Pure decisions, no web framework: the ASGI app (gateway/asgi.py) asks
``CorsPolicy`` what to answer to a preflight and which headers to add to an answer.

- No origin configured (the default): no CORS header on any answer, and every
  preflight is refused, as for any origin not listed.
- A preflight (``OPTIONS`` with ``Origin`` and ``Access-Control-Request-Method``) from a
  listed origin: 204 with the route's methods, the request headers the API reads, and
  how long the browser may cache that. From any other origin: a 403 problem, no CORS
  header, so the browser refuses the real request.
- An answer to a listed origin carries ``Access-Control-Allow-Origin`` (that origin,
  never ``*``) and ``Vary: Origin``; to any other origin, no CORS header.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# traceparent, tracestate, baggage: the W3C trace context that a page instrumented with
# OpenTelemetry adds to its calls. Not allowed, the preflight fails and the browser refuses
# the call itself; allowed, the gateway still drops them at the edge and starts its own
# trace (shared/tracing.py, CLIENT_CONTEXT_HEADERS).
ALLOWED_HEADERS = (
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "X-Request-ID",
    "traceparent",
    "tracestate",
    "baggage",
)
EXPOSED_HEADERS = ("Retry-After", "Location", "X-Request-ID")
MAX_AGE_SECONDS = 600  # ours; Chromium caps a preflight's cache at 2 hours, Firefox at 24


@dataclass(frozen=True)
class CorsPolicy:
    origins: frozenset[str] = frozenset()

    @classmethod
    def of(cls, origins: Iterable[str]) -> CorsPolicy:
        return cls(frozenset(origin.strip().lower() for origin in origins if origin.strip()))

    @property
    def enabled(self) -> bool:
        return bool(self.origins)

    def allows(self, origin: str | None) -> bool:
        return origin is not None and origin.lower() in self.origins

    @staticmethod
    def is_preflight(method: str, origin: str | None, requested_method: str | None) -> bool:
        return method == "OPTIONS" and origin is not None and requested_method is not None

    def preflight_headers(self, origin: str, methods: Iterable[str]) -> dict[str, str] | None:
        """The 204's headers for an allowed origin; ``None``: refuse (403, no CORS header)."""
        if not self.allows(origin):
            return None
        allowed = sorted({m.upper() for m in methods} - {"OPTIONS"})
        return {
            "Access-Control-Allow-Origin": origin,
            "Access-Control-Allow-Methods": ", ".join(allowed),
            "Access-Control-Allow-Headers": ", ".join(ALLOWED_HEADERS),
            "Access-Control-Max-Age": str(MAX_AGE_SECONDS),
            "Vary": "Origin",
        }

    def response_headers(self, origin: str | None) -> dict[str, str]:
        """Headers for an actual answer: CORS ones for an allowed origin only; ``Vary:
        Origin`` whenever CORS is on (the answer then depends on the Origin, for caches)."""
        if not self.enabled:
            return {}
        if not self.allows(origin):
            return {"Vary": "Origin"}
        assert origin is not None
        return {
            "Access-Control-Allow-Origin": origin,
            "Access-Control-Expose-Headers": ", ".join(EXPOSED_HEADERS),
            "Vary": "Origin",
        }
