"""JSON in and out, one codec per type and one module per game: ``card`` (card input with
validation, card export), ``breakdown`` (Breakdown output), ``match`` (the paw-game
match's combat profiles, actions and events) and ``arena`` (the slab arena's actions); ``base``
holds what they share (input limits, the checked reader, ``dumps``).

Shared by the command line, the site's JSON API, the import command and the match demo
(which stores its decks and actions in this form). ``breakdown_to_json`` gives a
Breakdown as plain data; ``breakdown_json`` gives the same as compact JSON text, written
from pieces kept between cards (the API's card body).
Input errors raise ``InvalidCardError`` whose ``field`` is the path of the
offending value (``"equipped.paw.supply"``) and whose ``str()`` is one line.

Input limits (not rules, what any store of cards can hold): every integer is at most
``MAX_INT`` (2^63 − 1, a signed 64-bit integer), and JSON numbers longer than that are
refused where they stand, never turned into Python integers (a 5,000-digit number would
otherwise stop the JSON reader with a bare ValueError); every name is text of 1 to
``NAME_MAX_LENGTH`` (100, the site's name columns) characters, without NUL and without
lone surrogates (a ``"\\ud800"`` escape decodes to one, and it cannot be written out as
UTF-8).

>>> from engine.types import Slot
>>> card = card_from_json({
...     "token": 7, "name": "Pup #7",
...     "equipped": {"head": {"name": "Cap", "supply": 900}, "body": {"name": "Vest", "supply": 4},
...                  "paw": {"name": "Dagger", "supply": 3, "kind": "premium"},
...                  "background": {"name": "Sky", "supply": 800}},
... })
>>> card.attribute(Slot.PAW).kind
<AttributeKind.PREMIUM: 'premium'>
>>> card_from_json(card_to_json(card)) == card
True
>>> card_from_json({"token": 7, "name": "x", "equipped": {}})
Traceback (most recent call last):
...
engine.errors.InvalidCardError: equipped.head: is required
"""

from engine.errors import InvalidCardError
from engine.serialize.base import MAX_INT, NAME_MAX_LENGTH, dumps, load_json
from engine.serialize.breakdown import breakdown_json, breakdown_to_json
from engine.serialize.card import card_from_json, card_to_json, parse_card
from engine.serialize.match import (
    action_from_json,
    action_to_json,
    event_to_json,
    match_card_from_json,
    match_card_to_json,
)

__all__ = [
    "MAX_INT",
    "NAME_MAX_LENGTH",
    "InvalidCardError",
    "action_from_json",
    "action_to_json",
    "breakdown_json",
    "breakdown_to_json",
    "card_from_json",
    "card_to_json",
    "dumps",
    "event_to_json",
    "load_json",
    "match_card_from_json",
    "match_card_to_json",
    "parse_card",
]
