"""Small helpers shared by the integration and e2e tests."""

import eventlet
import pytest

from shared.errors import NotFound


def wait_for(predicate, timeout=10.0, step=0.05):
    """Poll until predicate() is truthy (an event crossing the broker); fail after timeout."""
    with eventlet.Timeout(timeout, False):
        while True:
            value = predicate()
            if value:
                return value
            eventlet.sleep(step)
    pytest.fail("condition not reached in time")


def collection_of(rpc, player_id):
    """The player's collection from the cards service, or None while it does not exist."""
    try:
        return rpc.cards.get_collection(player_id=player_id)
    except NotFound:
        return None
