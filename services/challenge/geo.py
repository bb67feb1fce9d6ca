"""Points on the earth, as PostGIS geography wants them."""

from geoalchemy2.elements import WKTElement


def point(lat: float, lon: float) -> WKTElement:
    """A geography point (SRID 4326); WKT puts longitude first."""
    return WKTElement(f"POINT({lon} {lat})", srid=4326)
