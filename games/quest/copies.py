"""A copy of a frozen state object with some attributes changed, by its dict's copy.

``games.kit.frozen.evolve`` fills a new instance's (empty) attribute dict with
``update``, which inserts every key again. ``dict.copy`` of an attribute dict copies
its values at once (the keys are shared with the class's other instances), and the
copy becomes the new instance's dict: same attributes in the same order, the same
value as ``evolve`` and ``dataclasses.replace`` give (tests/unit/games/quest/
test_copies.py), with fewer instructions, which counts on the engine's path (one or
more new states an action). The original is untouched.
"""

from __future__ import annotations

from typing import Any, Final, TypeVar

T = TypeVar("T")

_new: Final = object.__new__
_set: Final = object.__setattr__  # a frozen dataclass refuses its own __setattr__


def adopt(cls: type[T], attributes: dict[str, Any]) -> T:
    """A bare instance of ``cls`` whose attribute dict is ``attributes`` (not copied)."""
    new = _new(cls)
    _set(new, "__dict__", attributes)
    return new


def evolve(obj: T, /, **changes: Any) -> T:
    """A copy of ``obj`` with ``changes``."""
    attributes = obj.__dict__.copy()
    attributes.update(changes)
    return adopt(obj.__class__, attributes)
