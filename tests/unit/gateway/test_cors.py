"""CORS decisions: only the configured origins, exactly; nothing when none is."""

from __future__ import annotations

import pytest

from gateway.cors import ALLOWED_HEADERS, MAX_AGE_SECONDS, CorsPolicy
from shared.config import ConfigError, load_settings

APP = "https://play.deckyard.example.com"
POLICY = CorsPolicy.of([APP, "http://localhost:5173"])


def test_a_preflight_from_an_allowed_origin_lists_the_methods_and_headers():
    headers = POLICY.preflight_headers(APP, ["GET", "HEAD", "PUT", "OPTIONS"])

    assert headers == {
        "Access-Control-Allow-Origin": APP,
        "Access-Control-Allow-Methods": "GET, HEAD, PUT",
        "Access-Control-Allow-Headers": ", ".join(ALLOWED_HEADERS),
        "Access-Control-Max-Age": str(MAX_AGE_SECONDS),
        "Vary": "Origin",
    }
    api_headers = {"Authorization", "Content-Type", "Idempotency-Key", "X-Request-ID"}
    trace_context = {"traceparent", "tracestate", "baggage"}  # W3C, from a traced page
    assert set(ALLOWED_HEADERS) == api_headers | trace_context


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example.com",
        "https://play.deckyard.example.com.evil.example.com",
        "http://play.deckyard.example.com",  # another scheme is another origin
        "https://play.deckyard.example.com:8443",
        "null",
        "*",
    ],
)
def test_any_other_origin_is_refused_and_gets_no_cors_header(origin):
    assert POLICY.preflight_headers(origin, ["GET"]) is None
    assert POLICY.response_headers(origin) == {"Vary": "Origin"}


def test_an_answer_to_an_allowed_origin_names_that_origin_never_a_wildcard():
    headers = POLICY.response_headers("http://localhost:5173")

    assert headers["Access-Control-Allow-Origin"] == "http://localhost:5173"
    assert headers["Vary"] == "Origin"
    assert "Retry-After" in headers["Access-Control-Expose-Headers"]


def test_without_configured_origins_nothing_is_added_and_every_preflight_refused():
    off = CorsPolicy.of([])

    assert not off.enabled
    assert off.response_headers(APP) == {}
    assert off.preflight_headers(APP, ["GET"]) is None


def test_a_preflight_is_an_options_request_with_origin_and_requested_method():
    assert CorsPolicy.is_preflight("OPTIONS", APP, "POST")
    assert not CorsPolicy.is_preflight("OPTIONS", None, "POST")
    assert not CorsPolicy.is_preflight("OPTIONS", APP, None)
    assert not CorsPolicy.is_preflight("GET", APP, "POST")


def test_cors_origins_setting_is_a_comma_separated_list_of_exact_origins():
    settings = load_settings({"CORS_ORIGINS": f" {APP}, http://localhost:5173 "})

    assert settings.cors_origins == (APP, "http://localhost:5173")
    assert load_settings({}).cors_origins == ()


@pytest.mark.parametrize(
    "bad", ["*", "play.deckyard.example.com", "https://x.example/app", "ftp://x"]
)
def test_cors_origins_refuses_what_is_not_an_origin(bad):
    with pytest.raises(ConfigError, match="CORS_ORIGINS"):
        load_settings({"CORS_ORIGINS": bad})


def test_api_servers_setting_defaults_to_the_version_on_the_serving_host():
    assert load_settings({}).api_servers == ("/v1",)
    servers = load_settings({"API_SERVERS": "https://api.example.com, https://b.example.com"})
    assert servers.api_servers == ("https://api.example.com", "https://b.example.com")
