"""accounts registers a player and, through the outbox, cards creates the collection."""

import uuid

import pytest

from shared.errors import InvalidInput, NotFound
from tests.helpers import collection_of, wait_for
from tests.random_refs import random_sub

pytestmark = pytest.mark.integration


def test_first_me_registers_and_cards_creates_the_collection(start_service, rpc):
    start_service("accounts")
    start_service("cards")
    sub = random_sub()

    first = rpc.accounts.me(sub=sub)
    assert first["registered_now"] is True
    assert first["status"] == "active"

    collection = wait_for(lambda: collection_of(rpc, first["id"]))
    assert collection["player_id"] == first["id"]

    second = rpc.accounts.me(sub=sub)
    assert second["registered_now"] is False
    assert second["id"] == first["id"]


def test_unknown_collection_is_a_not_found_error_of_the_real_class(start_service, rpc):
    start_service("cards")
    with pytest.raises(NotFound) as caught:
        rpc.cards.get_collection(player_id=str(uuid.uuid4()))
    assert caught.value.code == "collection_not_found"


def test_blank_subject_is_refused_with_invalid_input(start_service, rpc):
    start_service("accounts")
    with pytest.raises(InvalidInput) as caught:
        rpc.accounts.me(sub="   ")
    assert caught.value.code in ("invalid_subject", "validation_failed")
