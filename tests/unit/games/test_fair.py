"""games/kit/fair.py: the derivation byte for byte, the unbiased mapping, the verifier."""

from __future__ import annotations

import hashlib
import hmac
import itertools
from collections import Counter
from fractions import Fraction

import pytest

from games.kit.fair import (
    Roller,
    below,
    message,
    seed_hash,
    verify_history,
    verify_roll,
    weighted_index,
    words,
)

SEED = bytes(range(32))
CLIENT = "my-client-seed"
# chi-square quantiles at 1 - 1e-6 by degrees of freedom
CRITICAL = {1: 23.93, 2: 27.63, 3: 30.66, 4: 33.38}


def assert_fits(observed: Counter, expected: dict) -> None:
    total = sum(observed.values())
    assert set(observed) <= set(expected), "an outcome outside the table happened"
    statistic = sum(
        (observed.get(k, 0) - float(p) * total) ** 2 / (float(p) * total)
        for k, p in expected.items()
    )
    assert statistic < CRITICAL[len(expected) - 1], (statistic, observed)


def test_the_commitment_is_the_sha256_of_the_seed_bytes():
    assert seed_hash(bytes(32)) == (
        "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    )


def test_a_draw_reads_hmac_sha256_of_client_seed_nonce_and_purpose_as_32_bit_words():
    assert message(CLIENT, 7, "quest.reward/0") == b"my-client-seed:7:quest.reward/0"
    assert message(CLIENT, 7, "quest.reward/0", 2) == b"my-client-seed:7:quest.reward/0:2"
    first = hmac.new(SEED, b"my-client-seed:7:quest.reward/0", hashlib.sha256).digest()
    second = hmac.new(SEED, b"my-client-seed:7:quest.reward/0:1", hashlib.sha256).digest()
    stream = list(itertools.islice(words(SEED, CLIENT, 7, "quest.reward/0"), 10))
    assert stream[0] == int.from_bytes(first[:4], "big")
    assert stream[7] == int.from_bytes(first[28:], "big")
    assert stream[8:] == [int.from_bytes(second[:4], "big"), int.from_bytes(second[4:8], "big")]


def test_a_word_at_or_above_the_largest_multiple_is_rejected_not_reduced():
    # 2**32 mod 3 == 1: the word 2**32 - 1 would make 0 likelier; it is skipped.
    assert below(iter([2**32 - 1, 5]), 3) == 2
    assert below(iter([2**32 - 2, 5]), 3) == (2**32 - 2) % 3
    # total 3 * 2**30: every word from 3 * 2**30 up is rejected (a quarter of them)
    assert below(iter([3 * 2**30, 3 * 2**30 + 7, 11]), 3 * 2**30) == 11


def test_weights_pick_the_first_option_whose_running_total_exceeds_r():
    assert weighted_index(iter([0]), [45, 40, 14, 1]) == 0
    assert weighted_index(iter([44]), [45, 40, 14, 1]) == 0
    assert weighted_index(iter([45]), [45, 40, 14, 1]) == 1
    assert weighted_index(iter([98]), [45, 40, 14, 1]) == 2
    assert weighted_index(iter([99]), [45, 40, 14, 1]) == 3
    assert weighted_index(iter([5]), [0, 3, 0, 3]) == 3  # a zero weight is never picked
    with pytest.raises(ValueError):
        weighted_index(iter([0]), [2**31, 2**31, 1])  # more than 2**32 in all


def _rolls(purpose: str, count: int, options, weights):
    for nonce in range(count):
        roller = Roller(SEED, CLIENT, nonce, purpose)
        yield roller.weighted("x", options, weights)


def test_a_uniform_choice_of_three_is_unbiased_over_100000_rolls():
    observed = Counter(_rolls("test.three", 100_000, ["a", "b", "c"], [1, 1, 1]))
    assert_fits(observed, {k: Fraction(1, 3) for k in "abc"})


def test_rejection_keeps_a_total_that_wastes_a_quarter_of_the_words_unbiased():
    # Reduced without rejection, option "a" would come up half the time.
    weights = [2**30, 2**30, 2**30]
    observed = Counter(_rolls("test.wide", 100_000, ["a", "b", "c"], weights))
    assert_fits(observed, {k: Fraction(1, 3) for k in "abc"})


def test_uneven_integer_weights_follow_their_proportions_over_100000_rolls():
    weights = {"standard": 1900, "golden": 99, "diamond": 1}
    observed = Counter(_rolls("test.finish", 100_000, list(weights), list(weights.values())))
    assert_fits(observed, {k: Fraction(w, 2000) for k, w in weights.items()})


# -- the verifier ----------------------------------------------------------------------


def exported(nonce: int = 3, revealed: bool = True) -> dict:
    roller = Roller(SEED, CLIENT, nonce, "quest.reward")
    roller.weighted("count", [1, 2], [80, 20])
    roller.weighted("rarity.0", ["Common", "Rare"], [75, 25])
    roller.choice("card.0", ["card-a", "card-b", "card-c"])
    return {
        "purpose": "quest.reward",
        "server_seed_hash": seed_hash(SEED),
        "server_seed": SEED.hex() if revealed else None,
        "client_seed": CLIENT,
        "nonce": nonce,
        "draws": [d.to_dict() for d in roller.draws],
    }


def test_an_untouched_roll_verifies():
    verdict = verify_roll(exported())
    assert (verdict.status, verdict.problems) == ("ok", ())


def test_a_roll_under_a_seed_still_secret_is_pending():
    assert verify_roll(exported(revealed=False)).status == "pending"


def _other(draw: dict) -> str:
    return next(o for o in draw["options"] if o != draw["outcome"])


def test_a_tampered_outcome_fails_naming_the_draw():
    record = exported()
    record["draws"][2]["outcome"] = _other(record["draws"][2])
    verdict = verify_roll(record)
    assert verdict.status == "failed"
    [problem] = verdict.problems
    assert "draw 2 (card.0)" in problem and "but the record says" in problem


def test_a_tampered_nonce_fails():
    # nonce 3 and nonce 4 differ somewhere in the three draws for this seed
    record = exported()
    record["nonce"] = 4
    verdict = verify_roll(record)
    assert verdict.status == "failed"
    assert "outcome, nonce or client seed was altered" in verdict.problems[0]


def test_a_tampered_seed_fails_against_the_hash_shown_before_the_roll():
    record = exported()
    record["server_seed"] = bytes(32).hex()
    verdict = verify_roll(record)
    assert verdict.status == "failed"
    assert "does not match the hash shown before the roll" in verdict.problems[0]


def test_a_nonce_used_twice_under_one_seed_fails():
    verdicts = verify_history([exported(3), exported(3)])
    assert [v.status for v in verdicts] == ["ok", "failed"]
    assert "already used under this server seed" in verdicts[1].problems[0]


def test_the_derivation_does_not_touch_the_global_random():
    import random

    random.seed(1)
    first = exported()
    random.seed(2)
    random.random()
    assert exported() == first
