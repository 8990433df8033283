"""Every request parameter of the explorer's pages and API, read by a Django form.

A number is an ``IntegerField`` with its bounds, an attribute a choice from the
collection's catalogue, a search the query language's parser: a value such as ``²``
(a digit to ``str.isdigit`` that ``int`` refuses) is a form error in the visitor's
language, never a 500. Views ask a form, never ``request.GET`` itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from cards.forms import TokenField
from core.labels import label
from engine.types import CardSpec, Slot

from .query import Query, QueryError, parse
from .whatif import MAX_BURNED, MAX_RANK, PARAMS, SLOTS, UNSET, Catalogue, WhatIf

__all__ = [
    "ApiSearchForm",
    "CardListForm",
    "CompareForm",
    "WhatIfForm",
    "first_error",
    "message_of",
]


class BoundedIntegerField(forms.IntegerField):
    """An integer from ``min_value`` to ``max_value`` whose every refusal is one sentence.

    ``message`` may name ``%(name)s`` (the parameter), ``%(low)s``/``%(high)s`` (the
    bounds; ``%(max)s`` too); the refusal's ``code`` is ``code``.
    """

    def __init__(self, *, message: Any, name: str = "", code: str = "invalid", **kwargs: Any):
        self.message, self.name, self.code = message, name, code
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)

    def clean(self, value: Any) -> int | None:
        try:
            return super().clean(value)
        except ValidationError:
            low, high = self.min_value, self.max_value
            raise ValidationError(
                self.message,
                code=self.code,
                params={"name": self.name, "low": low, "high": high, "max": high},
            ) from None


class QueryField(forms.CharField):
    """A search in the card query language, cleaned into a parsed ``Query``."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, strip=False, **kwargs)

    def clean(self, value: Any) -> Query:
        text = super().clean(value)
        try:
            return parse(text)
        except QueryError as error:
            raise ValidationError(error.message, code=error.code) from None


def first_error(form: forms.Form) -> ValidationError | None:
    """The form's first refusal, in field order (its ``code`` and its message)."""
    for name in form.fields:
        errors = form.errors.as_data().get(name)
        if errors:
            return errors[0]
    return None


def message_of(error: ValidationError) -> str:
    """A refusal's message, its parameters filled in."""
    return next(iter(error))


# ---------------------------------------------------------------------------
# The card list and the API's search


class CardListForm(forms.Form):
    """``?q=<query>&page=<n>``: a page number that is not one shows the first page."""

    q = QueryField()
    page = forms.IntegerField(required=False, min_value=1)

    def page_number(self) -> int:
        if self.is_bound and not self.has_error("page"):
            return self.cleaned_data.get("page") or 1
        return 1


class ApiSearchForm(forms.Form):
    """``/api/cards?q=&page=&page_size=``; each refusal has a stable ``code``."""

    PAGE_SIZE = 50
    MAX_PAGE_SIZE = 200
    MAX_PAGE = 10**6

    q = QueryField()
    page_size = BoundedIntegerField(
        min_value=1,
        max_value=MAX_PAGE_SIZE,
        name="page_size",
        code="bad_page_size",
        message=_("“%(name)s” must be a whole number from %(low)s to %(high)s."),
    )
    page = BoundedIntegerField(
        min_value=1,
        max_value=MAX_PAGE,
        name="page",
        code="bad_page",
        message=_("“%(name)s” must be a whole number from %(low)s to %(high)s."),
    )

    @property
    def size(self) -> int:
        return self.cleaned_data.get("page_size") or self.PAGE_SIZE

    @property
    def number(self) -> int:
        return self.cleaned_data.get("page") or 1


# ---------------------------------------------------------------------------
# Compare


class CompareForm(forms.Form):
    """``?a=<token>&b=<token>`` (``#42`` works too)."""

    a = TokenField(label=_("First card (token)"))
    b = TokenField(label=_("Second card (token)"))

    @classmethod
    def from_request(cls, params: Mapping[str, str]) -> CompareForm:
        """Bound when the address asks for a comparison, unbound (the empty form) otherwise."""
        if any((params.get(key) or "").strip() for key in ("a", "b")):
            return cls(params)
        return cls(initial={key: params.get(key, "") for key in ("a", "b")})


# ---------------------------------------------------------------------------
# What-if


