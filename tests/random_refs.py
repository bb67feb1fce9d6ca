"""Random identifiers, so tests share databases without stepping on each other."""

import uuid


def random_suffix() -> str:
    return uuid.uuid4().hex[:8]


def random_sub(name: str = "player") -> str:
    return f"auth0|test-{name}-{random_suffix()}"
