"""The web client's files at ``/`` (gateway/routes/web.py): a path that names no file of
the build is the 404 problem every unknown path is, whatever bytes it holds."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from gateway.routes.web import WebRoutes


@pytest.fixture
def web(tmp_path: Path) -> WebRoutes:
    (tmp_path / "assets").mkdir()
    (tmp_path / "index.html").write_text("<html></html>")
    (tmp_path / "assets" / "app-1234.js").write_text("export {}")
    (tmp_path.parent / "secret.txt").write_text("not served")
    routes = WebRoutes()
    routes.settings = SimpleNamespace(web_root=str(tmp_path))  # type: ignore[assignment]
    return routes


def test_the_build_s_files_are_served(web):
    assert web.web_file("/").status_code == 200
    assert web.web_file("/assets/app-1234.js").headers["cache-control"].startswith("public")


NO_FILE = {
    "nul-inside": "/foo\x00bar",  # /foo%00bar: Path.resolve() raised ValueError, a bare 500
    "nul": "/\x00",
    "nul-after-a-file": "/index.html\x00.png",
    "long-name": "/" + "x" * 300,  # longer than the file system's names: OSError, a bare 500
    "long-name-in-assets": "/assets/" + "x" * 5000,
    "long-path": "/" + "a/" * 3000,  # longer than PATH_MAX
    "surrogate-escape": "/caf\udcff",  # what some servers leave of an invalid escape (%ff)
    "lone-surrogate": "/\ud800",
    "replacement": "/\ufffd",  # what uvicorn leaves of %ff
    "up-out": "/../secret.txt",
    "up-out-of-assets": "/assets/../../secret.txt",
    "missing": "/nothing.js",
    "a-folder": "/assets",
}


@pytest.mark.parametrize("path", NO_FILE.values(), ids=NO_FILE.keys())
def test_a_path_of_no_file_is_the_404_problem(web, path):
    answer = web.web_file(path)

    assert answer.status_code == 404
    assert answer.media_type == "application/problem+json"
    assert json.loads(answer.body)["code"] == "route_not_found"
