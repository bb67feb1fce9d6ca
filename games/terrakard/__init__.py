"""TerraKard's rules as pure code (rules/terrakard.txt): no I/O, no clock, no global
random.

Rooms: ``content`` (categories and their cycle, rarities and deck costs, a card),
``terrains``, ``config`` (the rulebook's numbers and ours, level budgets), ``plans``
(postures, reserve conditions, deck and plan legality), ``automatic`` (the automatic
plan), ``damage``, ``actions``, ``state``, ``rules`` (legality, reserve, question,
stars), ``engine`` (the attack), ``view`` and ``report`` (what each seat sees),
``cpu``, ``game`` (``TERRAKARD``, the engine protocol of games/kit). The card pipeline:
``articles`` (the input format), ``formula`` (ATK, DEF, rarity), ``questions``.
docs/terrakard.md maps the rulebook to these modules and lists our choices.
"""
