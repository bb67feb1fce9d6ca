"""nameko DependencyProviders shared by the services.

Nothing is built in ``__init__`` (a provider is instantiated when the service
class is defined); resources are made in ``setup()`` and released in
``stop()``. A worker receives the smallest interface it needs.
"""

from __future__ import annotations

from typing import Any

from nameko.extensions import DependencyProvider

from shared import tracing
from shared.clock import Clock, SystemClock
from shared.clock_control import ClockOffsets
from shared.config import Settings, settings_from_nameko_config
from shared.db import Database, make_engine
from shared.outbox import OutboxRelay, RelayLoop, nameko_publisher
from shared.plumbing_tables import PlumbingTables
from shared.queues import quorum_enabled
from shared.randomness import RandomSource, SystemRandomSource


class DatabaseProvider(DependencyProvider):  # type: ignore[misc]
    """The service's own database, and the relay that publishes its outbox.

    Workers get the ``Database``: it holds no per-worker state (each
    ``transaction()`` opens and closes its own session), so one object serves
    them all and there is nothing to tear down per worker.
    """

    def __init__(self, plumbing: PlumbingTables, relay_poll_interval: float = 1.0) -> None:
        self.plumbing = plumbing
        self.relay_poll_interval = relay_poll_interval
        self.database: Database | None = None
        self.relay_loop: RelayLoop | None = None

    def setup(self) -> None:
        settings = settings_from_nameko_config(self.container.config)
        engine = make_engine(settings.database_url_for(self.container.service_name))
        tracing.instrument_engine(engine, self.container.service_name)
        relay = OutboxRelay(
            engine,
            self.plumbing,
            nameko_publisher(settings.amqp_uri),
            service=self.container.service_name,
            quorum=quorum_enabled(self.container.config),
        )
        self.relay_loop = RelayLoop(relay, poll_interval=self.relay_poll_interval)
        self.database = Database(
            engine,
            self.plumbing,
            now=SystemClock().now,
            on_events_committed=self.relay_loop.wake,
        )

    def start(self) -> None:
        assert self.relay_loop is not None
        self.relay_loop.start()

    def stop(self) -> None:
        if self.relay_loop is not None:
            self.relay_loop.stop()
        if self.database is not None:
            self.database.engine.dispose()

    def kill(self) -> None:
        self.stop()

    def get_dependency(self, worker_ctx: Any) -> Database:
        assert self.database is not None
        return self.database


class ClockProvider(DependencyProvider):  # type: ignore[misc]
    """The time; tests swap in a FixedClock with ``replace_dependencies``. On a test
    stack (``CLOCK_CONTROL=1``) each worker gets its own OffsetClock, which reads the
    shared offset at its first ``now()`` (shared/clock_control.py)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock
        self.offsets: ClockOffsets | None = None

    def setup(self) -> None:
        settings = settings_from_nameko_config(self.container.config)
        if settings.clock_control and self.clock is None:
            self.offsets = ClockOffsets.for_settings(settings)

    def stop(self) -> None:
        if self.offsets is not None:
            self.offsets.dispose()

    def kill(self) -> None:
        self.stop()

    def get_dependency(self, worker_ctx: Any) -> Clock:
        if self.clock is not None:
            return self.clock
        return self.offsets.clock() if self.offsets is not None else SystemClock()


class RandomProvider(DependencyProvider):  # type: ignore[misc]
    """Randomness; tests swap in a SeededRandomSource."""

    def get_dependency(self, worker_ctx: Any) -> RandomSource:
        return SystemRandomSource()


class SettingsProvider(DependencyProvider):  # type: ignore[misc]
    """The Settings the container was started with."""

    def setup(self) -> None:
        self.settings = settings_from_nameko_config(self.container.config)

    def get_dependency(self, worker_ctx: Any) -> Settings:
        return self.settings


class CanonicalCardsProvider(DependencyProvider):  # type: ignore[misc]
    """The lineages a game depends on (Quest's: ``games.quest.canonical``), given by the
    service that names the game (shared imports no game); tests swap in their own."""

    def __init__(self, canonical: Any) -> None:
        self.canonical = canonical

    def get_dependency(self, worker_ctx: Any) -> Any:
        return self.canonical
