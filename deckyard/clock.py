"""``deckyard clock show | advance DURATION``: the test clock of a running stack.

The same service path as the gateway's ``/internal/clock``: accounts' ``clock_show`` and
``clock_advance`` RPCs over the stack's broker (``AMQP_URI``, ``RPC_EXCHANGE``), so the
stack's own ``CLOCK_CONTROL`` decides (a stack without it answers "off", exit 1), and
``advance`` returns once the offset is committed: every worker that starts after it, in
every service and the gateway, runs on the new time (shared/clock_control.py).
``DURATION`` is ``49h``, ``7d``, ``1d2h30m``, ``90s``; the clock never goes back.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, Protocol

from shared.errors import DeckyardError


class Accounts(Protocol):
    """The RPCs this command uses (nameko's proxy to the accounts service)."""

    def clock_show(self) -> dict[str, Any]: ...

    def clock_advance(self, by: str) -> dict[str, Any]: ...


def line(view: dict[str, Any]) -> str:
    return f"offset {view['offset']} ({view['offset_seconds']} s): now {view['now']}"


def show(accounts: Accounts) -> dict[str, Any]:
    return accounts.clock_show()


def advance(accounts: Accounts, duration: str) -> dict[str, Any]:
    return accounts.clock_advance(by=duration)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    commands = parser.add_subparsers(dest="clock_command", required=True)
    commands.add_parser("show", help="the offset and the stack's time now")
    forward = commands.add_parser("advance", help="move every process's clock forward")
    forward.add_argument("duration", help="49h, 7d, 1d2h30m, 90s (above zero)")


def run(args: argparse.Namespace) -> int:
    from nameko.standalone.rpc import ClusterRpcProxy

    from deckyard.preflight import require_rabbitmq
    from shared.config import load_settings

    settings = load_settings()
    require_rabbitmq(settings)
    with ClusterRpcProxy(settings.nameko_config(), timeout=30) as proxy:
        try:
            if args.clock_command == "advance":
                view = advance(proxy.accounts, args.duration)
            else:
                view = show(proxy.accounts)
        except DeckyardError as exc:
            print(f"deckyard clock: {exc.message}", file=sys.stderr)
            return 1
    print(line(view))
    return 0
