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


def publish_event(settings, event):
    """Publish an event as the outbox relay does: the envelope on the source's events
    exchange, the type as routing key, refused when no consumer queue is bound."""
    from kombu import Exchange

    from shared.outbox import nameko_publisher

    nameko_publisher(settings.amqp_uri).publish(
        event.to_message(),
        exchange=Exchange(event.contract.exchange, type="topic", durable=True),
        routing_key=event.contract.name,
        mandatory=True,
    )


def scrape(url):
    """GET a /metrics endpoint -> {(sample name, frozenset of its labels): value}."""
    import requests
    from prometheus_client.parser import text_string_to_metric_families

    response = requests.get(url, timeout=10)
    assert response.status_code == 200, response.text[:300]
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def series(samples, name, **labels):
    """The values of ``name`` whose labels include ``labels``."""
    wanted = set(labels.items())
    return [value for (n, have), value in samples.items() if n == name and wanted <= have]
