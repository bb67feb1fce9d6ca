"""Write the gateway's OpenAPI document to web/openapi.json, the web client's saved copy.

`npm run api` (in web/) generates the client's types from that copy, so the client builds
without a running platform; run this (``make web-api``) after the gateway's routes change
and commit both files. The document is built the way ``GET /openapi.json`` builds it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from gateway.app import Gateway
from gateway.openapi import build_spec

TARGET = Path(__file__).resolve().parents[1] / "openapi.json"
# The API's path prefix (the planned /v1). The client adds it from one constant
# (web/src/config.ts, API_PREFIX), so the saved paths never carry it.
API_PREFIX = "/v1"


def without_prefix(document: dict[str, Any], prefix: str = API_PREFIX) -> dict[str, Any]:
    """The document with ``prefix`` taken off every path that has it."""
    paths = {
        (path[len(prefix) :] if path.startswith(prefix + "/") else path): item
        for path, item in document["paths"].items()
    }
    return {**document, "paths": paths}


def main() -> None:
    document = without_prefix(build_spec(Gateway))
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else TARGET
    target.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n")
    print(f"wrote {target} ({len(document['paths'])} paths)")


if __name__ == "__main__":
    main()
