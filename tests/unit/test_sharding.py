import json

import pytest

from tests.sharding import deal, estimated_costs, measured_durations, parse_shard, tier_of

FILES = {
    "tests/e2e/quest/test_battle_api.py": 6,
    "tests/e2e/platform/test_bad_input.py": 40,
    "tests/integration/cards/test_packs.py": 12,
    "tests/unit/games/quest/test_engine.py": 120,
    "tests/unit/shared/test_rpc.py": 9,
}
MEASURED = {
    "tests/e2e/quest/test_battle_api.py": 300.0,
    "tests/e2e/platform/test_bad_input.py": 100.0,
    "tests/integration/cards/test_packs.py": 60.0,
    "tests/unit/games/quest/test_engine.py": 12.0,
    "tests/unit/shared/test_rpc.py": 0.9,
}


def test_every_file_goes_to_exactly_one_shard_within_range():
    dealt = deal(FILES, 2, MEASURED)
    assert set(dealt) == set(FILES)
    assert set(dealt.values()) <= {0, 1}


def test_the_deal_is_the_same_whatever_the_order_files_were_collected_in():
    reversed_files = dict(reversed(list(FILES.items())))
    assert deal(FILES, 3, MEASURED) == deal(reversed_files, 3, MEASURED)


def test_files_are_dealt_by_measured_seconds_not_by_their_number_of_tests():
    dealt = deal(FILES, 2, MEASURED)
    # The six-test e2e file alone costs more than everything else together.
    assert dealt["tests/e2e/quest/test_battle_api.py"] == 0
    assert {
        shard for path, shard in dealt.items() if path != "tests/e2e/quest/test_battle_api.py"
    } == {1}


def test_the_costliest_file_goes_first_and_the_next_to_the_other_shard():
    measured = {**MEASURED, "tests/e2e/platform/test_bad_input.py": 250.0}
    dealt = deal(FILES, 2, measured)
    assert dealt["tests/e2e/quest/test_battle_api.py"] == 0
    assert dealt["tests/e2e/platform/test_bad_input.py"] == 1


def test_a_file_not_yet_measured_costs_its_tiers_mean_per_test():
    new_file = "tests/e2e/quest/test_new_api.py"
    costs = estimated_costs({**FILES, new_file: 4}, MEASURED)
    e2e_per_test = (300.0 + 100.0) / (6 + 40)
    assert costs[new_file] == pytest.approx(4 * e2e_per_test)
    assert costs["tests/unit/shared/test_rpc.py"] == 0.9


def test_without_any_record_every_test_costs_the_same():
    costs = estimated_costs(FILES, {})
    assert costs == {path: float(count) for path, count in FILES.items()}


def test_the_committed_record_is_read_and_a_missing_one_is_empty(tmp_path):
    record = tmp_path / "durations.json"
    record.write_text(json.dumps({"tests/unit/a.py": 1.5}))
    assert measured_durations(record) == {"tests/unit/a.py": 1.5}
    assert measured_durations(tmp_path / "missing.json") == {}


def test_a_file_outside_the_tiers_counts_as_a_unit_test():
    assert tier_of("tests/test_sharding.py") == "unit"
    assert tier_of("tests/integration/cards/test_packs.py") == "integration"


@pytest.mark.parametrize("value", ["2/2", "-1/2", "a/2", "1"])
def test_a_malformed_shard_is_refused(value):
    with pytest.raises(ValueError):
        parse_shard(value)


def test_a_shard_is_its_index_and_count():
    assert parse_shard("1/3") == (1, 3)
