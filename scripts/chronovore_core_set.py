"""Write services/authoring/seed/chronovore_core_set.json from the compact list below.

The Core Set is card data; this list is how it is written and tuned (docs/chronovore.md,
"Balance"). A line: name | M attack/health (``!``: Initiative) or E $cost | rarity
(c, u, r, e, m) | rewards: ``coins N``, ``armor N``, ``heal N``, ``str N``, ``draw N``,
``weapon A/D``, ``anvil A/D``, ``strike``, ``copy``, ``nextm A/H`` (``/i``: Initiative),
``nexte C``. Run: ``.venv/bin/python scripts/chronovore_core_set.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).parents[1] / "services/authoring/seed/chronovore_core_set.json"
RARITY = {"c": "common", "u": "uncommon", "r": "rare", "e": "epic", "m": "mythic"}

CARDS = {
    "medic": """
Bandage Sprite | M 1/3 | c | heal 2, armor 1
Triage Orderly | M 2/4 | c | heal 3, coins 1
Iron Poultice | E $1 | c | armor 3
Herb Gatherer | M 1/4 | c | coins 2, heal 2
Plated Leech | M 2/5 | c | armor 3
Sterile Field | E $0 | c | armor 1, heal 1
Splint Golem | M 3/6 | c | armor 3, heal 1
Mending Chorus | E $2 | u | heal 5, armor 1
Ward Nurse | M 2/6 | u | armor 3, heal 2
Tonic Peddler | M 1/5 | u | coins 3, heal 3
Carapace Graft | E $3 | u | armor 5
Field Surgeon | M 3/7 | u | heal 5, armor 2
Lazarus Kit | E $4 | r | heal 8
Bulwark Matron | M 3/8 | r | armor 5, heal 3
Plasma Drip | E $3 | r | heal 4, armor 4, draw 1
Saint of Sutures | M 4/10 | e | heal 7, armor 4
Aegis Protocol | E $5 | e | armor 8, str 1
Eternal Physician | M 5/12 | m | heal 12, armor 8, str 1
""",
    "captain": """
Deckhand Brawler | M 2/4 | c | weapon 1/3
Boarding Hook | E $0 | c | strike
Gunpowder Keg | M 1/3 | c | coins 2, strike
Cutlass Crate | E $2 | c | weapon 2/2
Press Gang | M 2/5 | c | str 1, coins 2
Powder Monkey | M 1/2 | c | strike
Salvo Drill | E $1 | c | strike, strike
First Mate | M 3/6 | u | weapon 2/3, strike
Broadside | E $3 | u | strike, strike, armor 2
Harpoon Volley | M 2/5! | u | weapon 3/2
Mutiny Quelled | M 3/7 | u | str 1, strike, armor 2
Rum Ration | E $1 | u | heal 3, str 1
Cannoneer Captain | M 4/8 | r | weapon 3/3, strike
Admiral's Sabre | E $4 | r | weapon 4/3, strike
Kraken Bait | M 4/9! | r | coins 4, strike, strike
Dreadnought | M 5/11 | e | weapon 4/4, strike, strike
Flagship Charge | E $5 | e | str 2, strike, strike
Captain Chronos | M 6/13 | m | weapon 5/5, str 1, strike, strike
""",
    "chaplain": """
Hushed Acolyte | M 1/3 | c | nextm 1/1, coins 2
Tithe Collector | M 2/4 | c | coins 3
Censer Smoke | E $1 | c | nexte 2, armor 2
Bell Ringer | M 2/4 | c | nextm 1/1, coins 2
Vow of Silence | E $0 | c | nexte 2, heal 1
Choir Wraith | M 1/4 | c | nextm 0/3, heal 2
Penance | E $2 | c | nextm 2/1, armor 3
Inquisitor | M 3/6 | u | nextm 2/3, coins 2
Excommunion | E $1 | u | nexte 3, heal 3
Grave Bells | M 2/6 | u | nextm 0/0/i, coins 3
Relic Warden | M 3/7 | u | armor 4, nextm 1/1
Tithe Doubling | E $0 | u | coins 2, nexte 1
Anathema | E $3 | r | nextm 3/2/i, str 1
High Confessor | M 4/8 | r | nextm 3/4, heal 3
Indulgence Seller | M 2/6 | r | coins 5, nexte 2
Interdict | E $4 | e | nexte 5, armor 6
Cathedral Golem | M 5/11 | e | nextm 3/3/i, str 1
The Last Sermon | E $6 | m | nextm 5/6/i, heal 6, str 1
""",
    "engineer": """
Scrap Hound | M 2/4 | c | weapon 1/5, coins 1
Anvil Spark | E $1 | c | anvil 2/1
Gear Mite | M 1/3 | c | coins 2, anvil 1/3
Rivet Gun | E $1 | c | weapon 2/5
Tinker's Apprentice | M 2/5 | c | anvil 1/3, coins 2
Whetstone | E $0 | c | anvil 1/1
Boiler Crawler | M 3/5 | c | weapon 2/4, armor 1
Forge Drake | M 3/7 | u | weapon 3/5, armor 3
Tempering | E $1 | u | anvil 2/2
Clockwork Smith | M 2/6 | u | anvil 1/4, armor 3
Overclock | E $2 | u | anvil 3/0, strike
Servo Squire | M 2/5 | u | weapon 2/4, anvil 0/2
Master Artificer | M 4/8 | r | weapon 3/6, anvil 1/1, str 1
Arc Furnace | E $3 | r | weapon 4/6
Gyro Hammer | M 3/8! | r | anvil 2/3, coins 3
Titan Foundry | E $4 | e | weapon 5/5, anvil 1/2, armor 3
Steam Colossus | M 5/12 | e | weapon 4/7, armor 4, str 1
Chronoforge | M 5/13 | m | weapon 6/6, anvil 2/2, str 2
""",
    "priest": """
