"""The import contracts (pyproject.toml, ``[tool.importlinter]``) follow the folders of
games/ and services/, and each is shown broken by a forbidden import (issue 31).

import-linter reads pyproject.toml itself, so the names of the games are written there;
this test holds them to the folders. Each contract is checked as ``lint-imports`` checks it
(import-linter's own contract classes, on grimp's graph of this tree): kept as the tree
is, broken once one forbidden import is added to a copy of the graph. The forbidden
imports are generated from the folders too, so a new game or service is shown failing
without a line here.
"""

from __future__ import annotations

import copy
import itertools
from pathlib import Path

import grimp
import pytest
from importlinter.application.use_cases import read_user_options
from importlinter.configuration import configure
from importlinter.contracts.forbidden import ForbiddenContract
from importlinter.contracts.independence import IndependenceContract
from importlinter.contracts.layers import LayersContract
from importlinter.domain.contract import Contract

ROOT = Path(__file__).parents[2]
CONTRACT_TYPES: dict[str, type[Contract]] = {
    "forbidden": ForbiddenContract,
    "independence": IndependenceContract,
    "layers": LayersContract,
}


def _packages(folder: str) -> list[str]:
    return sorted(p.name for p in (ROOT / folder).iterdir() if (p / "__init__.py").is_file())


GAMES = [name for name in _packages("games") if name != "kit"]  # kit is what games stand on
SERVICES = _packages("services")

configure()
OPTIONS = read_user_options(str(ROOT / "pyproject.toml"))
CONTRACTS = {options["id"]: options for options in OPTIONS.contracts_options}

# (contract id, importer, imported): one forbidden import each. The importer must exist,
# so the import is one a real module could make (the first is issue 31's example).
FORBIDDEN = [
    ("games-independent-on-kit", "games.terrakard.rules", "games.quest.content"),
    *(
        ("games-independent-on-kit", f"games.{a}.engine", f"games.{b}.engine")
        for a, b in itertools.permutations(GAMES, 2)
    ),
    *(("games-independent-on-kit", "games.kit.protocol", f"games.{g}.engine") for g in GAMES),
    *(("games-pure", f"games.{g}.engine", "shared.db") for g in GAMES),
    ("games-pure", "games.kit.protocol", "sqlalchemy"),
    *(
        ("services-independent", f"services.{a}.service", f"services.{b}.service")
        for a, b in itertools.permutations(SERVICES, 2)
    ),
    ("no-service-in-shared-or-gateway", "shared.db", "services.cards.service"),
    ("no-service-in-shared-or-gateway", "gateway.app", "services.battle.service"),
    *(("no-game-in-shared", "shared.errors", f"games.{g}.engine") for g in GAMES),
]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    session = OPTIONS.session_options
    return grimp.build_graph(
        *session["root_packages"],
        include_external_packages=session["include_external_packages"] == "True",
        cache_dir=None,
    )


def _kept(contract_id: str, graph: grimp.ImportGraph) -> bool:
    options = CONTRACTS[contract_id]
    contract = CONTRACT_TYPES[options["type"]](
        name=options["name"], session_options=OPTIONS.session_options, contract_options=options
    )
    return contract.check(copy.deepcopy(graph), verbose=False).kept


def test_the_games_contract_names_every_folder_of_games_over_kit():
    contract = CONTRACTS["games-independent-on-kit"]
    games, kit = contract["layers"]
    assert sorted(name.strip() for name in games.split("|")) == GAMES
    assert kit == "kit"
    # exhaustive: lint-imports itself fails on a folder of games/ missing from the layers
    assert contract["containers"] == ["games"] and contract["exhaustive"] == "True"


def test_shared_is_forbidden_every_game():
    forbidden = CONTRACTS["no-game-in-shared"]["forbidden_modules"]
    assert sorted(forbidden) == [f"games.{g}" for g in GAMES]
    assert CONTRACTS["no-game-in-shared"]["source_modules"] == ["shared"]


def test_every_service_is_independent_of_the_others():
    assert CONTRACTS["services-independent"]["modules"] == ["services.*"]


def test_every_contract_is_shown_broken_by_a_forbidden_import():
    assert {contract_id for contract_id, _, _ in FORBIDDEN} == set(CONTRACTS)


@pytest.mark.parametrize("contract_id", sorted(CONTRACTS))
def test_the_tree_keeps_the_contract(contract_id, graph):
    assert _kept(contract_id, graph)


@pytest.mark.parametrize(
    ("contract_id", "importer", "imported"),
    FORBIDDEN,
    ids=[f"{c}:{a}->{b}" for c, a, b in FORBIDDEN],
)
def test_a_forbidden_import_breaks_the_contract(contract_id, importer, imported, graph):
    assert importer in graph.modules, f"{importer} is gone: pick another module"
    broken = copy.deepcopy(graph)
    broken.add_import(importer=importer, imported=imported, line_number=1, line_contents="x")
    assert not _kept(contract_id, broken)


def test_a_new_folder_of_games_breaks_the_games_contract_until_named(graph):
    grown = copy.deepcopy(graph)
    grown.add_module("games.newgame")
    grown.add_import(importer="games.newgame", imported="games.kit.protocol")
    assert not _kept("games-independent-on-kit", grown)
