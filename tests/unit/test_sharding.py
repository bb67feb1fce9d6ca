import pytest

from tests.sharding import deal, file_cost, parse_shard

FILES = {
    "tests/e2e/quest/test_battle_api.py": 6,
    "tests/e2e/platform/test_bad_input.py": 40,
    "tests/integration/cards/test_packs.py": 12,
    "tests/unit/games/quest/test_engine.py": 120,
    "tests/unit/shared/test_rpc.py": 9,
}


def test_every_file_goes_to_exactly_one_shard_within_range():
    dealt = deal(FILES, 2)
    assert set(dealt) == set(FILES)
    assert set(dealt.values()) <= {0, 1}


def test_the_deal_is_the_same_whatever_the_order_files_were_collected_in():
    reversed_files = dict(reversed(list(FILES.items())))
    assert deal(FILES, 3) == deal(reversed_files, 3)


def test_the_costliest_files_are_spread_over_the_shards():
    dealt = deal(FILES, 2)
    # bad_input (40 e2e tests) is by far the costliest: everything else goes to the other shard
    assert dealt["tests/e2e/platform/test_bad_input.py"] == 0
    assert {shard for path, shard in dealt.items() if "bad_input" not in path} == {1}


def test_a_test_through_services_costs_more_than_a_unit_test():
    assert file_cost("tests/e2e/a.py", 1) > file_cost("tests/integration/a.py", 1)
    assert file_cost("tests/integration/a.py", 1) > file_cost("tests/unit/a.py", 1)


@pytest.mark.parametrize("value", ["2/2", "-1/2", "a/2", "1"])
def test_a_malformed_shard_is_refused(value):
    with pytest.raises(ValueError):
        parse_shard(value)


def test_a_shard_is_its_index_and_count():
    assert parse_shard("1/3") == (1, 3)
