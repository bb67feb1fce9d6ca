"""A deleted account is turned away in the browser (issue 29): signing in again with its
identity stays on the sign-in page, which says the account was deleted and to sign in
with another identity, with no navigation and no session kept; another identity then
signs in; and a tab that kept a session of the deleted account is signed out, with the
same words, by the first call that the API answers ``account_deleted``."""

from __future__ import annotations

import pytest

from services.accounts.deletion import CONFIRMATION_PHRASE
from tests.e2e.web.chronovore_players import named_player
from tests.e2e.web.conftest import run_journey
from tests.helpers import wait_for

pytestmark = [pytest.mark.e2e]


def test_signing_in_with_a_deleted_account_stays_on_the_sign_in_page_and_says_so(
    web_platform, web_api
):
    name, player = named_player(web_api, "web-deleted")
    started = player.call("DELETE", "/me", json={"confirm": CONFIRMATION_PHRASE})
    assert started.status_code == 202, started.text
    wait_for(
        lambda: player.call("GET", "/me/deletion").json()["status"] == "completed", timeout=120
    )
    gone = player.call("GET", "/me")
    assert gone.status_code == 403 and gone.json()["code"] == "account_deleted", gone.text

    run_journey("deleted_sign_in", web_platform, name, player.token)
