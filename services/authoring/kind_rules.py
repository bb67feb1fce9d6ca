"""What a kind of content holds, as authoring checks it: the plumbing every game's
kinds share (a strict marshmallow body, bounded text, a card's name key), and
``KindRules``, which each game fills in for each of its kinds (services/authoring/
quest_kinds.py is Quest's); services/authoring/kinds.py keys them by (game, kind).

A draft may be incomplete but never malformed: the schema refuses wrong types and
out-of-range values on every save; readiness adds what the game requires before
review (checked on submission, approval and publication).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from marshmallow import RAISE, Schema, ValidationError, fields, validate, validates_schema

TEXT = 500  # assumed bounds on authored text
LONG_TEXT = 2000
NAME = 80


class Body(Schema):
    class Meta:
        unknown = RAISE


def text_field(size: int = TEXT, **kwargs: Any) -> fields.String:
    return fields.String(validate=validate.Length(max=size), **kwargs)


class CardNameBody(Body):
    """A card definition's body starts with its name (every game's cards)."""

    name = fields.String(required=True, validate=validate.Length(min=1, max=NAME))

    @validates_schema
    def name_is_readable(self, data: dict[str, Any], **kwargs: Any) -> None:
        """The name's key (``name_key``) is what must be unique, and it is stored in a
        column of NAME characters: a name of only invisible characters, or one that
        grows past NAME once normalised ("ß" folds to "ss"), has no usable key."""
        key = name_key(data["name"])
        if not key:
            raise ValidationError("a card name needs visible characters", "name")
        if len(key) > NAME:
            raise ValidationError(f"a card name has at most {NAME} characters", "name")
        if any(unicodedata.category(c) == "Cc" for c in key):
            raise ValidationError("a card name cannot contain control characters", "name")


def _same(body: dict[str, Any]) -> dict[str, Any]:
    return body


@dataclass(frozen=True)
class KindRules:
    """One kind of one game's content."""

    schema: type[Schema]
    readiness: Callable[[dict[str, Any]], list[str]]
    # Fields never shown outside authoring's author endpoints and the challenge service.
    private_fields: tuple[str, ...] = ()
    # A card definition: its name is unique (``name_key``) and cards keep a read model.
    is_card: bool = False
    # After the schema: the game's own validators (Quest: its effect vocabulary), which
    # refuse with a games.kit Refusal and may return the body in canonical form.
    validate: Callable[[dict[str, Any]], dict[str, Any]] = _same
    # The public face, after the private fields are dropped (e.g. a question's choices
    # without the one marked correct).
    public: Callable[[dict[str, Any], dict[str, Any]], dict[str, Any]] = lambda view, body: view


def name_key(name: str) -> str:
    """What makes two card names the same name: what a player reading them would see.

    NFKC (full-width and mathematical letters, ligatures, composed and decomposed
    accents become one form); invisible characters dropped (zero-width joiners and
    spaces, soft hyphens, direction marks, variation selectors); Cyrillic and Greek
    letters that look like Latin ones read as those (assumed: the common homoglyphs
    of Unicode's confusables list, not all of it); then case folded and whitespace
    collapsed. Accented letters stay distinct from plain ones ("Café" is not "Cafe").
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if not _invisible(c)).translate(_LATIN_LOOK_ALIKES)
    text = unicodedata.normalize("NFKC", text.casefold())
    return " ".join(text.split())


def _invisible(char: str) -> bool:
    """Unicode's default-ignorable code points: format characters and the like."""
    return unicodedata.category(char) == "Cf" or any(
        low <= ord(char) <= high for low, high in _IGNORABLE_RANGES
    )


_IGNORABLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xE0100, 0xE01EF),  # variation selectors supplement
)
_LATIN_LOOK_ALIKES = str.maketrans(
    {
        "\N{CYRILLIC CAPITAL LETTER A}": "A",
        "\N{CYRILLIC CAPITAL LETTER VE}": "B",
        "\N{CYRILLIC CAPITAL LETTER IE}": "E",
        "\N{CYRILLIC CAPITAL LETTER DZE}": "S",
        "\N{CYRILLIC CAPITAL LETTER BYELORUSSIAN-UKRAINIAN I}": "I",
        "\N{CYRILLIC CAPITAL LETTER JE}": "J",
        "\N{CYRILLIC CAPITAL LETTER KA}": "K",
        "\N{CYRILLIC CAPITAL LETTER EM}": "M",
        "\N{CYRILLIC CAPITAL LETTER EN}": "H",
        "\N{CYRILLIC CAPITAL LETTER O}": "O",
        "\N{CYRILLIC CAPITAL LETTER ER}": "P",
        "\N{CYRILLIC CAPITAL LETTER ES}": "C",
        "\N{CYRILLIC CAPITAL LETTER TE}": "T",
        "\N{CYRILLIC CAPITAL LETTER HA}": "X",
        "\N{CYRILLIC CAPITAL LETTER U}": "Y",
        "\N{CYRILLIC CAPITAL LETTER STRAIGHT U}": "Y",
        "\N{CYRILLIC CAPITAL LETTER QA}": "Q",
        "\N{CYRILLIC CAPITAL LETTER WE}": "W",
        "\N{CYRILLIC SMALL LETTER A}": "a",
        "\N{CYRILLIC SMALL LETTER IE}": "e",
        "\N{CYRILLIC SMALL LETTER DZE}": "s",
        "\N{CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I}": "i",
        "\N{CYRILLIC SMALL LETTER JE}": "j",
        "\N{CYRILLIC SMALL LETTER O}": "o",
        "\N{CYRILLIC SMALL LETTER ER}": "p",
        "\N{CYRILLIC SMALL LETTER ES}": "c",
        "\N{CYRILLIC SMALL LETTER HA}": "x",
        "\N{CYRILLIC SMALL LETTER U}": "y",
        "\N{CYRILLIC SMALL LETTER STRAIGHT U}": "y",
        "\N{CYRILLIC SMALL LETTER SHHA}": "h",
        "\N{CYRILLIC SMALL LETTER PALOCHKA}": "l",
        "\N{CYRILLIC SMALL LETTER KOMI DE}": "d",
        "\N{CYRILLIC SMALL LETTER QA}": "q",
        "\N{CYRILLIC SMALL LETTER WE}": "w",
        "\N{GREEK CAPITAL LETTER ALPHA}": "A",
        "\N{GREEK CAPITAL LETTER BETA}": "B",
        "\N{GREEK CAPITAL LETTER EPSILON}": "E",
        "\N{GREEK CAPITAL LETTER ZETA}": "Z",
        "\N{GREEK CAPITAL LETTER ETA}": "H",
        "\N{GREEK CAPITAL LETTER IOTA}": "I",
        "\N{GREEK CAPITAL LETTER KAPPA}": "K",
        "\N{GREEK CAPITAL LETTER MU}": "M",
        "\N{GREEK CAPITAL LETTER NU}": "N",
        "\N{GREEK CAPITAL LETTER OMICRON}": "O",
        "\N{GREEK CAPITAL LETTER RHO}": "P",
        "\N{GREEK CAPITAL LETTER TAU}": "T",
        "\N{GREEK CAPITAL LETTER UPSILON}": "Y",
        "\N{GREEK CAPITAL LETTER CHI}": "X",
        "\N{GREEK SMALL LETTER ALPHA}": "a",
        "\N{GREEK SMALL LETTER IOTA}": "i",
        "\N{GREEK SMALL LETTER KAPPA}": "k",
        "\N{GREEK SMALL LETTER NU}": "v",
        "\N{GREEK SMALL LETTER OMICRON}": "o",
        "\N{GREEK SMALL LETTER RHO}": "p",
        "\N{GREEK SMALL LETTER UPSILON}": "u",
        "\N{GREEK SMALL LETTER CHI}": "x",
        "\N{LATIN SMALL LETTER DOTLESS I}": "i",
    }
)
