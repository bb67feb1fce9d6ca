"""A player deletes their account in the browser: the confirmation sentence typed, the
deletion refused for a sign-in that is not recent (a token refreshed an hour after its
login) with an offer to sign in again, then, signed in afresh, the deletion followed to
its end and the player signed out with a sentence that says the account is gone.

And a deleted account is turned away: signing in with its identity stays on the sign-in
page, which says why and what to do (sign in with another identity), with none of the
signed-in navigation; a tab that kept a session of it is signed out on its first call."""

from __future__ import annotations

import base64
import json
import re

from playwright.sync_api import Browser, Page, expect

from tests.e2e.web.browser import new_page, shot, sign_in

CONFIRMATION = "DELETE MY ACCOUNT"
DELETED_NOTICE = re.compile("^This account was deleted: .* sign in with another identity")


def claims_of(token: str) -> dict[str, object]:
    payload = token.split(".")[1]
    claims: dict[str, object] = json.loads(
        base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    )
    return claims


def resume_session(page: Page, url: str, name: str, token: str) -> None:
    """The page as a tab that signed in as ``name`` long ago and kept its session (the
    session the client keeps in sessionStorage, with ``token``)."""
    page.goto(url)
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    kept = {
        "token": token,
        "sub": f"dev|{name}",
        "roles": [],
        "expiresAt": claims_of(token)["exp"],
        "via": "dev",
    }
    page.evaluate(
        "([key, value]) => sessionStorage.setItem(key, value)",
        ["deckyard.session", json.dumps(kept)],
    )
    page.goto(url + "#/profile")
    page.reload()


def confirm_and_delete(page: Page) -> None:
    button = page.get_by_role("button", name="Delete my account")
    confirmation = page.get_by_label(f"Type {CONFIRMATION} to confirm")
    confirmation.fill(CONFIRMATION.lower())
    expect(button).to_be_disabled()
    confirmation.fill(CONFIRMATION)
    expect(button).to_be_enabled()
    button.click()


def account_deletion(browser: Browser, url: str, args: list[str]) -> None:
    """``args``: the player's name and a token of theirs whose login is an hour old."""
    name, stale_token = args
    page = new_page(browser)
    resume_session(page, url, name, stale_token)
    expect(page.get_by_role("heading", name="Profile", level=1)).to_be_visible()
    expect(page.get_by_text(f"dev|{name}", exact=True)).to_be_visible()
    shot(page, "profile")

    confirm_and_delete(page)
    refusal = page.get_by_role("alert")
    expect(refusal).to_contain_text("Deleting the account needs a recent sign-in")
    expect(refusal).to_contain_text("reauthentication_required")
    page.get_by_role("button", name="Sign in again").click()

    sign_in(page, name)
    expect(page.get_by_role("heading", name="Profile", level=1)).to_be_visible()
    confirm_and_delete(page)
    expect(
        page.get_by_role("status").filter(has_text=re.compile("^Your account is locked"))
    ).to_be_visible()
    shot(page, "profile-deleting")

    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible(timeout=180_000)
    expect(page.get_by_role("status")).to_have_text(
        re.compile("^Your account has been deleted: your cards, decks, matches and sign-in")
    )
    shot(page, "signed-out-deleted")


def turned_away_as_deleted(page: Page) -> None:
    """The sign-in page saying the account was deleted; no screen, no navigation, no
    session kept in the tab."""
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    expect(page.get_by_role("status").filter(has_text=DELETED_NOTICE)).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_have_count(0)
    expect(page.get_by_role("link", name="Profile")).to_have_count(0)
    expect(page.get_by_role("heading", name="Quest", level=1)).to_have_count(0)
    assert page.evaluate("() => sessionStorage.getItem('deckyard.session')") is None


def deleted_sign_in(browser: Browser, url: str, args: list[str]) -> None:
    """``args``: the name of a player whose account the test deleted and a token of
    theirs from before the deletion (a tab that kept its session)."""
    name, kept_token = args
    page = new_page(browser)
    page.goto(url)
    sign_in(page, name)
    turned_away_as_deleted(page)
    shot(page, "signed-in-deleted")

    # What the page says to do works: another identity signs in.
    sign_in(page, f"{name}-again")
    expect(page.get_by_role("navigation", name="Main")).to_be_visible()
    expect(page.get_by_text("Welcome! Your account was just created.")).to_be_visible()

    # A tab that still holds the deleted account's session: its first call ends it.
    kept = new_page(browser)
    resume_session(kept, url, name, kept_token)
    turned_away_as_deleted(kept)
