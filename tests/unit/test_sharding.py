import pytest

from tests.sharding import deal, parse_shard, tier_of

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


def test_each_tier_is_spread_over_the_shards():
    dealt = deal(FILES, 2)
    for tier in ("e2e", "unit"):
        assert {shard for path, shard in dealt.items() if tier_of(path) == tier} == {0, 1}


def test_the_largest_file_of_a_tier_goes_first_and_the_next_to_the_other_shard():
    dealt = deal(FILES, 2)
    assert dealt["tests/e2e/platform/test_bad_input.py"] == 0
    assert dealt["tests/e2e/quest/test_battle_api.py"] == 1


def test_a_file_outside_the_tiers_counts_as_a_unit_test():
    assert tier_of("tests/test_sharding.py") == "unit"
    assert tier_of("tests/integration/cards/test_packs.py") == "integration"


@pytest.mark.parametrize("value", ["2/2", "-1/2", "a/2", "1"])
def test_a_malformed_shard_is_refused(value):
    with pytest.raises(ValueError):
        parse_shard(value)


def test_a_shard_is_its_index_and_count():
    assert parse_shard("1/3") == (1, 3)
