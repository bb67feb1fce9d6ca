"""The engine protocol every game implements, so one match host can run any of them.

Settings of the game stay apart from the state of one match. Every method is a
pure function of its arguments: time comes in as ``now`` (timezone-aware),
chance from the seed kept in the state (games.kit.chance). ``apply`` checks
legality before any change and raises a ``Refusal`` (games.kit.refusal); it
never mutates its input and returns the new state with the events that
describe what happened. ``view`` is the only thing a host serialises for a
seat: it hides what that seat may not see. ``replay`` of the seed and the
action log gives the state live play gave.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any, Protocol, TypeVar

SettingsT = TypeVar("SettingsT", contravariant=True)
StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
PolicyStateT = TypeVar("PolicyStateT", contravariant=True)
PolicyActionT = TypeVar("PolicyActionT", covariant=True)

Seat = str  # a seat's name in the game ("player", "cpu", ...)
Event = dict[str, Any]  # JSON-friendly, for the action log and the push channel


class Engine(Protocol[SettingsT, StateT, ActionT]):
    """One game's rules behind a small surface (docs/architecture.md, "The games layer")."""

    game: str

    def new_match(
        self, settings: SettingsT, seats: Mapping[Seat, Any], seed: int, now: datetime
    ) -> StateT:
        """A fresh match; ``seats`` maps each seat to what it brings (a deck, a plan)."""
        ...

    def legal_actions(self, state: StateT, seat: Seat) -> list[ActionT]:
        """Every action ``seat`` may take now; never raises."""
        ...

    def apply(
        self, state: StateT, seat: Seat, action: ActionT, now: datetime
    ) -> tuple[StateT, list[Event]]:
        """The new state and its events; raises a Refusal before any change."""
        ...

    def view(self, state: StateT, seat: Seat) -> dict[str, Any]:
        """What ``seat`` may see of the match, JSON-friendly."""
        ...

    def view_events(self, events: Iterable[Event], seat: Seat) -> list[Event]:
        """What ``seat`` may see of ``events`` (a host answers and logs with these)."""
        ...

    def version(self, state: StateT) -> int:
        """How many actions made ``state``: a host's expected version and log position."""
        ...

    def seen_version(self, state: StateT, seat: Seat) -> int:
        """The version as ``seat`` sees it: it moves on that seat's own actions and on
        every action it may see, never on another seat's hidden ones (a Chronovore row
        before its lock). A seat's view shows this one, and it is what that seat sends
        back as its expected version. ``version`` where nothing is hidden."""
        ...

    def waiting_for(self, state: StateT) -> list[Seat]:
        """The seats whose decision the match waits for now; [] once it is over."""
        ...

    def results(self, state: StateT) -> dict[Seat, str] | None:
        """Each seat's result in the game's own words once the match is over, else None."""
        ...

    def deadline(self, state: StateT) -> datetime | None:
        """When the seat to act runs out of time; None when no clock runs."""
        ...

    def timeouts(self, state: StateT) -> list[tuple[Seat, ActionT]]:
        """The actions time alone takes once the deadline has passed, in order, as a host
        logs them (so replay repeats them): ``expire`` is applying these."""
        ...

    def expire(self, state: StateT, now: datetime) -> tuple[StateT, list[Event]]:
        """What time alone does at ``now``: nothing before the deadline."""
        ...

    def replay(
        self,
        settings: SettingsT,
        seats: Mapping[Seat, Any],
        seed: int,
        started_at: datetime,
        log: Iterable[tuple[Seat, ActionT, datetime]],
    ) -> StateT:
        """The match again from its setup and action log; equals live play."""
        ...

    def to_json(self, state: StateT) -> dict[str, Any]: ...

    def from_json(self, data: Mapping[str, Any]) -> StateT: ...

    def action_to_json(self, action: ActionT) -> dict[str, Any]: ...

    def action_from_json(self, data: Mapping[str, Any]) -> ActionT:
        """A client's action; anything malformed is a Refusal."""
        ...


class CpuPolicy(Protocol[PolicyStateT, PolicyActionT]):
    """A game's CPU player: the action it takes for ``seat`` now, or None with nothing
    to do. A pure function of the state (its chance from the state's seed), so asking
    twice gives the same action and a retried request replays nothing."""

    def __call__(self, state: PolicyStateT, seat: Seat, /) -> PolicyActionT | None: ...
