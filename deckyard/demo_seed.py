"""The demo content outside authoring: TerraKard's demo defenders in battle's arena
(games/terrakard/demo_defenders.py). ``deckyard seed`` runs it with the demo content,
never with the catalogue alone, so a production install has no demo defender.

Battle's own use case on battle's own database, as ``deckyard migrate`` runs each
service's migrations: the defenders' plans need nothing stored elsewhere (cards chooses
each from the published catalogue at an attack's start).
"""

from __future__ import annotations

from shared.clock import SystemClock
from shared.config import Settings


def seed_demo_defenders(settings: Settings) -> int:
    """The demo defenders written (or put back as defined): how many."""
    from services.battle import terrakard_handlers
    from services.battle.orm import plumbing
    from services.battle.repository import unit_of_work
    from shared.db import Database, make_engine

    clock = SystemClock()
    engine = make_engine(settings.database_url_for("battle"))
    try:
        db = Database(engine, plumbing, clock.now)
        return terrakard_handlers.seed_demo_defenders(lambda: unit_of_work(db), clock)
    finally:
        engine.dispose()