Mirror Novice | M 1/3 | c | copy, coins 1
Echo Prayer | E $0 | c | copy, heal 2
Reflecting Pool | M 2/4 | c | copy, coins 2
Alms Bowl | M 1/4 | c | coins 3
Candle Mimic | M 2/5 | c | copy, armor 2
Mimic's Psalm | E $0 | c | copy, heal 1
Doppel Monk | M 3/5 | c | copy, heal 3
Twin Oracle | M 2/6 | u | copy, draw 1, armor 1
Glass Cantor | E $1 | u | copy, armor 3
Borrowed Light | E $1 | u | copy, heal 3
Shade Abbot | M 3/7 | u | copy, coins 3, armor 1
Votive Mirror | M 2/5 | u | copy, str 1, heal 2
Prism Hierophant | M 4/8 | r | copy, copy, heal 5
Rite of Echoes | E $2 | r | copy, draw 2
Silver Reliquary | M 3/8 | r | copy, armor 5, coins 2
Cathedral of Mirrors | E $3 | e | copy, copy, str 1
Reflected Seraph | M 5/11 | e | copy, heal 8, str 1
The Unending Echo | M 5/12 | m | copy, copy, heal 6, armor 6, str 1
""",
    "neutral": """
Cave Rat | M 1/2 | c | coins 2
Goblin Cutpurse | M 2/3 | c | coins 3
Bog Slime | M 1/4 | c | coins 2, armor 1
Wandering Merchant | E $2 | c | draw 2
Training Dummy | M 0/5 | c | str 1
Feral Boar | M 3/4 | c | str 1, coins 1
Moss Troll | M 2/6 | c | coins 4
Healing Spring | E $1 | c | heal 4
Rusty Blade | E $1 | c | weapon 1/2
Bandit Scout | M 2/3! | c | coins 3
Timeworn Sentry | M 2/5 | c | armor 3
Field Rations | E $0 | c | heal 2
Chrono Moth | M 1/3 | c | draw 1
Stone Beetle | M 1/5 | c | armor 2, coins 1
Ogre Bruiser | M 4/7 | u | str 1, coins 3
Treasure Chest | E $3 | u | coins 3, draw 1, armor 2
Hourglass Wyrm | M 3/6 | u | draw 2
Blacksmith's Stall | E $3 | u | weapon 3/2
Giant Spider | M 3/5! | u | coins 4
Elixir of Might | E $4 | u | str 1, heal 3
Ironhide Tortoise | M 2/8 | u | armor 6
Fortune Teller | E $2 | u | draw 1, coins 1, heal 2
Sand Wraith | M 3/6 | u | coins 3, heal 2
Grave Robber | M 2/5 | u | coins 2, draw 1
Time Devourer | M 5/9 | r | str 2
Minotaur Champion | M 4/9 | r | str 1, weapon 2/3
Royal Bounty | E $5 | r | str 1, armor 5, draw 1
Wyvern | M 4/8! | r | coins 6, heal 3
Sage of Moments | E $2 | r | draw 2, heal 3
Obsidian Golem | M 3/10 | r | armor 8, str 1
Elder Dragon | M 7/14 | e | str 2, coins 5, heal 5
Temporal Rift | E $6 | e | str 2, draw 2
Hydra of Hours | M 5/12! | e | str 1, armor 6, coins 4
Golden Idol | E $3 | e | coins 6, armor 3
Chronovore the Devourer | M 8/18 | m | str 3, heal 10, coins 5
Ouroboros Clock | E $8 | m | str 2, armor 10, draw 3
""",
}

SIMPLE = {"coins": "coins", "armor": "armor", "heal": "health", "str": "strength", "draw": "draw"}


def reward(text: str) -> dict[str, Any]:
    word, _, arg = text.strip().partition(" ")
    if word in SIMPLE:
        return {"type": SIMPLE[word], "amount": int(arg)}
    if word in ("weapon", "anvil"):
        attack, durability = (int(n) for n in arg.split("/"))
        return {
            "type": "weapon" if word == "weapon" else "upgrade",
            "attack": attack,
            "durability": durability,
        }
    if word == "strike":
        return {"type": "strike"}
    if word == "copy":
        return {"type": "copy_opposing"}
    if word == "nexte":
        return {"type": "next_enemy", "cost": int(arg)}
    parts = arg.split("/")
    found: dict[str, Any] = {"type": "next_enemy", "attack": int(parts[0]), "health": int(parts[1])}
    if len(parts) > 2 and parts[2] == "i":
        found["initiative"] = True
    return found


def card(line: str, card_class: str) -> dict[str, Any]:
    name, stats, rarity, rewards = (part.strip() for part in line.split("|"))
    body: dict[str, Any] = {"name": name, "card_class": card_class, "rarity": RARITY[rarity]}
    if stats.startswith("M"):
        attack, health = stats[1:].strip().rstrip("!").split("/")
        kind = "monster"
        body.update(attack=int(attack), health=int(health), initiative=stats.endswith("!"))
    else:
        kind = "event_card"
        body["cost"] = int(stats.split("$")[1])
    body["rewards"] = [reward(r) for r in rewards.split(",") if r.strip()]
    return {"kind": kind, "body": body}


def core_set() -> list[dict[str, Any]]:
    return [
        card(line, card_class)
        for card_class, lines in CARDS.items()
        for line in lines.strip().splitlines()
    ]


if __name__ == "__main__":
    OUT.write_text(json.dumps(core_set(), indent=1) + "\n", encoding="utf-8")
    print(f"{len(core_set())} cards -> {OUT}")
