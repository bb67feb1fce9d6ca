"""The codes the OpenAPI document enumerates are every code the services can answer.

The services' and games' sources are read (not imported): every literal code given to
a refusal there must be in its area's table of gateway/problem_codes.py under the same
status, so a new refusal cannot reach clients undocumented (and, with the schema's
``enum``, fail the fuzz test's response check).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from gateway import problem_codes

ROOT = Path(__file__).resolve().parents[3]
STATUS = {
    "BadRequest": 400,
    "Unauthorized": 401,
    "Forbidden": 403,
    "NotFound": 404,
    "Conflict": 409,
    "PayloadTooLarge": 413,
    "InvalidInput": 422,
    "RateLimited": 429,
    "ServiceUnavailable": 503,
    "TransactionConflict": 503,
}
AREAS = {
    "accounts": problem_codes.ACCOUNTS,
    "authoring": problem_codes.AUTHORING,
    "challenge": problem_codes.CHALLENGE,
    "cards": problem_codes.CARDS,
    "battle": problem_codes.BATTLE,
}
# Raised only where no HTTP request waits: event consumers, the deletion saga's answers.
NOT_ANSWERED_OVER_HTTP = {"invalid_event", "unexpected_event", "player_busy"}


def _name(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def raised(folder: Path, names: set[str]) -> set[tuple[str, str]]:
    """(class name, literal code) of every call of ``names`` under ``folder``."""
    found = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _name(node) in names and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    found.add((str(_name(node)), first.value))
    return found


@pytest.mark.parametrize("service", sorted(AREAS))
def test_every_code_a_service_raises_is_enumerated_under_its_status(service):
    table = AREAS[service]
    refusals = raised(ROOT / "services" / service, set(STATUS))
    assert refusals
    missing = [
        (STATUS[cls], code)
        for cls, code in sorted(refusals)
        if code not in NOT_ANSWERED_OVER_HTTP
        and code not in problem_codes.codes_for(STATUS[cls], table, author=True)
    ]
    assert not missing


def test_every_gateway_code_is_enumerated_under_its_status():
    refusals = raised(ROOT / "gateway", set(STATUS)) | raised(ROOT / "shared", set(STATUS))
    everything = {
        (status, code)
        for table in (
            problem_codes.GATEWAY,
            problem_codes.PUSH,
            problem_codes.ECONOMY,
            *AREAS.values(),
        )
        for status, codes in table.items()
        for code in codes
    } | {(403, problem_codes.AUTHOR_ONLY)}
    missing = [
        (STATUS[cls], code)
        for cls, code in sorted(refusals)
        if code not in NOT_ANSWERED_OVER_HTTP and (STATUS[cls], code) not in everything
    ]
    assert not missing


def test_every_literal_refusal_of_the_games_is_enumerated():
    codes = {code for _, code in raised(ROOT / "games", {"Refusal", "Problem"})}
    documented = {code for table in AREAS.values() for listed in table.values() for code in listed}
    assert codes and codes <= documented
