"""The engine's refusals: one base, ``RuleError``, and one subclass per kind of input.

Every error carries a stable ``code`` the site words in the player's language, the
``params`` that sentence needs (JSON-ready), and ``message``, one English sentence (for
``str(error)``, the command line and logs). ``field``, when given, is the path of the
offending input (``"equipped.paw.supply"``) and leads ``str(error)``. A class whose codes
have English templates (the match's and the arena's refusals, deck errors) writes the
message itself when none is given.

>>> err = InvalidCardError("min_int", "must be an integer ≥ 1", field="equipped.paw.supply", minimum=1)
>>> str(err), err.code, err.params
('equipped.paw.supply: must be an integer ≥ 1', 'min_int', {'minimum': 1})
>>> str(IllegalActionError("boost_used", boost="Heal"))
'You have already used Heal in this match.'
>>> isinstance(InvalidSlabError("grade", "A grade must be a number."), ValueError)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, ClassVar, Final, Self

__all__ = [
    "ARENA_ILLEGAL_CODES",
    "DECK_ERROR_CODES",
    "ILLEGAL_CODES",
    "IllegalActionError",
    "IllegalArenaActionError",
    "InvalidCardError",
    "InvalidDeckError",
    "InvalidMoveError",
    "InvalidOfferError",
    "InvalidSlabError",
    "InvalidTeamError",
    "RuleError",
]

# Stable codes of the match's illegal actions, each with its readable English message (the
# site words the codes itself; these are for ``str(error)``, the command line and logs).
ILLEGAL_CODES: Final[Mapping[str, str]] = {
    "bad_action": "That is not an action of this game.",
    "bad_side": "There is no side {side!r} in this match.",
    "match_over": "The match is over.",
    "already_committed": "You have already committed this round.",
    "card_on_field": "You already have a card on the field; use Switch to change it.",
    "unknown_card": "Your deck has no card number {card}.",
    "card_defeated": "That card has been defeated.",
    "pick_required": "Pick a card to deploy before you commit.",
    "unknown_boost": "There is no boost called {boost!r}.",
    "boost_used": "You have already used {boost} in this match.",
    "boost_limit": "You may use at most {limit} boosts per round.",
    "nrg_full": "Your NRG is already at the cap of {cap}.",
    "hero_hp_full": "Your Hero is already at {cap} HP.",
    "no_card_on_field": "{boost} needs a card on the field.",
    "no_card": "{boost} needs a card on the field or a picked card.",
    "switch_target": "Switch needs another card that is still in play.",
}

# Stable codes of deck errors, each with its readable English message. ``format`` is
# for a decks file that is not shaped as {"a": [...], "b": [...]} (engine.match.simulate).
DECK_ERROR_CODES: Final[Mapping[str, str]] = {
    "empty": "A deck needs at least {minimum} card.",
    "too_many": "A deck holds at most {maximum} cards (this one has {count}).",
    "duplicate": "A deck may hold each card only once (card {card} is there twice).",
    "invalid_card": "Card {number} is not a card.",
    "format": 'The decks must be an object {{"a": [cards], "b": [cards]}}.',
}

ARENA_ILLEGAL_CODES: Final[Mapping[str, tuple[tuple[str, ...], str]]] = {
    "bad_action": ((), "That is not an action of the arena."),
    "bad_side": (("side",), "There is no side {side!r} in this match."),
    "match_over": ((), "The match is over."),
    "not_your_turn": (("side", "to_move"), "It is not your turn."),
    "replace_first": ((), "Your slab was knocked out: put a bench slab on the field first."),
    "nothing_to_replace": ((), "You already have a slab on the field."),
    "unknown_slab": (("slab",), "Your team has no slab number {slab}."),
    "slab_knocked_out": (("slab", "name"), "{name} has been knocked out."),
    "already_on_field": (("slab", "name"), "{name} is already on the field."),
    "swap_used": (("limit",), "You may swap at most {limit} time(s) a turn."),
    "unknown_move": (("move",), "There is no move called {move!r}."),
    "no_power_move": (("slab", "name", "tier"), "{name} is {tier} and has no power move."),
    "not_enough_energy": (
        ("action", "needed", "energy"),
        "That costs {needed} energy and you have {energy}.",
    ),
}
"""The arena's refusal codes: each one's parameter names and its English message."""


class RuleError(ValueError):
    """An input or an action the rules refuse: a stable ``code``, its ``params`` and a
    ``message`` a player could read (``field``: where in the input, when it says).

    ``message`` may be left out where the class has a template for the code
    (``templates``); it is then written from ``params``. With a ``field`` (even ``""``),
    ``str(error)`` is ``"<field>: <message>"``.

    >>> err = RuleError("too_big", "Too big.", field="size", limit=3)
    >>> err.code, err.message, err.params, err.field, str(err)
    ('too_big', 'Too big.', {'limit': 3}, 'size', 'size: Too big.')
    >>> str(err.prefixed("box"))
    'box.size: Too big.'
    """

    templates: ClassVar[Mapping[str, str]] = MappingProxyType({})

    def __init__(
        self, code: str, message: str | None = None, /, *, field: str | None = None, **params: Any
    ) -> None:
        self.code = code
        self.params = params
        self.field = field
        self.message = self.templates[code].format(**params) if message is None else message
        super().__init__(self.message if field is None else f"{field}: {self.message}")

    def prefixed(self, prefix: str) -> Self:
        """The same error with ``prefix.`` put in front of the field path."""
        field = f"{prefix}.{self.field}" if self.field else prefix
        return type(self)(self.code, self.message, field=field, **self.params)


class InvalidCardError(RuleError):
    """A card input that breaks the input rules (``field``: the offending value's path)."""


class InvalidDeckError(RuleError):
    """A deck that breaks §6: 1–4 distinct cards (codes: ``DECK_ERROR_CODES``)."""

    templates = DECK_ERROR_CODES


class IllegalActionError(RuleError):
    """A match action the rules do not allow now (codes: ``ILLEGAL_CODES``); the state is unchanged."""

    templates = ILLEGAL_CODES


class IllegalArenaActionError(RuleError):
    """An arena action the rules do not allow now (``ARENA_ILLEGAL_CODES``); the state is unchanged."""

    templates = MappingProxyType({code: text for code, (_, text) in ARENA_ILLEGAL_CODES.items()})


class InvalidSlabError(RuleError):
    """A slab or a daily value that breaks the input rules (``code`` names the input)."""


class InvalidTeamError(RuleError):
    """A team that breaks §8: 4 different slabs, at most 2 rare or epic."""


class InvalidMoveError(RuleError):
    """A move the slab does not have (``no_power_move``, ``unknown_move``)."""


class InvalidOfferError(RuleError):
    """A pool or an offer size the draw cannot take."""
