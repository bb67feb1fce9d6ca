"""``python bench/faults``: faults under load (the package's docstring says what it does)."""

from __future__ import annotations

import sys
from pathlib import Path

# bench/ first on the path, as for every bench script (harness, answers, this package),
# in place of this directory: its modules (platform, ...) must not shadow the stdlib's.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import harness  # noqa: E402

# Tokens, the read model and the settings come from the project's code.
harness.reexec_in_venv()

from faults.main import main  # noqa: E402

sys.exit(main())
