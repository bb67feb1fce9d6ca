"""Chronovore's rules as pure code (rules/chronovore.txt): no I/O, no clock, no global random.

Rooms (docs/STYLE "The games"): ``content`` (kinds, classes and their play styles,
rarities and copy limits, keywords and their definitions), ``cards`` (cards as data and
the one validator of their rewards), ``decks`` (legality), ``state``, ``actions``,
``rules`` (lock-in legality), ``hero`` (a hero's arithmetic), ``resolve`` (pairs, the
duel), ``engine`` (start, apply, time out, replay), ``view`` (what one seat may see),
``cpu`` (the computer's seat), ``game`` (``CHRONOVORE``, the kit's engine protocol),
``collection`` (rules for the cards service), ``balance`` (seeded simulations).
docs/chronovore.md maps the rulebook to these modules and lists what is ours.
"""

from games.chronovore.actions import Action, ActionKind
from games.chronovore.cards import Card, Reward, RewardType, card_from_definition
from games.chronovore.game import CHRONOVORE, CHRONOVORE_CPU
from games.chronovore.state import MatchState, Phase, Result, Settings

__all__ = [
    "CHRONOVORE",
    "CHRONOVORE_CPU",
    "Action",
    "ActionKind",
    "Card",
    "MatchState",
    "Phase",
    "Result",
    "Reward",
    "RewardType",
    "Settings",
    "card_from_definition",
]
