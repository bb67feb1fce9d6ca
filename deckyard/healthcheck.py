"""The image's HEALTHCHECK: healthy when this container's process answers ``/health``.

One image runs every service, so the check does not know which one this is: the
gateway answers on GATEWAY_PORT, a service on HEALTH_PORT; either answering 200 is
alive. Standard library only, so the check costs no imports of the platform.
"""

from __future__ import annotations

import os
import sys
import urllib.request


def alive(port: str) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=3) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def main() -> int:
    ports = (os.environ.get("HEALTH_PORT", "8080"), os.environ.get("GATEWAY_PORT", "8000"))
    return 0 if any(alive(port) for port in ports) else 1


if __name__ == "__main__":
    sys.exit(main())
