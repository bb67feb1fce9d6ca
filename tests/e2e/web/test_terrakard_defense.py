"""TerraKard's defense reports, replays and victory packs in real browsers on the real
stack: a defender with an active plan is attacked (played over the API, battle on a clock
moved past the new players' protection) by a deck that beats the plan on every terrain
(proven through the pure engine first, terrakard_victory.py); the defender reads the
report and watches the attack round by round; the attacker finds it among their attacks,
watches it again from their seat, and opens the victory pack the game granted for it."""

from __future__ import annotations

import pytest

from tests.e2e.platform.test_authorization_matrix import insert_terrakard_cards
from tests.e2e.terrakard.support import next_clock
from tests.e2e.web import terrakard_players
from tests.e2e.web.conftest import run_journey

pytestmark = [pytest.mark.e2e, pytest.mark.browser_full]


@pytest.fixture
def battle_clock():
    """Battle's time, moved by the test: new players cannot be attacked for three days."""
    return next_clock()


def test_a_defender_reads_the_report_and_the_attacker_opens_the_victory_pack(
    web_platform, web_api, settings, battle_clock
):
    insert_terrakard_cards(settings)
    # A victory pack can hold any rarity up to Legendary: opening one needs each published.
    insert_terrakard_cards(settings, ("Rare", "Epic", "Legendary"))
    defender, defender_api, attacker, attacker_api, deck = terrakard_players.with_a_certain_victory(
        web_api, "web-tk-attacker", "web-tk-defender"
    )
    battle_clock.advance(days=3)  # past the new players' protection
    attack = terrakard_players.attack_to_the_end(attacker_api, deck, defender_api)
    result = attacker_api.ok("GET", f"/terrakard/attacks/{attack}")["result"]
    assert result["winner"] == "attacker" and result["stars"] >= 1, result
    pack = terrakard_players.victory_pack(attacker_api)
    run_journey(
        "terrakard_defense",
        web_platform,
        defender,
        terrakard_players.pseudonym_of(defender_api),
        attacker,
        terrakard_players.pseudonym_of(attacker_api),
        pack["name"],
    )
