"""The game engines compiled with mypyc, in place: ``python -m deckyard.engines``.

Every module of ``games/`` is compiled to a C extension next to its source
(``games/quest/engine.cpython-311-<platform>.so`` beside ``engine.py``, and one shared
library, ``games/engines__mypyc...so``, that holds them all). Python imports an
extension before a source of the same name, so a process that finds them runs the
compiled engines; without them (never built, or removed by ``--clean``) the same
sources run as Python, with the same results (tests/unit/games/test_compiled.py plays
seeded matches both ways and compares them byte for byte). Why and what it gives:
docs/performance.md, "Engines compiled".

``make install`` (and the Dockerfile) run it; it does nothing when the sources have not
changed since the last build (their digest is kept in ``games/engines.digest``).
A compiled module that no longer matches its source is worse than none: ``state()``
says ``stale`` and the test suite stops on it (tests/conftest.py).

It needs mypy (mypyc ships with it), setuptools, a C compiler and Python's headers:
build-time only, the compiled modules need nothing but the interpreter.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import os
import re
import shutil
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "games"
DIGEST = GAMES / "engines.digest"
BUILD = ROOT / "build" / "engines"
GROUP = "games.engines"  # the shared library: games/engines__mypyc.<suffix>

SUFFIX = sysconfig.get_config_var("EXT_SUFFIX") or ".so"

# mypyc compiles ``any(x for x in ...)`` as a list and says so at every build, as a
# "warning" a newcomer reads as something broken. Known and harmless (the result is
# the same); every other line mypyc prints, an error above all, is shown as it comes.
HARMLESS = re.compile(r"^\S+:\d+: warning: Treating generator comprehension as list$")


class _Harmless(io.TextIOBase):
    """A stream that passes on every line but the known harmless warnings."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.pending = ""

    def write(self, text: str) -> int:
        *lines, self.pending = (self.pending + text).split("\n")
        for line in lines:
            if not HARMLESS.match(line):
                self.out.write(line + "\n")
        return len(text)

    def flush(self) -> None:
        if self.pending and not HARMLESS.match(self.pending):
            self.out.write(self.pending)
        self.pending = ""


@contextlib.contextmanager
def harmless_warnings_hidden() -> Iterator[None]:
    """mypyc's messages (it prints them) without the known harmless warnings."""
    stream = _Harmless(sys.stdout)
    try:
        with contextlib.redirect_stdout(stream):
            yield
    finally:
        stream.flush()


def sources(root: Path = GAMES) -> list[Path]:
    """The sources: every ``.py`` of ``games/`` (all compiled but the packages' own)."""
    return sorted(root.rglob("*.py"))


def digest(root: Path = GAMES) -> str:
    """One hash of every source's path and bytes, and of the interpreter it is built for."""
    h = hashlib.sha256(SUFFIX.encode())
    for path in sources(root):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


# The packages' ``__init__.py`` stay Python. The shared library is a module of the package
# ``games``, so a compiled ``games`` would import itself; and a compiled package would get
# its ``__path__`` from the ``__file__`` mypyc derives for a library inside the package
# tree (``games/games/quest/...``, a directory that does not exist), after which a module
# not yet imported could not be found. A compiled module's ``__file__`` has that quirk
# too (it names no file, the module's spec says where it came from); nothing reads it.


def compiled(root: Path = GAMES) -> list[Path]:
    """The compiled modules present under ``root`` (for this interpreter)."""
    return sorted(root.rglob(f"*{SUFFIX}"))


def state(root: Path = GAMES) -> str:
    """``absent`` (pure Python), ``compiled`` (built from these sources) or ``stale``."""
    if not compiled(root):
        return "absent"
    digest_file = root / DIGEST.name
    if digest_file.is_file() and digest_file.read_text().strip() == digest(root):
        return "compiled"
    return "stale"


def clean(root: Path = GAMES) -> None:
    """Remove the compiled modules: the engines run as Python again."""
    for path in compiled(root):
        path.unlink()
    (root / DIGEST.name).unlink(missing_ok=True)


def build(*, force: bool = False) -> bool:
    """Compile ``games/`` in place unless it is already built from these sources."""
    if not force and state() == "compiled":
        return False
    # Imported here: only a build needs them (the dev dependencies, not the runtime's).
    from mypyc.build import mypycify
    from setuptools import Distribution

    clean()
    built_from = digest()  # before: a source changed during the build makes it stale
    here = Path.cwd()
    os.chdir(ROOT)  # mypyc names modules by their paths relative to the working directory
    try:
        paths = [str(path.relative_to(ROOT)) for path in sources()]
        with harmless_warnings_hidden():  # mypyc exits on an error: the lines are out first
            extensions = mypycify(
                paths,
                only_compile_paths=[path for path in paths if not path.endswith("__init__.py")],
                opt_level="3",
                group_name=GROUP,
                target_dir=str(BUILD.relative_to(ROOT)),
            )
        # A bare Distribution: setup() would also read pyproject.toml, which is not this
        # build's business (and older setuptools reject its license field).
        distribution = Distribution({"name": "deckyard-engines", "ext_modules": extensions})
        command = distribution.get_command_obj("build_ext")
        command.inplace = True
        command.build_temp = str(BUILD / "temp")
        command.build_lib = str(BUILD / "lib")
        # Not build_ext -j: the time is the shared library's one C file in one compiler run;
        # building the 70-odd small modules that load it beside it gained nothing measurable
        # (1m45s serial, 2m17s with -j on this 2-core machine, other work running).
        distribution.run_command("build_ext")
    finally:
        os.chdir(here)
    DIGEST.write_text(built_from + "\n")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m deckyard.engines",
        description=__doc__.replace("``", ""),  # plain words: the docstring is reStructuredText
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--force", action="store_true", help="build even if up to date")
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--state", action="store_true", help="print absent, compiled or stale")
    parser.add_argument("--keep-build", action="store_true", help="keep build/engines (C files)")
    args = parser.parse_args(argv)
    if args.state:
        print(state())
        return 0
    if args.clean:
        clean()
        print("engines: compiled modules removed (games/ runs as Python)")
        return 0
    if build(force=args.force):
        print(f"engines: games/ compiled ({len(compiled())} modules)")
    else:
        print("engines: up to date")
    if not args.keep_build:
        shutil.rmtree(BUILD, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
