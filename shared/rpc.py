"""nameko's RPC pieces, adjusted: replies without confirms, a broker restart survived.

``rpc`` is nameko's ``@rpc``, except that replies are published without publisher
confirms.

Stock nameko waits for the broker to confirm every reply before it acknowledges
the request: 15-19% of a service's CPU on the answer path and a quarter of
RabbitMQ's work per call (docs/performance.md). A confirm protects nothing a
reply needs: the state change and its events are committed (outbox) before the
reply is sent, and a lost reply (the broker failing between accepting it and
routing it) looks to the gateway like a slow service, a 503 the client retries
with its idempotency key and gets the persisted result. Requests keep their
confirms (the gateway, ``gateway/rpc.py``): that is how an absent service is an
immediate 503.

Every RPC entrypoint of a service must use this one (``shared.rpc.rpc``): two
consumer classes in one container would split the ``rpc-<service>`` queue
between them.

``TolerantReplyListener`` is the callers' side (the gateway, battle's calls to
cards): nameko acknowledges a reply before handing it to its caller, and if the
broker is restarting at that moment the error kills the whole container (found
by ``make faults``, docs/reliability.md).
"""

from __future__ import annotations

import logging
from typing import Any

from amqp.exceptions import ConnectionError as AmqpConnectionError
from kombu.exceptions import OperationalError
from nameko.amqp.publish import Publisher
from nameko.constants import (
    AMQP_SSL_CONFIG_KEY,
    AMQP_URI_CONFIG_KEY,
    DEFAULT_SERIALIZER,
    LOGIN_METHOD_CONFIG_KEY,
    SERIALIZER_CONFIG_KEY,
)
from nameko.rpc import ReplyListener, Responder, Rpc, RpcConsumer, get_rpc_exchange

from shared.queues import durable_queue_arguments, make_quorum, quorum_enabled

log = logging.getLogger(__name__)

# What talking to a broker that went away raises (a reset socket is an OSError).
BROKER_ERRORS = (OperationalError, AmqpConnectionError, OSError)


class ReplyPublisher(Publisher):  # type: ignore[misc]
    use_confirms = False


class ReplyResponder(Responder):  # type: ignore[misc]
    publisher_cls = ReplyPublisher


class ReplyingRpcConsumer(RpcConsumer):  # type: ignore[misc]
    def setup(self) -> None:
        """nameko's ``rpc-<service>`` queue; a quorum queue with ``QUORUM_QUEUES=1``."""
        super().setup()
        make_quorum(self.queue, durable_queue_arguments(quorum_enabled(self.container.config)))

    def handle_result(self, message: Any, result: Any, exc_info: Any) -> tuple[Any, Any]:
        """nameko's, with :class:`ReplyResponder`: send the reply, then acknowledge."""
        config = self.container.config
        responder = ReplyResponder(
            config[AMQP_URI_CONFIG_KEY],
            get_rpc_exchange(config),
            config.get(SERIALIZER_CONFIG_KEY, DEFAULT_SERIALIZER),
            message,
            ssl=config.get(AMQP_SSL_CONFIG_KEY),
            login_method=config.get(LOGIN_METHOD_CONFIG_KEY),
        )
        result, exc_info = responder.send_response(result, exc_info)
        self.queue_consumer.ack_message(message)
        return result, exc_info


class ReplyingRpc(Rpc):  # type: ignore[misc]
    rpc_consumer = ReplyingRpcConsumer()


rpc = ReplyingRpc.decorator


class TolerantReplyListener(ReplyListener):  # type: ignore[misc]
    def handle_message(self, body: Any, message: Any) -> None:
        """Acknowledge the reply if the broker is there, and hand it to its caller anyway.

        Unacknowledged, the broker delivers it again on the new connection; its caller
        is answered by then, and a reply nobody waits for is dropped (as nameko does)."""
        try:
            self.queue_consumer.ack_message(message)
        except BROKER_ERRORS as exc:
            log.warning("a reply could not be acknowledged (%s); its caller gets it anyway", exc)
        caller = self._reply_events.pop(message.properties.get("correlation_id"), None)
        if caller is not None:
            caller.send(body)