class AttributeChoiceField(forms.ChoiceField):
    """One slot's attribute by name: the card's own ones, then the whole catalogue.

    The choices are grouped the way the page shows them; checking a name is one set
    look-up (the catalogue has hundreds per slot).
    """

    def __init__(self, slot: Slot, card: CardSpec, catalogue: Catalogue) -> None:
        self.slot = slot
        self.owned = tuple(sorted({(a.name, a.supply) for a in card.owned if a.slot is slot}))
        self.catalogue = catalogue
        self.names = frozenset(n for n, _s in self.owned) | catalogue.by_slot[slot].keys()
        super().__init__(
            required=False,
            label=label(slot),
            choices=self._grouped,
        )

    def _grouped(self) -> list[tuple[object, list[tuple[str, str]]]]:
        return [
            (_("Owned by this card"), [(n, f"{n} ({s})") for n, s in self.owned]),
            (
                _("Whole catalogue"),
                [(n, f"{n} ({s})") for n, s in self.catalogue.choices(self.slot)],
            ),
        ]

    def to_python(self, value: Any) -> str:
        return super().to_python(value).strip()

    def valid_value(self, value: Any) -> bool:
        return value in self.names

    def validate(self, value: Any) -> None:
        if value and not self.valid_value(value):
            raise ValidationError(
                _("There is no %(slot)s attribute called “%(name)s”."),
                code="invalid_choice",
                params={"slot": label(self.slot), "name": value[:100]},
            )


class RankField(forms.IntegerField):
    """A GetGems rank: ``4`` or ``#4``; empty or ``none`` for no rank."""

    def __init__(self) -> None:
        super().__init__(required=False, min_value=1, max_value=MAX_RANK)

    def to_python(self, value: Any) -> int | None:
        if isinstance(value, str):
            value = value.strip().lstrip("#")
            if value.lower() == "none":
                return None
        return super().to_python(value)

    def clean(self, value: Any) -> int | None:
        try:
            return super().clean(value)
        except ValidationError:
            raise ValidationError(
                _("A GetGems rank is a whole number from 1 to %(max)s, or empty for no rank."),
                code="invalid",
                params={"max": MAX_RANK},
            ) from None


class WhatIfForm(forms.Form):
    """``?head=&body=&paw=&background=&rank=&burned=``: the changes a what-if asks for.

    Bound to the request's parameters, so the form shows what the address says; a
    parameter that is absent, or equal to the card's own value, changes nothing.
    """

    rank = RankField()
    burned = BoundedIntegerField(
        min_value=0,
        max_value=MAX_BURNED,
        message=_("Burned stickers is a whole number from 0 to %(max)s."),
    )

    def __init__(self, data: Mapping[str, str], *, card: CardSpec, catalogue: Catalogue) -> None:
        super().__init__(data)
        self.card = card
        slots = {slot.value: AttributeChoiceField(slot, card, catalogue) for slot in SLOTS}
        self.fields = {**slots, "rank": self.fields["rank"], "burned": self.fields["burned"]}

    @property
    def asked(self) -> bool:
        """The address carries what-if parameters (a form was sent, or a permalink)."""
        return any(name in self.data for name in PARAMS)

    def whatif(self) -> WhatIf:
        """The valid changes asked for (empty for an invalid form)."""
        if not self.is_valid():
            return WhatIf()
        data = self.cleaned_data
        equip = {
            slot.value: data[slot.value]
            for slot in SLOTS
            if data[slot.value] and data[slot.value] != self.card.attribute(slot).name
        }
        rank: object = UNSET
        if "rank" in self.data and data["rank"] != self.card.getgems_rank:
            rank = data["rank"]
        burned: object = UNSET
        if data["burned"] is not None and data["burned"] != self.card.burned_stickers:
            burned = data["burned"]
        return WhatIf(equip, rank, burned)

    def messages(self) -> list[str]:
        """Every refusal, in field order, in the visitor's language."""
        return [message for name in self.fields for message in self.errors.get(name, [])]

    def shown(self, name: str, default: object) -> str:
        """What the field shows: the value the address asks for, else the card's own value
        (``default``) — also in place of a refused one, which a select cannot offer and a
        number box cannot display, so sending the form again never sends a change nobody
        chose."""
        as_is = "" if default is None else str(default)
        if name not in self.data or name in self.errors:
            return as_is
        value = self.cleaned_data.get(name)
        if name == "rank":  # empty is an answer: no rank
            return "" if value is None else str(value)
        return as_is if value in (None, "") else str(value)
