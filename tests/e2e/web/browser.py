"""What every browser journey shares: the phone-sized touch page, signing in by name and
role, the check that a screen fits a phone's width, and the screenshots for docs/client.md.

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
# The phones every screen must fit without sideways scrolling (issue 30): a small Android
# and a common iPhone, both portrait.
PHONES = ({"width": 360, "height": 740}, {"width": 390, "height": 844})
TRAFALGAR_SQUARE = {"latitude": 51.5080, "longitude": -0.1281, "accuracy": 10}  # demo content
expect.set_options(timeout=20_000)  # a wait on what the page shows, bounded, never a sleep

PAGES: list[tuple[Page, list[str]]] = []  # every page opened and its console, for a failure


# What sticks out of the page's width, as a person would see it: the page itself scrolling
# sideways, an element whose right edge is past the viewport's (unless an ancestor clips or
# scrolls it), or a box of its own that scrolls sideways. Each as a line of words.
_OVERFLOW = """limit => {
  const found = [];
  const root = document.documentElement;
  if (root.scrollWidth > limit) found.push(`the page is ${root.scrollWidth} px wide`);
  const named = (el) => {
    const label =
      el.getAttribute("aria-label") || el.id || (el.className && String(el.className)) || "";
    const text = (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    return `<${el.tagName.toLowerCase()}${label ? ` "${label}"` : ""}>${text ? ` "${text}"` : ""}`;
  };
  const inside = (el) => {
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== "visible") return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden") continue;
    if (box.right > limit + 1 && !inside(el)) {
      found.push(`${named(el)} reaches ${Math.round(box.right)} px`);
    } else if (
      ["auto", "scroll"].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1
    ) {
      found.push(`${named(el)} scrolls sideways (${el.scrollWidth} px in ${el.clientWidth})`);
    }
    if (found.length >= 6) break;
  }
  return found;
}"""


def fits_phones(page: Page, name: str) -> None:
    """The screen on ``page`` fits each of PHONES without sideways scrolling: the page no
    wider than the viewport and no element reaching past it. The page is shown at each
    size in turn (the layout follows at once: CSS alone decides it), then at its own."""
    own = page.viewport_size
    problems = []
    try:
        for phone in PHONES:
            page.set_viewport_size(phone)
            limit = min(phone["width"], page.evaluate("window.innerWidth"))
            for problem in page.evaluate(_OVERFLOW, limit):
                problems.append(f"{phone['width']}x{phone['height']}: {problem}")
    finally:
        if own is not None:
            page.set_viewport_size(own)
    assert not problems, f"the {name} screen does not fit a phone:\n" + "\n".join(problems)


def shot(page: Page, name: str, of: Locator | None = None) -> None:
    """The screen on ``page`` checked to fit every phone of PHONES (fits_phones), then
    ``SCREENSHOTS_DIR/<name>.png``, what the phone's screen shows, when that variable
    names a folder (``SCREENSHOTS_DIR=docs/client make test-browser`` refreshes the
    pictures of docs/client.md); nothing otherwise, so a test run leaves the tree alone.
    The screen's own heading is scrolled to the top first (a phone shows the screen, not
    the navigation above it), or ``of``, the part the picture is about, to the middle."""
    fits_phones(page, name)
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
    """A phone's page in a context of its own (its own sign-in), its console kept: phone
    sized, with a touch screen (``tap``; no hover), as most players hold the client."""
    context = browser.new_context(
        viewport=PHONE,
        has_touch=True,
        is_mobile=True,
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
