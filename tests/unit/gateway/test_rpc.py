"""A call the broker cannot take is a 503 for the client, not a 500."""

import pytest
from kombu.exceptions import OperationalError

from gateway.rpc import ServiceCaller
from shared.errors import ServiceUnavailable


class RefusingProxy:
    def __init__(self, error):
        self.error = error

    def __getattr__(self, method):
        error = self.error

        class Method:
            def call_async(self, **kwargs):
                raise error

        return Method()


@pytest.mark.parametrize(
    "error", [OperationalError("[Errno 111] Connection refused"), ConnectionRefusedError(111)]
)
def test_a_broker_that_refuses_the_call_is_service_unavailable(error):
    caller = ServiceCaller(worker_ctx=None, reply_listener=None, timeout=1.0)
    caller._proxy = lambda service: RefusingProxy(error)
    with pytest.raises(ServiceUnavailable) as caught:
        caller.start("accounts", "me", sub="auth0|x")
    assert caught.value.code == "broker_unavailable"
