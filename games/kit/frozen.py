"""A fast ``dataclasses.replace`` for the frozen dataclasses of a match state.

``dataclasses.replace`` goes through ``fields()`` and ``__init__`` (one
``object.__setattr__`` a field) on every call, and an engine makes several new
states an action. ``evolve`` copies the instance's ``__dict__`` and sets the
changed fields: the same value ``replace`` gives for a frozen dataclass whose
fields are all ``init`` fields and that has no ``__post_init__`` (the state's
classes: nothing to recompute or check on a copy). The original is untouched.

Compiled (``make engines``: games/ through mypyc, docs/performance.md "Engines
compiled"), a frozen dataclass would become a native class: no ``__dict__`` to copy, and
its ``__init__`` (written by ``dataclasses``, one ``object.__setattr__`` a field) would
still run as Python, slower than copying a dict. ``plain`` on such a class keeps it a
Python class (mypyc compiles a class with any other decorator as one): its methods are
still compiled, and ``evolve`` works on it unchanged. ``COMPILED`` says which way this
module runs.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def plain(cls: type[T]) -> type[T]:
    """Nothing in Python; under mypyc, ``cls`` stays a Python class (see above)."""
    return cls


def _probe() -> None:
    """A function: a compiled module's functions are built-in functions."""


COMPILED: bool = type(_probe).__name__ != "function"


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes``: ``dataclasses.replace`` without its overhead."""
    new = object.__new__(obj.__class__)
    new.__dict__.update(obj.__dict__, **changes)
    return new
