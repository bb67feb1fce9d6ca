"""Which of the broker's queues are quorum queues (``QUORUM_QUEUES=1``), and their arguments.

A classic queue lives on one RabbitMQ node: if that node is lost, so are the queue and
its messages. A quorum queue is replicated on (by default) every node of the cluster
and survives the loss of a minority of them. With ``QUORUM_QUEUES=1`` every durable
queue the services own is a quorum queue:

* the RPC queues (``rpc-<service>``, shared/rpc.py);
* the event handlers' queues (shared/reliable_events.py), also declared by the outbox
  relay (shared/outbox.py), with a **delivery limit**: a message delivered
  ``DELIVERY_LIMIT`` times without being settled (its consumer died with it, its
  connection broke, it was requeued) is dead-lettered by the broker into
  ``<queue>.dead``, where a failing handler's messages are parked too;
* their delay queues (``<queue>.retry.<n>``) and dead-letter queues (``<queue>.dead``).

The callers' reply queues (exclusive or auto-deleted: a quorum queue can be neither)
and the push stream (a stream, replicated already) are unchanged.

A queue's type is fixed when it is first declared: redeclaring an existing classic
queue as a quorum queue fails (``PRECONDITION_FAILED``). So the setting is off by
default, and a broker whose queues were declared classic is switched over empty (or
as a new vhost); docs/reliability.md, "Quorum queues", says how.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

QUORUM_CONFIG_KEY = "QUORUM_QUEUES"  # in the nameko config (Settings.nameko_config)
# Deliveries of one message, in one queue, that were never settled (ours). A consumer
# that dies (a deploy, a crash, a kill) hands its unacknowledged messages back, and each
# hand-back counts: 20 leaves room for many restarts while a backlog waits, and still
# stops a message that kills every consumer it reaches.
DELIVERY_LIMIT = 20


def quorum_enabled(config: Mapping[str, Any]) -> bool:
    return bool(config.get(QUORUM_CONFIG_KEY, False))


def durable_queue_arguments(quorum: bool) -> dict[str, Any]:
    """The arguments of a durable queue of the services (RPC, delay, dead-letter)."""
    return {"x-queue-type": "quorum"} if quorum else {}


def consumer_queue_arguments(queue_name: str, quorum: bool) -> dict[str, Any]:
    """An event handler's queue: as a quorum queue, with the broker's delivery limit and
    its dead letters to ``<queue>.dead`` (at least once: the broker keeps a message until
    the dead-letter queue has it)."""
    if not quorum:
        return {}
    return {
        "x-queue-type": "quorum",
        "x-delivery-limit": DELIVERY_LIMIT,
        "x-dead-letter-exchange": "",
        "x-dead-letter-routing-key": f"{queue_name}.dead",
        "x-dead-letter-strategy": "at-least-once",
        "x-overflow": "reject-publish",  # what at-least-once dead-lettering requires
    }


def make_quorum(queue: Any, arguments: Mapping[str, Any]) -> None:
    """Give a kombu ``Queue`` declared by nameko these arguments (before it is declared),
    if it is durable and neither exclusive nor auto-deleted."""
    if arguments and queue.durable and not queue.exclusive and not queue.auto_delete:
        queue.queue_arguments = {**(queue.queue_arguments or {}), **arguments}
