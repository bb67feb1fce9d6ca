"""deckyard/engines.py: when the compiled engines count as built from the sources."""

from __future__ import annotations

from deckyard import engines


def _tree(tmp_path):
    games = tmp_path / "games"
    (games / "quest").mkdir(parents=True)
    (games / "__init__.py").write_text('"""games"""\n')
    (games / "quest" / "engine.py").write_text("X = 1\n")
    return games


def test_no_compiled_module_is_python(tmp_path):
    assert engines.state(_tree(tmp_path)) == "absent"


def test_compiled_modules_with_the_digest_of_their_sources_are_current(tmp_path):
    games = _tree(tmp_path)
    (games / "quest" / f"engine{engines.SUFFIX}").write_bytes(b"\x7fELF")
    (games / engines.DIGEST.name).write_text(engines.digest(games) + "\n")
    assert engines.state(games) == "compiled"

    (games / "quest" / "engine.py").write_text("X = 2\n")  # a source changed since
    assert engines.state(games) == "stale"


def test_compiled_modules_without_a_digest_are_stale_and_clean_removes_them(tmp_path):
    games = _tree(tmp_path)
    (games / "quest" / f"engine{engines.SUFFIX}").write_bytes(b"\x7fELF")
    assert engines.state(games) == "stale"
    engines.clean(games)
    assert engines.state(games) == "absent"
    assert (games / "quest" / "engine.py").is_file()


def test_the_digest_covers_every_source_and_its_path(tmp_path):
    games = _tree(tmp_path)
    before = engines.digest(games)
    (games / "quest" / "extra.py").write_text("")
    assert engines.digest(games) != before
