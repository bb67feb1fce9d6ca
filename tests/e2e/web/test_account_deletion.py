"""A player deletes their account in a real browser on the real stack: the confirmation
typed, a sign-in an hour old refused (sign in again offered), then deleted after signing
in afresh, followed to completion and signed out; the API then refuses the account."""

from __future__ import annotations

import time

import pytest

from tests.e2e.web.chronovore_players import named_player
from tests.e2e.web.conftest import run_journey

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


def test_a_player_deletes_the_account_after_signing_in_again_and_is_signed_out(
    web_platform, web_api
):
    name, _ = named_player(web_api, "web-leaving")
    an_hour_ago = int(time.time()) - 3600  # the token was refreshed since; the login was not
    stale = web_api.token(f"dev|{name}", extra_claims={"auth_time": an_hour_ago})
    run_journey("account_deletion", web_platform, name, stale)

    deletion = web_api.get("/me/deletion", token=stale)
    assert deletion.status_code == 200 and deletion.json()["status"] == "completed", deletion.text
    gone = web_api.get("/me", token=web_api.token(f"dev|{name}"))
    assert gone.status_code == 403 and gone.json()["code"] == "account_deleted", gone.text
