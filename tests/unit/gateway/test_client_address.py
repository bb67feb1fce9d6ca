"""The client address through trusted proxies (gateway/clientaddress.py).

The rule under test: with N trusted proxies only the N-th entry from the right of
the configured header is read; anything a client wrote, left of it or in the
other header, is never believed, and whatever cannot be read gives the peer.
"""

import ipaddress

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gateway.clientaddress import ClientAddresses, ip_of_forwarded, ip_of_node

PEER = "10.1.2.3"  # the ingress pod, as the socket sees it


def environ(x_forwarded_for=None, forwarded=None):
    env = {"REMOTE_ADDR": PEER}
    if x_forwarded_for is not None:
        env["HTTP_X_FORWARDED_FOR"] = x_forwarded_for
    if forwarded is not None:
        env["HTTP_FORWARDED"] = forwarded
    return env


XFF = ClientAddresses(hops=1)
FWD = ClientAddresses(hops=1, header="Forwarded")


def test_without_trusted_hops_the_peer_is_the_client_whatever_the_headers_say():
    none = ClientAddresses()
    assert none.of(environ("203.0.113.7", "for=203.0.113.8")) == PEER
    assert none.of({}) == "unknown"


@pytest.mark.parametrize(
    ("header", "hops", "client"),
    [
        ("203.0.113.7", 1, "203.0.113.7"),
        ("198.51.100.1, 203.0.113.7", 1, "203.0.113.7"),  # the left one is the client's word
        ("198.51.100.1,203.0.113.7", 2, "198.51.100.1"),
        ("192.0.2.1, 198.51.100.1, 203.0.113.7", 2, "198.51.100.1"),
        ("203.0.113.7", 2, PEER),  # fewer entries than proxies: the peer
        ("", 1, PEER),
        ("203.0.113.7,", 1, PEER),  # the last proxy wrote nothing usable
        ("203.0.113.7, unknown", 1, PEER),
        ("203.0.113.7, 999.1.1.1", 1, PEER),
        ("203.0.113.7, 010.1.1.1", 1, PEER),  # leading zeros: octal to some, refused
        ("203.0.113.7, _hidden", 1, PEER),
        ("anything at all, 2001:DB8::1", 1, "2001:db8::1"),  # normalised
        ("x, [2001:db8::1]:4711", 1, "2001:db8::1"),
        ("x, 203.0.113.7:4711", 1, "203.0.113.7"),
        ('"unbalanced, 203.0.113.7', 1, "203.0.113.7"),
    ],
)
def test_x_forwarded_for_is_read_only_as_far_as_the_trusted_hops(header, hops, client):
    assert ClientAddresses(hops=hops).of(environ(header)) == client


def test_the_header_on_several_lines_is_one_list_in_order():
    # eventlet joins repeated header lines with commas, in the order they came.
    assert XFF.of(environ("198.51.100.1,203.0.113.7")) == "203.0.113.7"


@pytest.mark.parametrize(
    ("header", "hops", "client"),
    [
        ("for=203.0.113.7", 1, "203.0.113.7"),
        ("for=192.0.2.1, for=203.0.113.7;proto=https;by=10.0.0.1", 1, "203.0.113.7"),
        ('for="[2001:db8:cafe::17]:4711"', 1, "2001:db8:cafe::17"),
        ('For="203.0.113.7:80"', 1, "203.0.113.7"),
        ("proto=https;for=203.0.113.7", 1, "203.0.113.7"),
        ("for=192.0.2.1, for=203.0.113.7", 2, "192.0.2.1"),
        ("for=unknown", 1, PEER),
        ("for=_hidden", 1, PEER),
        ("proto=https", 1, PEER),  # an element without for=
        ("for=203.0.113.7", 2, PEER),
        # A client's unclosed quote cannot swallow the proxy's element.
        ('for="[2001:db8::1, for=203.0.113.7', 1, "203.0.113.7"),
    ],
)
def test_forwarded_is_read_only_as_far_as_the_trusted_hops(header, hops, client):
    assert ClientAddresses(hops=hops, header="Forwarded").of(environ(forwarded=header)) == client


def test_only_the_configured_header_is_read():
    assert XFF.of(environ(forwarded="for=203.0.113.7")) == PEER
    assert FWD.of(environ(x_forwarded_for="203.0.113.7")) == PEER
    assert FWD.of(environ("192.0.2.99", "for=203.0.113.7")) == "203.0.113.7"


@given(client_part=st.text(), hops=st.integers(min_value=1, max_value=3))
def test_nothing_a_client_writes_moves_its_address(client_part, hops):
    """Whatever the client sends, the proxies' own entries decide (or the peer does)."""
    ours = ["192.0.2.10", "192.0.2.20", "192.0.2.30"][-hops:]
    header = ", ".join([client_part, *ours])
    assert ClientAddresses(hops=hops).of(environ(header)) == ours[0]
    elements = ", ".join([client_part, *(f"for={a}" for a in ours)])
    assert ClientAddresses(hops=hops, header="Forwarded").of(environ(forwarded=elements)) == ours[0]


@given(st.text())
def test_any_entry_reads_as_an_ip_address_or_as_nothing(entry):
    for found in (ip_of_node(entry), ip_of_forwarded(entry)):
        assert found is None or str(ipaddress.ip_address(found)) == found


def test_hops_and_header_are_checked():
    with pytest.raises(ValueError):
        ClientAddresses(hops=-1)
    with pytest.raises(ValueError):
        ClientAddresses(hops=1, header="X-Real-IP")
