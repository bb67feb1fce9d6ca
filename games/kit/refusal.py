"""A refusal: the rules say no, with a stable code and a human message.

It knows nothing of HTTP or RPC: each service that hosts a game maps a
refusal to its own problem (battle answers 409, cards and authoring 422),
so the same rule can be refused differently where the meaning differs.
Raised before any change, so a refused request leaves everything as it was.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class Refusal(Exception):
    """``Refusal(code, message, details)``; ``code`` is stable, clients may switch on it."""

    def __init__(self, code: str, message: str, details: Mapping[str, Any] | None = None) -> None:
        self.code = str(code)
        self.message = message
        self.details: dict[str, Any] = dict(details or {})
        super().__init__(self.code, message, self.details)

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"
