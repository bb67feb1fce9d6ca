"""A fast ``dataclasses.replace`` for the frozen dataclasses of a match state.

``dataclasses.replace`` goes through ``fields()`` and ``__init__`` (one
``object.__setattr__`` a field) on every call, and an engine makes several new
states an action. ``evolve`` copies the instance's ``__dict__`` and sets the
changed fields: the same value ``replace`` gives for a frozen dataclass whose
fields are all ``init`` fields and that has no ``__post_init__`` (the state's
classes: nothing to recompute or check on a copy). The original is untouched.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes``: ``dataclasses.replace`` without its overhead."""
    new = object.__new__(obj.__class__)
    new.__dict__.update(obj.__dict__, **changes)
    return new
