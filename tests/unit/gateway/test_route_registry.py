"""The gateway's routes are read class by class, and a clash refuses to start.

``Gateway`` is one class of route mixins: were its routes read by name from the combined
class, a handler name in two mixins would be one attribute and the other route silently
gone (the first mixin's would answer both paths, or the second's never).
"""

from __future__ import annotations

from typing import Any

import pytest
from starlette.requests import Request

from gateway.app import Gateway
from gateway.http import RouteClash, RouteDoc, api, internal, routes_of
from shared.config import load_settings
from tests.unit.gateway.test_asgi import call

SETTINGS = {
    "DATABASE_URL": "postgresql://u:p@db/postgres",
    "AMQP_URI": "amqp://u:p@mq/",
    "DEV_AUTH": "1",
}


class ShelfRoutes:
    @api("GET", "/shelves", RouteDoc("Shelves"))
    async def list_things(self, request: Request) -> Any:
        return "shelves"


class BoxRoutes:
    @api("GET", "/boxes", RouteDoc("Boxes"))
    async def list_things(self, request: Request) -> Any:
        return "boxes"


class OtherShelfRoutes:
    @api("GET", "/shelves/<uuid:shelf_id>", RouteDoc("One shelf"))
    async def get_shelf(self, request: Request) -> Any:
        return "shelf"

    @api("GET", "/shelves", RouteDoc("Shelves again"))
    async def list_shelves(self, request: Request) -> Any:
        return "shelves again"


class AnotherShelfRoutes:
    @api("GET", "/shelves/<uuid:id>", RouteDoc("One shelf, by another name"))
    async def get_one_shelf(self, request: Request) -> Any:
        return "shelf"


class HelperNamedLikeARoute:
    async def list_things(self, request: Request) -> Any:  # not a route, same name
        return "helper"


def test_two_mixins_with_one_handler_name_are_refused_naming_both():
    class Combined(ShelfRoutes, BoxRoutes):
        pass

    with pytest.raises(RouteClash) as refused:
        routes_of(Combined)
    assert "ShelfRoutes.list_things" in str(refused.value)
    assert "BoxRoutes.list_things" in str(refused.value)


def test_a_route_handler_shadowed_by_another_class_s_method_is_refused():
    class Combined(HelperNamedLikeARoute, ShelfRoutes):
        pass

    with pytest.raises(RouteClash, match=r"HelperNamedLikeARoute\.list_things"):
        routes_of(Combined)


def test_one_method_and_path_twice_is_refused_naming_both():
    class Combined(ShelfRoutes, OtherShelfRoutes):
        pass

    with pytest.raises(RouteClash) as refused:
        routes_of(Combined)
    message = str(refused.value)
    assert "ShelfRoutes.list_things" in message and "OtherShelfRoutes.list_shelves" in message
    assert "GET /shelves" in message


def test_paths_that_differ_only_in_a_variable_s_name_are_one_path():
    class Combined(OtherShelfRoutes, AnotherShelfRoutes):
        pass

    with pytest.raises(RouteClash, match=r"get_shelf and .*get_one_shelf"):
        routes_of(Combined)


def test_one_path_on_each_port_is_no_clash_and_every_route_is_kept():
    class StatusRoutes:
        @internal("GET", "/shelves", RouteDoc("Shelves, for operators"))
        async def shelves_status(self, request: Request) -> Any:
            return "status"

    class Combined(ShelfRoutes, StatusRoutes):
        pass

    found = routes_of(Combined)
    assert [(name, route.internal) for name, route in found] == [
        ("list_things", False),
        ("shelves_status", True),
    ]


def test_a_gateway_with_a_second_handler_of_one_name_refuses_to_start():
    class SecondMe:
        @api("GET", "/me/again", RouteDoc("The caller, again", auth="player"))
        async def me(self, request: Request) -> Any:
            return {"id": "not the accounts service's"}

    class Clashing(Gateway, SecondMe):
        pass

    with pytest.raises(RouteClash) as refused:
        Clashing(load_settings(SETTINGS))
    message = str(refused.value)
    assert "gateway.routes.accounts.AccountRoutes.me" in message
    assert "SecondMe.me" in message


def test_a_gateway_with_a_second_route_of_one_method_and_path_refuses_to_start():
    class SecondHealth:
        @api("GET", "/health", RouteDoc("Liveness, answered twice"))
        async def health_again(self, request: Request) -> Any:
            return {"status": "elsewhere"}

    class Clashing(Gateway, SecondHealth):
        pass

    with pytest.raises(RouteClash) as refused:
        Clashing(load_settings(SETTINGS))
    message = str(refused.value)
    assert "gateway.routes.platform.PlatformRoutes.health" in message
    assert "SecondHealth.health_again" in message and "GET /health" in message


def test_the_gateway_starts_and_each_route_answers_from_its_own_class():
    gateway = Gateway(load_settings(SETTINGS))
    gateway.health = "an attribute of the instance"  # type: ignore[method-assign,assignment]
    status, _, body = call(gateway.api_app(), "GET", "/health")
    assert (status, body) == (200, b'{"status":"alive"}')
