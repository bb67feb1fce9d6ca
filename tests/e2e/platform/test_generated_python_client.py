"""A typed Python client generated from the live OpenAPI document (openapi-python-client,
a development dependency) builds, imports and talks to the gateway: a player's own
account, the public Chronovore library, and a refusal parsed as the one Problem."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.random_refs import random_sub

pytestmark = pytest.mark.e2e

PACKAGE = "deckyard_generated_client"


def _generate(document: dict, where: Path) -> None:
    (where / "openapi.json").write_text(json.dumps(document))
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [str(generator), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
         "--output-path", str(where / PACKAGE)],
        check=True, capture_output=True, timeout=300,
    )  # fmt: skip


@pytest.fixture
def generated(api, tmp_path):
    document = api.get("/v1/openapi.json").json()
    _generate(document, tmp_path)
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE), api.base_url + document["servers"][0]["url"]
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_a_generated_python_client_reads_the_api_and_its_problems(api, generated):
    package, base_url = generated
    get_me = importlib.import_module(f"{PACKAGE}.api.accounts.get_me")
    library = importlib.import_module(f"{PACKAGE}.api.chronovore_cards.get_chronovore_library")
    me_model = importlib.import_module(f"{PACKAGE}.models.me").Me
    problem_model = importlib.import_module(f"{PACKAGE}.models.problem").Problem
    page_model = importlib.import_module(
        f"{PACKAGE}.models.chronovore_library_page"
    ).ChronovoreLibraryPage

    player = package.AuthenticatedClient(base_url=base_url, token=api.token(random_sub("py")))
    answer = get_me.sync_detailed(client=player)
    assert answer.status_code == 200
    assert isinstance(answer.parsed, me_model) and str(answer.parsed.id)

    cards = library.sync_detailed(client=package.Client(base_url=base_url))
    assert cards.status_code == 200 and isinstance(cards.parsed, page_model)
    assert isinstance(cards.parsed.items, list) and cards.parsed.next_ is None  # a whole list

    stranger = package.AuthenticatedClient(base_url=base_url, token="not-a-token")
    refused = get_me.sync_detailed(client=stranger)
    assert refused.status_code == 401
    assert isinstance(refused.parsed, problem_model)  # every error of every operation
    assert refused.parsed.code.value == "invalid_token"
