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


class Frozen:
    """What ``@dataclass(frozen=True)`` gave a match state's classes, written out so
    that mypyc compiles them as native classes (attributes in a C struct, a compiled
    ``__init__``; a copy is one constructor call, not ``evolve``'s dict copy:
    docs/performance.md, "Native state classes (Chronovore)"). A subclass declares its
    fields, writes ``__init__`` and ``fields()``. Equality, hash and repr
    come from ``fields()`` (the fields in declaration order), as the dataclass's did:
    equal when of one class and equal field by field. Frozen by convention: nothing in
    the engine sets an attribute after ``__init__``."""

    def fields(self) -> dict[str, Any]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        # The values compare through their own __eq__ (typed Any here: compiled, ``==``
        # of two values typed as a Python class mypyc does not see an __eq__ on, such as
        # the dataclass Card, would be identity).
        if not isinstance(other, Frozen) or type(other) is not type(self):
            return NotImplemented
        return tuple(self.fields().values()) == tuple(other.fields().values())

    def __hash__(self) -> int:
        return hash(tuple(self.fields().values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self.fields().items())
        return f"{type(self).__name__}({shown})"
