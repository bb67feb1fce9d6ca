"""Location claims (rulebook "Event challenge" / "Eligibility"): accuracy, freshness,
plausible movement, shape and the inside-the-area answer from PostGIS."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.challenge.domain.claims import (
    DEFAULT_MAX_CLAIM_AGE,
    DEFAULT_MAX_SPEED_MPS,
    MAX_ACCURACY_M,
    AcceptedClaim,
    Claim,
    ClaimPolicy,
    check_accuracy,
    check_freshness,
    check_inside,
    check_plausible_movement,
    validate_claim_shape,
)
from shared.errors import Conflict, InvalidInput

NOW = datetime(2030, 5, 1, 12, 0, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)
DEFAULT_POLICY = ClaimPolicy()


def claim(accuracy_m: float = 10.0, acquired_at: datetime = NOW) -> Claim:
    return Claim(lat=51.5, lon=-0.12, accuracy_m=accuracy_m, acquired_at=acquired_at)


def accepted(accuracy_m: float = 0.0, acquired_at: datetime = NOW) -> AcceptedClaim:
    return AcceptedClaim(lat=51.5, lon=-0.12, accuracy_m=accuracy_m, acquired_at=acquired_at)


# -- accuracy: at most min(150 m, 2 x radius) -------------------------------------------


@pytest.mark.parametrize(
    ("radius_m", "limit"),
    [(50, 100.0), (400, 150.0), (75, 150.0)],
    ids=["radius-50-limit-100", "radius-400-limit-150", "radius-75-limit-150"],
)
def test_accuracy_exactly_at_the_limit_is_accepted(radius_m, limit):
    check_accuracy(claim(accuracy_m=limit), radius_m)


@pytest.mark.parametrize(
    ("radius_m", "limit"),
    [(50, 100.0), (400, 150.0), (75, 150.0)],
    ids=["radius-50-limit-100", "radius-400-limit-150", "radius-75-limit-150"],
)
def test_accuracy_just_above_the_limit_is_refused_with_the_limit_in_details(radius_m, limit):
    just_above = math.nextafter(limit, math.inf)

    with pytest.raises(Conflict) as refused:
        check_accuracy(claim(accuracy_m=just_above), radius_m)

    assert refused.value.code == "location_inaccurate"
    assert refused.value.details == {"maxAccuracyM": limit}


def test_accuracy_limit_never_exceeds_150_m_however_large_the_radius():
    assert MAX_ACCURACY_M == 150.0
    with pytest.raises(Conflict):
        check_accuracy(claim(accuracy_m=150.5), 10_000)


@given(radius_m=st.integers(min_value=1, max_value=10_000), accuracy=st.floats(0, 1_000))
def test_accuracy_is_accepted_exactly_when_within_min_150_and_twice_the_radius(radius_m, accuracy):
    limit = min(150.0, 2.0 * radius_m)
    if accuracy <= limit:
        check_accuracy(claim(accuracy_m=accuracy), radius_m)
    else:
        with pytest.raises(Conflict):
            check_accuracy(claim(accuracy_m=accuracy), radius_m)


# -- freshness: no more than max_age old, never in the future ---------------------------


def test_default_freshness_limit_is_the_rulebooks_120_seconds():
    assert timedelta(seconds=120) == DEFAULT_MAX_CLAIM_AGE
    assert ClaimPolicy().max_age == timedelta(seconds=120)


def test_location_exactly_max_age_old_is_fresh():
    check_freshness(claim(acquired_at=NOW - DEFAULT_MAX_CLAIM_AGE), NOW, DEFAULT_POLICY)


def test_location_acquired_exactly_now_is_fresh():
    check_freshness(claim(acquired_at=NOW), NOW, DEFAULT_POLICY)


def test_location_one_microsecond_older_than_max_age_is_too_old():
    with pytest.raises(Conflict) as refused:
        check_freshness(
            claim(acquired_at=NOW - DEFAULT_MAX_CLAIM_AGE - MICROSECOND), NOW, DEFAULT_POLICY
        )

    assert refused.value.code == "location_too_old"


def test_location_one_microsecond_in_the_future_is_refused():
    with pytest.raises(Conflict) as refused:
        check_freshness(claim(acquired_at=NOW + MICROSECOND), NOW, DEFAULT_POLICY)

    assert refused.value.code == "location_from_the_future"


def test_custom_max_age_is_respected_on_both_sides():
    policy = ClaimPolicy(max_age=timedelta(seconds=30))

    check_freshness(claim(acquired_at=NOW - timedelta(seconds=30)), NOW, policy)
    with pytest.raises(Conflict) as refused:
        check_freshness(claim(acquired_at=NOW - timedelta(seconds=30) - MICROSECOND), NOW, policy)
    assert refused.value.code == "location_too_old"
    # ... and a claim the default would accept is too old under the stricter policy.
    check_freshness(claim(acquired_at=NOW - timedelta(seconds=60)), NOW, DEFAULT_POLICY)
    with pytest.raises(Conflict):
        check_freshness(claim(acquired_at=NOW - timedelta(seconds=60)), NOW, policy)


def test_longer_custom_max_age_accepts_what_the_default_refuses():
    policy = ClaimPolicy(max_age=timedelta(minutes=10))
    old = claim(acquired_at=NOW - timedelta(minutes=5))

    check_freshness(old, NOW, policy)
    with pytest.raises(Conflict):
        check_freshness(old, NOW, DEFAULT_POLICY)


# -- plausible movement --------------------------------------------------------------


def test_no_previous_claim_is_always_plausible():
    check_plausible_movement(claim(), None, None, DEFAULT_POLICY)


def test_no_distance_from_previous_is_treated_as_no_previous():
    check_plausible_movement(claim(), accepted(), None, DEFAULT_POLICY)


def test_claim_older_than_the_previous_accepted_one_is_out_of_order():
    previous = accepted(acquired_at=NOW)

    with pytest.raises(Conflict) as refused:
        check_plausible_movement(
            claim(acquired_at=NOW - MICROSECOND), previous, 0.0, DEFAULT_POLICY
        )

    assert refused.value.code == "location_out_of_order"


def test_same_place_at_the_same_instant_is_plausible():
    check_plausible_movement(claim(accuracy_m=0.0), accepted(), 0.0, DEFAULT_POLICY)


def test_distance_exactly_the_two_accuracy_circles_is_not_movement_even_at_zero_elapsed():
    previous = accepted(accuracy_m=20.0, acquired_at=NOW)

    check_plausible_movement(
        claim(accuracy_m=30.0, acquired_at=NOW), previous, 50.0, DEFAULT_POLICY
    )


def test_distance_just_beyond_the_two_accuracy_circles_at_zero_elapsed_is_implausible():
    previous = accepted(accuracy_m=20.0, acquired_at=NOW)

    with pytest.raises(Conflict) as refused:
        check_plausible_movement(
            claim(accuracy_m=30.0, acquired_at=NOW), previous, 50.5, DEFAULT_POLICY
        )

    assert refused.value.code == "implausible_movement"


@given(
    previous_accuracy=st.floats(0, 500),
    accuracy=st.floats(0, 500),
    fraction=st.floats(0, 1),
    elapsed_us=st.integers(0, 10**9),
)
def test_movement_within_the_accuracy_circles_never_counts(
    previous_accuracy, accuracy, fraction, elapsed_us
):
    previous = accepted(accuracy_m=previous_accuracy, acquired_at=NOW)
    distance = fraction * (previous_accuracy + accuracy)
    later = claim(accuracy_m=accuracy, acquired_at=NOW + timedelta(microseconds=elapsed_us))

    check_plausible_movement(later, previous, distance, DEFAULT_POLICY)


def test_equal_timestamps_with_real_movement_are_implausible():
    previous = accepted(accuracy_m=0.0, acquired_at=NOW)

    with pytest.raises(Conflict) as refused:
        check_plausible_movement(
            claim(accuracy_m=0.0, acquired_at=NOW), previous, 1.0, DEFAULT_POLICY
        )

    assert refused.value.code == "implausible_movement"


def test_default_max_speed_is_300_km_per_hour():
    assert pytest.approx(300_000 / 3600) == DEFAULT_MAX_SPEED_MPS


def test_speed_just_under_the_default_maximum_is_plausible():
    previous = accepted(accuracy_m=0.0, acquired_at=NOW)
    later = claim(accuracy_m=0.0, acquired_at=NOW + timedelta(seconds=60))
    distance = DEFAULT_MAX_SPEED_MPS * 60 * 0.999

    check_plausible_movement(later, previous, distance, DEFAULT_POLICY)


def test_speed_just_over_the_default_maximum_is_implausible():
    previous = accepted(accuracy_m=0.0, acquired_at=NOW)
    later = claim(accuracy_m=0.0, acquired_at=NOW + timedelta(seconds=60))
    distance = DEFAULT_MAX_SPEED_MPS * 60 * 1.001

    with pytest.raises(Conflict) as refused:
        check_plausible_movement(later, previous, distance, DEFAULT_POLICY)

    assert refused.value.code == "implausible_movement"


def test_speed_exactly_at_a_custom_maximum_is_plausible_and_just_over_is_not():
    policy = ClaimPolicy(max_speed_mps=10.0)
    previous = accepted(accuracy_m=0.0, acquired_at=NOW)
    later = claim(accuracy_m=0.0, acquired_at=NOW + timedelta(seconds=10))

    check_plausible_movement(later, previous, 100.0, policy)
    with pytest.raises(Conflict):
        check_plausible_movement(later, previous, 100.001, policy)


def test_accuracy_circles_are_subtracted_before_the_speed_is_computed():
    policy = ClaimPolicy(max_speed_mps=10.0)
    previous = accepted(accuracy_m=25.0, acquired_at=NOW)
    later = claim(accuracy_m=25.0, acquired_at=NOW + timedelta(seconds=10))

    check_plausible_movement(later, previous, 150.0, policy)  # 100 m moved in 10 s
    with pytest.raises(Conflict):
        check_plausible_movement(later, previous, 150.001, policy)


# -- shape --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lat", "lon", "accuracy"),
    [
        (90.0, 180.0, 0.0),
        (-90.0, -180.0, 0.0),
        (0, 0, 0),
        (51.5, -0.12, 1e6),
    ],
)
def test_valid_shapes_including_the_range_boundaries_are_accepted(lat, lon, accuracy):
    validate_claim_shape(lat, lon, accuracy)


@pytest.mark.parametrize(
    ("lat", "lon", "accuracy"),
    [
        (math.nan, 0.0, 10.0),
        (0.0, math.nan, 10.0),
        (0.0, 0.0, math.nan),
        (math.inf, 0.0, 10.0),
        (0.0, -math.inf, 10.0),
        (0.0, 0.0, math.inf),
        (math.nextafter(90.0, math.inf), 0.0, 10.0),
        (math.nextafter(-90.0, -math.inf), 0.0, 10.0),
        (0.0, math.nextafter(180.0, math.inf), 10.0),
        (0.0, math.nextafter(-180.0, -math.inf), 10.0),
        (0.0, 0.0, -1e-9),
        ("51.5", 0.0, 10.0),
        (0.0, None, 10.0),
        (0.0, 0.0, "10"),
        (Decimal("1"), 0.0, 10.0),
        ([1.0], 0.0, 10.0),
    ],
    ids=[
        "nan-lat",
        "nan-lon",
        "nan-accuracy",
        "inf-lat",
        "minus-inf-lon",
        "inf-accuracy",
        "lat-above-90",
        "lat-below-minus-90",
        "lon-above-180",
        "lon-below-minus-180",
        "negative-accuracy",
        "string-lat",
        "none-lon",
        "string-accuracy",
        "decimal-lat",
        "list-lat",
    ],
)
def test_malformed_shapes_are_invalid_locations(lat, lon, accuracy):
    with pytest.raises(InvalidInput) as refused:
        validate_claim_shape(lat, lon, accuracy)

    assert refused.value.code == "invalid_location"


# -- inside the area (decided by PostGIS) -------------------------------------------


def test_inside_the_area_is_accepted_including_its_boundary():
    check_inside(100.0, 100, True)


def test_outside_the_area_is_refused():
    with pytest.raises(Conflict) as refused:
        check_inside(100.4, 100, False)

    assert refused.value.code == "outside_event_area"
