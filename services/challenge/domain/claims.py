"""Whether a reported location may start an attempt (rulebook: "Eligibility").

Distance to the event is decided by PostGIS (the repository passes the
answer in); everything else about the claim is decided here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from shared.errors import Conflict, InvalidInput

MAX_ACCURACY_M = 150.0  # rulebook: accuracy no greater than min(150 m, 2 x radius)
# Rulebook: "no more than 120 seconds old"; it calls the limit provisional, so it is
# a setting (CLAIM_MAX_AGE_SECONDS) with this default.
DEFAULT_MAX_CLAIM_AGE = timedelta(seconds=120)
# Ours: 300 km/h. Faster than any car on a public road or a regional train, slower than
# nothing a player could really be on between two events (high-speed trains peak around
# 300-320 km/h; flights are not a way to walk to an event). Reports within each other's
# accuracy circles never count as movement.
DEFAULT_MAX_SPEED_MPS = 300_000 / 3600


@dataclass(frozen=True)
class Claim:
    lat: float
    lon: float
    accuracy_m: float
    acquired_at: datetime


@dataclass(frozen=True)
class AcceptedClaim:
    lat: float
    lon: float
    accuracy_m: float
    acquired_at: datetime


@dataclass(frozen=True)
class ClaimPolicy:
    max_age: timedelta = DEFAULT_MAX_CLAIM_AGE
    max_speed_mps: float = DEFAULT_MAX_SPEED_MPS


def validate_claim_shape(lat: float, lon: float, accuracy_m: float) -> None:
    numbers = (lat, lon, accuracy_m)
    if not all(isinstance(n, int | float) and math.isfinite(n) for n in numbers):
        raise InvalidInput("invalid_location", "latitude, longitude and accuracy must be numbers")
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise InvalidInput("invalid_location", "latitude or longitude is out of range")
    if accuracy_m < 0:
        raise InvalidInput("invalid_location", "accuracy cannot be negative")


def check_accuracy(claim: Claim, radius_m: int) -> None:
    limit = min(MAX_ACCURACY_M, 2.0 * radius_m)
    if claim.accuracy_m > limit:
        raise Conflict(
            "location_inaccurate",
            f"the location is accurate to {claim.accuracy_m:g} m; this event needs {limit:g} m "
            "or better",
            {"maxAccuracyM": limit},
        )


def check_freshness(claim: Claim, now: datetime, policy: ClaimPolicy) -> None:
    if claim.acquired_at > now:
        raise Conflict("location_from_the_future", "the location was acquired after now")
    if now - claim.acquired_at > policy.max_age:
        raise Conflict(
            "location_too_old",
            f"the location is more than {policy.max_age.total_seconds():g} s old; "
            "acquire a fresh one",
        )


def check_plausible_movement(
    claim: Claim,
    previous: AcceptedClaim | None,
    distance_from_previous_m: float | None,
    policy: ClaimPolicy,
) -> None:
    """Compare with the player's previous accepted claim (distance from PostGIS)."""
    if previous is None or distance_from_previous_m is None:
        return
    if claim.acquired_at < previous.acquired_at:
        raise Conflict("location_out_of_order", "this location is older than one already accepted")
    moved = max(0.0, distance_from_previous_m - claim.accuracy_m - previous.accuracy_m)
    if moved == 0.0:
        return
    seconds = (claim.acquired_at - previous.acquired_at).total_seconds()
    if seconds <= 0 or moved / seconds > policy.max_speed_mps:
        raise Conflict(
            "implausible_movement",
            "the location is too far from your previous one for the time between them",
        )


def check_inside(distance_m: float, radius_m: int, inside: bool) -> None:
    if not inside:
        raise Conflict(
            "outside_event_area",
            f"you are about {distance_m:.0f} m from the event's centre; its area has a "
            f"{radius_m} m radius",
        )
