"""TerraKard's defense reports and replays in real browsers on the real stack: a defender
with an active plan is attacked (played over the API, battle on a clock moved past the
new players' protection); the defender reads the report and watches the attack round by
round; the attacker finds it among their attacks and watches it again from their seat."""

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


def test_a_defender_reads_the_report_and_both_sides_watch_the_attack_again(
    web_platform, web_api, settings, battle_clock
):
    insert_terrakard_cards(settings)
    defender, defender_api = terrakard_players.with_plan(web_api, "web-tk-defender")
    attacker, attacker_api, _, deck = terrakard_players.with_deck(web_api, "web-tk-attacker")
    battle_clock.advance(days=3)  # past the new players' protection
    terrakard_players.attack_to_the_end(attacker_api, deck, defender_api)
    run_journey(
        "terrakard_defense",
        web_platform,
        defender,
        terrakard_players.pseudonym_of(defender_api),
        attacker,
        terrakard_players.pseudonym_of(attacker_api),
    )
