"""Every request parameter of the match demo, read through a form.

- ``BuilderForm`` (GET): the deck builder's search ``q`` (the explorer's query language,
  parsed by ``cards.query.parse``), the deck so far ``deck`` (card numbers,
  comma-separated: the builder's links carry it), the result ``page``, the ``bot`` to
  play and the deck ``source`` (the whole collection, or the session's ``binder``).
- ``DeckForm`` (POST): the chosen cards, ``card`` repeated, and the ``bot``.
- ``MoveForm`` (POST): the player's ``move`` (a button value) and the ``turn`` it was
  made for; ``TurnForm`` (POST) only the ``turn`` (surrender, finish the match).
- ``ReplayForm`` (GET): the replay ``step``.

Numbers are ASCII digits only: ``"²".isdigit()`` is True and ``int("٣")`` is 3, so no
value is read with either. The deck rules themselves (how many cards, none twice) are
the engine's (``engine.match.validate_deck_ids``); a form only reads what was sent.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.forms import AsciiIntegerField, ChoiceField
from core.labels import choices
from engine.match import A, Action, Boost, Commit, IllegalActionError, Pick, Surrender
from engine.types import BoostKind, BotKind

__all__ = [
    "SOURCES",
    "BuilderForm",
    "DeckForm",
    "MoveForm",
    "ReplayForm",
    "TurnForm",
    "move_value",
    "parse_move",
]

_TOKEN = re.compile(r"[0-9]{1,9}")  # a card number as the builder writes it
_PICK = re.compile(r"pick:([0-9]{1,3})")
_SWITCH = re.compile(r"boost:switch:([0-9]{1,3})")
_BOOST = re.compile(r"boost:([a-z_]{1,20})")
# Most card numbers a builder address keeps (more than any deck holds; the rest is junk).
DECK_PARAM_LIMIT = 16
# The longest search the builder reads (the explorer's own box takes as much).
QUERY_MAX_LENGTH = 500
# Where the builder's cards come from: the collection, or the session's booster binder.
SOURCES = ("collection", "binder")


def _token(value: object) -> int | None:
    text = str(value).strip()
    return int(text) if _TOKEN.fullmatch(text) and int(text) > 0 else None


def parse_move(move: str) -> Action:
    """The player's action from a form button value: ``pick:2``, ``boost:rage``,
    ``boost:switch:1``, ``commit`` or ``surrender``. IllegalActionError("bad_action").

    A boost name the engine does not know stays a string (the engine refuses it).

    >>> parse_move("boost:switch:1")
    Boost(side=<Side.A: 0>, boost=<BoostKind.SWITCH: 'switch'>, card=1)
    >>> parse_move("pick:²")
    Traceback (most recent call last):
    ...
    engine.match.IllegalActionError: That is not an action of this game.
    """
    move = str(move)
    if move == "commit":
        return Commit(A)
    if move == "surrender":
        return Surrender(A)
    if m := _PICK.fullmatch(move):
        return Pick(A, int(m[1]))
    if m := _SWITCH.fullmatch(move):
        return Boost(A, BoostKind.SWITCH, int(m[1]))
    if (m := _BOOST.fullmatch(move)) and m[1] != BoostKind.SWITCH:
        try:
            return Boost(A, BoostKind(m[1]))
        except ValueError:
            return Boost(A, m[1])  # type: ignore[arg-type]  # refused as unknown_boost
    raise IllegalActionError("bad_action")


def move_value(action: Action) -> str:
    """The button value of ``action`` (the inverse of ``parse_move``).

    >>> move_value(Boost(A, BoostKind.SWITCH, 2)), move_value(Pick(A, 0))
    ('boost:switch:2', 'pick:0')
    """
    if isinstance(action, Pick):
        return f"pick:{action.card}"
    if isinstance(action, Boost):
        tail = f":{action.card}" if action.card is not None else ""
        return f"boost:{action.boost}{tail}"
    return "commit" if isinstance(action, Commit) else "surrender"


class TokenListField(forms.CharField):
    """Card numbers from ``"12,45"``: distinct and positive, in order; anything else is
    dropped (the builder's addresses are typed by hand too)."""

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = super().to_python(value)
        tokens: list[int] = []
        for part in text.split(",")[: DECK_PARAM_LIMIT * 4]:
            token = _token(part)
            if token is not None and token not in tokens:
                tokens.append(token)
        return tokens[:DECK_PARAM_LIMIT]


class TokensField(forms.Field):
    """A repeated parameter of card numbers (``card=1&card=7``), each one a card number."""

    widget = forms.MultipleHiddenInput
    default_error_messages = {
        "unknown_card": _("One of those cards is not in the collection."),
    }

    def to_python(self, value: Any) -> list[int]:
        if not value:
            return []
        values = value if isinstance(value, (list, tuple)) else [value]
        tokens = [_token(v) for v in values]
        if any(t is None for t in tokens):
            raise forms.ValidationError(self.error_messages["unknown_card"], code="unknown_card")
        return tokens  # type: ignore[return-value]


class BotField(ChoiceField):
    """Which bot plays (``engine.types.BotKind``); blank is the default, greedy."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            choices=choices(BotKind),
            required=False,
            error_messages={"invalid_choice": _("There is no such bot.")},
            **kwargs,
        )

    def clean(self, value: Any) -> str:
        return super().clean(value) or BotKind.GREEDY.value


class BuilderForm(forms.Form):
    """The deck builder's address: search, the deck so far, the result page, the bot, the
    deck source."""

    q = forms.CharField(
        label=_("Find cards: a name, a number or a search such as r:epic role:tank"),
        required=False,
        max_length=QUERY_MAX_LENGTH,
        strip=True,
    )
    deck = TokenListField(required=False, max_length=1000)
    page = AsciiIntegerField(
        required=False,
        min_value=1,
        max_value=10**6,
        error_messages={
            key: _("The page must be a whole number (1, 2, …).")
            for key in ("invalid", "min_value", "max_value")
        },
    )

    bot = BotField()
    source = ChoiceField(
        choices=[(s, s) for s in SOURCES],
        required=False,
        error_messages={"invalid_choice": _("Cards come from the collection or your binder.")},
    )

    def clean_source(self) -> str:
        return self.cleaned_data.get("source") or SOURCES[0]


class DeckForm(forms.Form):
    """The cards chosen for a new match, and the bot to play it."""

    card = TokensField(required=False)
    bot = BotField()


class TurnForm(forms.Form):
    """The point of the match (action count) a surrender or finish form was made for."""

    turn = AsciiIntegerField(min_value=0, max_value=10**6)


class MoveForm(forms.Form):
    """One move of the player, and the point of the match (action count) it was made for."""

    turn = AsciiIntegerField(min_value=0, max_value=10**6)
    move = forms.CharField(max_length=40)

    def clean_move(self) -> Action:
        try:
            return parse_move(self.cleaned_data["move"])
        except IllegalActionError:
            raise forms.ValidationError("bad_action", code="bad_action") from None


class ReplayForm(forms.Form):
    """Which step of a replay to show (0 is the start; past the end shows the last)."""

    step = AsciiIntegerField(
        required=False,
        min_value=0,
        error_messages={
            key: _("The step must be a whole number: 0 for the start, then one per round.")
            for key in ("invalid", "min_value")
        },
    )
