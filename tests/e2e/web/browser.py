"""What every browser journey shares: the phone-sized page, signing in by name and role,
and the screenshots for docs/client.md.

Elements are found by role and label, as a person with a screen reader finds them; every
wait is on what the page shows (``expect``, bounded generously for a loaded machine),
never a sleep.
"""

from __future__ import annotations

import os
import re

from playwright.sync_api import Browser, Locator, Page, expect

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 390, "height": 844}
TRAFALGAR_SQUARE = {"latitude": 51.5080, "longitude": -0.1281, "accuracy": 10}  # demo content
expect.set_options(timeout=20_000)  # a wait on what the page shows, bounded, never a sleep

PAGES: list[tuple[Page, list[str]]] = []  # every page opened and its console, for a failure


def shot(page: Page, name: str, of: Locator | None = None) -> None:
    """``SCREENSHOTS_DIR/<name>.png``, what the phone's screen shows, when that variable
    names a folder (``SCREENSHOTS_DIR=docs/client make test-browser`` refreshes the
    pictures of docs/client.md); nothing otherwise, so a test run leaves the tree alone.
    The screen's own heading is scrolled to the top first (a phone shows the screen, not
    the navigation above it), or ``of``, the part the picture is about, to the middle."""
    folder = os.environ.get("SCREENSHOTS_DIR")
    if not folder:
        return
    os.makedirs(folder, exist_ok=True)
    heading = page.get_by_role("heading", level=1)
    if of is not None:
        of.evaluate("element => element.scrollIntoView({block: 'center'})")
    elif heading.count() == 1:
        heading.evaluate("element => element.scrollIntoView({block: 'start'})")
    path = os.path.join(folder, f"{name}.png")
    page.screenshot(path=path, animations="disabled")
    smaller(path)


def smaller(path: str) -> None:
    """The PNG in 64 colours without dithering: a third of the bytes, the text as crisp
    (a page is a few flat colours). Pillow is in the dev environment (matplotlib's)."""
    from PIL import Image  # only when screenshots are taken

    with Image.open(path) as taken:
        fewer = taken.convert("RGB").quantize(colors=64, dither=Image.Dither.NONE)
    fewer.save(path, optimize=True)


def sign_in(page: Page, name: str, role: str = "Player") -> None:
    """The development sign-in page: ``name`` (subject ``dev|<name>``) as ``role``."""
    expect(page.get_by_role("heading", name="Sign in", level=1)).to_be_visible()
    page.get_by_label("Name").fill(name)
    page.get_by_role("radio", name=re.compile(f"^{role}")).check()
    page.get_by_role("button", name=f"Sign in as {name}").click()


def signed_in_at(page: Page, url: str, screen: str, name: str, role: str = "Player") -> None:
    """``name`` (a player the test prepared) signed in on the page at ``screen``."""
    page.goto(url + screen)
    sign_in(page, name, role)


def new_page(browser: Browser) -> Page:
    """A phone-sized page in a context of its own (its own sign-in), its console kept."""
    context = browser.new_context(
        viewport=PHONE,
        locale="en-GB",
        geolocation=TRAFALGAR_SQUARE,
        permissions=["geolocation"],
    )
    context.set_default_timeout(20_000)
    page = context.new_page()
    console: list[str] = []
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    PAGES.append((page, console))
    return page
