"""`deckyard --help` is plain words (no reStructuredText), `deckyard --version` the
installed package's version."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from deckyard.cli import main

COMMANDS = ["run", "seed", "migrate", "dead-letters", "token", "balance", "terrakard", "review"]


def helped(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as done:
        main([*argv, "--help"])
    assert done.value.code == 0
    return capsys.readouterr().out


def test_help_says_what_deckyard_is_in_plain_words(capsys):
    text = helped(capsys)

    assert "``" not in text
    assert "Run the Deckyard platform" in text
    assert "--version" in text


@pytest.mark.parametrize("command", [*COMMANDS, "verify"])
def test_no_command_s_help_shows_markup(capsys, command):
    assert "``" not in helped(capsys, command)


def test_version_is_the_installed_package_s(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--version"])

    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"deckyard {version('deckyard')}"


def test_the_test_clock_is_a_command(capsys):
    text = helped(capsys, "clock")

    assert "show" in text and "advance" in text
