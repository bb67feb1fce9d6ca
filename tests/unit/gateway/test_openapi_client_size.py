"""A Python client generated from the document stays of a sane size with one error type.

openapi-python-client (a development dependency, so no network here) writes a model
module per schema it meets; when every problem response narrowed the Problem schema with
codes of its own it wrote 2,242 of them, 2,004 named after a response
(``AnswerQuestQuestionResponse422``). docs/api.md ("Generated clients") gives the figures.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gateway.app import Gateway
from gateway.openapi import build_spec

MAX_MODEL_MODULES = 300


@pytest.fixture(scope="module")
def client_package(tmp_path_factory):
    where = tmp_path_factory.mktemp("generated")
    (where / "openapi.json").write_text(json.dumps(build_spec(Gateway)))
    generator = Path(sys.executable).with_name("openapi-python-client")
    subprocess.run(
        [str(generator), "generate", "--path", str(where / "openapi.json"), "--meta", "none",
         "--output-path", str(where / "client")],
        check=True, capture_output=True, timeout=120,
    )  # fmt: skip
    return where / "client"


def test_the_generated_client_has_fewer_than_300_model_modules(client_package):
    models = [p.stem for p in (client_package / "models").glob("*.py") if p.stem != "__init__"]

    assert len(models) < MAX_MODEL_MODULES
    assert [m for m in models if "_response_" in m or m.endswith("_response_default")] == []


def test_every_error_of_an_operation_parses_to_the_one_problem_model(client_package):
    module = (client_package / "api" / "accounts" / "get_me.py").read_text()

    assert re.search(r"def _parse_response\([^)]*\)\s*->\s*Me \| Problem:", module)
    assert module.count("Problem.from_dict(") >= 4  # 401, 403, 503 and the default
