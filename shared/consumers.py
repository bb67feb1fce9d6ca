"""Applying a received event: parse it against its contract, then apply it in a unit of work.

Every nameko event handler of the platform is this one line, so each gets
the same treatment: a malformed message is logged and dropped (it could never
succeed), anything else that fails propagates, and with
``requeue_on_error=True`` the message comes back for another try.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, TypeVar

from shared.events import Event, EventContract, read_event_or_drop

UnitOfWorkT = TypeVar("UnitOfWorkT")


def consume(
    contract: EventContract,
    message: Any,
    unit_of_work: Callable[[], AbstractContextManager[UnitOfWorkT]],
    apply: Callable[[Event, UnitOfWorkT], object],
) -> None:
    event = read_event_or_drop(contract, message)
    if event is None:
        return
    with unit_of_work() as uow:
        apply(event, uow)
