"""A setting ``load_settings`` refuses is one line naming it and what it expects, and
exit status 2 (as argparse's for a bad usage), not a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

DECKYARD = [sys.executable, "-m", "deckyard.cli"]

BAD = {  # a command, the setting it is given, what the line must say
    "run-all": (["run"], {"GATEWAY_PORT": "abc"}, "GATEWAY_PORT must be a number, got 'abc'"),
    "run-gateway": (
        ["run", "--service", "gateway"],
        {"RPC_TIMEOUT_SECONDS": "-1"},
        "RPC_TIMEOUT_SECONDS must be a finite, non-negative number",
    ),
    "migrate": (["migrate"], {"LOG_FORMAT": "xml"}, "LOG_FORMAT must be one of text, json"),
    "seed": (["seed"], {"HEALTH_PORT": "80.5"}, "HEALTH_PORT must be a whole number"),
    "token": (
        ["token", "--sub", "dev|alice"],
        {"CORS_ORIGINS": "*"},
        "CORS_ORIGINS must list origins such as https://app.example.com",
    ),
    "production": (
        ["migrate"],
        {"DECKYARD_ENV": "production", "AUTH0_DOMAIN": "", "DEV_AUTH": ""},
        "AUTH0_DOMAIN must be set when DECKYARD_ENV=production",
    ),
}


@pytest.mark.parametrize(("argv", "env", "said"), BAD.values(), ids=BAD.keys())
def test_a_bad_setting_is_one_line_and_exit_2(argv, env, said):
    done = subprocess.run(
        [*DECKYARD, *argv],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"deckyard: {said}")
    assert done.stdout == ""
