"""The stock nameko baseline for ``bench/run.py``.

Two services exactly as nameko's documentation writes them, with nameko's
default configuration (``max_workers`` 10, JSON serializer):

* ``baseline_pong`` answers ``ping`` over RPC with ``"pong"``;
* ``baseline_http`` serves ``GET /ping`` with plain ``@http`` and makes one
  RPC to ``baseline_pong`` per request through a stock ``RpcProxy``.

Run them as stock nameko does (``bench/run.py`` does it for you)::

    cd bench
    nameko run --config baseline.yaml baseline_service:PongService
    nameko run --config baseline.yaml baseline_service:PingHttpService

Nothing here imports the project: this is the yardstick the gateway's ``/me``
is compared with.
"""

from nameko.rpc import RpcProxy, rpc
from nameko.web.handlers import http


class PongService:
    name = "baseline_pong"

    @rpc
    def ping(self) -> str:
        return "pong"


class PingHttpService:
    name = "baseline_http"

    pong = RpcProxy("baseline_pong")

    @http("GET", "/ping")
    def ping(self, request: object) -> str:
        answer: str = self.pong.ping()
        return answer
