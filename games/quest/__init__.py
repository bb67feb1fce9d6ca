"""Quest's rules as pure code: no I/O, no clock, no global random.

Rooms (docs/STYLE "The games"): ``state`` (the match and its JSON dict),
``actions`` (what a side asks for), ``rules`` (legality), ``effects`` (the
effect interpreter), ``turns`` (end of turn, defeat, replacement, victory),
``view`` (what one side may see), ``cpu`` (the CPU deck and policy),
``cards``/``vocabulary``/``validation`` (card snapshots, the effect vocabulary
and its one validator), ``matchup`` (affinity tables), ``game`` (``QUEST``,
the engine protocol of games/kit). Outside a match: ``content`` (kinds,
affinities, rarities), ``decks``, ``rewards``, ``starter``, ``points``.
docs/architecture.md maps each section of rules/quest.txt to its module.
"""

from games.quest.actions import Action, ActionKind
from games.quest.cards import (
    CreatureCard,
    Move,
    PowerCard,
    creature_from_definition,
    power_card_from_definition,
)
from games.quest.cpu import cpu_action
from games.quest.engine import (
    Deck,
    LogEntry,
    Settings,
    apply,
    expire,
    new_match,
    overdue,
    replay,
)
from games.quest.errors import IllegalAction, RefusalCode
from games.quest.game import QUEST
from games.quest.rules import legal_actions
from games.quest.state import FinishReason, MatchState, Phase, Side
from games.quest.view import view, view_events

__all__ = [
    "QUEST",
    "Action",
    "ActionKind",
    "CreatureCard",
    "Deck",
    "FinishReason",
    "IllegalAction",
    "LogEntry",
    "MatchState",
    "Move",
    "Phase",
    "PowerCard",
    "RefusalCode",
    "Settings",
    "Side",
    "apply",
    "cpu_action",
    "creature_from_definition",
    "expire",
    "legal_actions",
    "new_match",
    "overdue",
    "power_card_from_definition",
    "replay",
    "view",
    "view_events",
]
