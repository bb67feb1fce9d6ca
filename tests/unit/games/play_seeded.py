"""Seeded whole games of the three engines, written out in full (run as a script).

``python tests/unit/games/play_seeded.py ROOT MATCHES`` plays ``MATCHES`` Quest and
Chronovore matches and TerraKard attacks on the engines ``games`` imports (compiled, or
Python when ``PYTHONPATH`` puts a copy of the sources first), and prints, one JSON
line each, every action, its events and every state the match went through, the final
state, and its replay from the log. ``test_compiled.py`` runs it both ways and compares
the two outputs byte for byte. The first line says which engines ran.

The seats are played by each game's CPU policy and, every third action, by a seeded
uniform choice among the legal actions (so more rules are reached than the CPU's
choices reach); a seat that keeps a match going too long, or whose next action would
come too late, meets its deadline (``expire``). The decks and the TerraKard plan are the
benches' (bench/*_engine.py).
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

T0 = datetime(2026, 12, 1, tzinfo=UTC)
STEP = timedelta(seconds=3)
MAX_ACTIONS = 400  # then time runs out on whoever is waited for


def dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, default=str, separators=(",", ":"))


def play(
    out: list[str],
    engine: Any,
    cpu: Any,
    settings: Any,
    seats: dict[str, Any],
    seed: int,
    chooser: Any = None,
) -> None:
    """``chooser(state, seed)``: the seeded choice, when a uniform legal action is not one
    (TerraKard's answers are marked by the host first)."""
    from games.kit.chance import uniform

    state = engine.new_match(settings, seats, seed, T0)
    out.append(dumps({"start": engine.to_json(state)}))
    log = []
    now = T0
    actions = 0
    while engine.results(state) is None:
        waiting = engine.waiting_for(state)
        deadline = engine.deadline(state)
        late = deadline is not None and now + STEP >= deadline
        if actions >= MAX_ACTIONS or not waiting or late:
            assert deadline is not None, "a match that waits for nobody has a deadline"
            now = max(now, deadline)
            for seat, action in engine.timeouts(state):
                log.append((seat, action, now))
            state, events = engine.expire(state, now)
            out.append(dumps({"expired": str(now), "events": events}))
            actions = 0
            continue
        seat = waiting[0]
        action = cpu(state, seat) if engine.version(state) % 3 else None
        if action is None and chooser is not None:
            action = chooser(state, seed)
        elif action is None:
            legal = engine.legal_actions(state, seat)
            index, _ = uniform(seed, f"test:{engine.version(state)}", 0, len(legal))
            action = legal[index]
        now += STEP
        state, events = engine.apply(state, seat, action, now)
        log.append((seat, action, now))
        actions += 1
        out.append(
            dumps(
                {
                    "seat": seat,
                    "action": engine.action_to_json(action),
                    "events": events,
                    "state": engine.to_json(state),
                    "view": engine.view(state, seat),
                }
            )
        )
    final = engine.to_json(state)
    replayed = engine.to_json(engine.replay(settings, seats, seed, T0, log))
    assert replayed == final, f"{engine.game} seed {seed}: the replay differs"
    out.append(dumps({"results": engine.results(state), "final": final}))


def main(root: Path, matches: int) -> None:
    sys.path.insert(0, str(root / "bench"))
    import chronovore_engine
    import engine as quest_bench
    import terrakard_engine

    from games.chronovore.balance import SEATS
    from games.chronovore.game import CHRONOVORE, CHRONOVORE_CPU
    from games.chronovore.state import Settings as ChronovoreSettings
    from games.kit.frozen import COMPILED
    from games.quest import engine as quest
    from games.quest.game import QUEST, QUEST_CPU
    from games.terrakard import engine as terrakard
    from games.terrakard.game import TERRAKARD, TERRAKARD_CPU
    from games.terrakard.state import ATTACKER, DEFENDER

    out = [dumps({"compiled": COMPILED, "engine": quest.__file__})]
    catalogue = quest_bench.load_catalogue(root)
    cpu_deck = quest_bench.engine_deck(catalogue, quest_bench.cpu_names())
    for i in range(matches):
        affinity = ("Wit", "Grit", "Spark")[i % 3]
        starter = quest_bench.engine_deck(catalogue, quest_bench.starter_names(catalogue, affinity))
        seats = {"player": starter, "cpu": cpu_deck}
        play(out, QUEST, QUEST_CPU, quest.Settings(), seats, 1000 + i)

    args = chronovore_engine.parse_args(["--matches", str(matches), "--seed", "3"])
    for i, decks in enumerate(chronovore_engine.decks(args)):
        seats = dict(zip(SEATS, decks, strict=True))
        play(out, CHRONOVORE, CHRONOVORE_CPU, ChronovoreSettings(), seats, 2000 + i)

    made = terrakard_engine.setup(terrakard_engine.parse_args(["--seed", "5"]))
    seats = {ATTACKER: made.attacker, DEFENDER: made.defense}
    attacker = terrakard_engine.attacker_policy(made.answer_keys)  # the bench's random seat
    for i in range(matches):
        play(out, TERRAKARD, TERRAKARD_CPU, terrakard.Settings(), seats, 3000 + i, attacker)
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
