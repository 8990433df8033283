"""Every request parameter of the explorer's pages and API, read by a Django form.

A number is an ``IntegerField`` with its bounds, an attribute a choice from the
collection's catalogue, a search the query language's parser: a value such as ``²``
(a digit to ``str.isdigit`` that ``int`` refuses) is a form error in the visitor's
language, never a 500. Views ask a form, never ``request.GET`` itself.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from cards.forms import parse_token
from cards.models import Card
from cards.query import (
    DEFAULT_SORT,
    FIELD_BY_NAME,
    MAX_LENGTH,
    SORTS,
    Query,
    QueryError,
    parse,
    value_label,
    with_sort,
)
from core.forms import (
    AsciiDecimalField,
    AsciiIntegerField,
    ChoiceField,
    MultipleChoiceField,
    shorten,
)
from core.labels import label
from engine.types import CardSpec, Rarity, Role, Skill, Slot

from .whatif import MAX_BURNED, MAX_RANK, PARAMS, SLOTS, UNSET, Catalogue, WhatIf

__all__ = [
    "AdvancedSearchForm",
    "ApiSearchForm",
    "AsOfForm",
    "CardListForm",
    "CardRefField",
    "ChangesForm",
    "CompareForm",
    "RandomCardForm",
    "SearchFeedForm",
    "SiteSearchForm",
    "WhatIfForm",
    "first_error",
    "message_of",
]


class BoundedIntegerField(AsciiIntegerField):
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
    """A search in the card query language, cleaned into a parsed ``Query``.

    A refusal keeps the parser's `QueryError` on the field (``query_error``: its position
    and length), so the page can point at the faulty characters.
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(required=False, strip=False, **kwargs)
        self.query_error: QueryError | None = None

    def clean(self, value: Any) -> Query:
        text = super().clean(value)
        try:
            return parse(text)
        except QueryError as error:
            self.query_error = error
            # No params: the message quotes what was typed, which may hold a "%".
            raise ValidationError(error.message, code=error.code) from None


def query_error(form: forms.Form, name: str = "q") -> QueryError | None:
    """The parser's refusal behind ``form``'s error on ``name`` (after validation)."""
    form.is_valid()
    field = form.fields.get(name)
    return getattr(field, "query_error", None)


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


DISPLAYS = ("grid", "checklist", "text")


class CardListForm(forms.Form):
    """``?q=<query>&page=<n>&display=grid|checklist|text``, and the sort controls'
    ``sort=<key>&dir=asc|desc``, which the list writes into ``q`` and redirects.

    A page number or display that is not one shows the first page, as a grid; a page past
    the end, the last one. (A page number is ASCII digits, at most twelve: a longer one
    would overflow the database's OFFSET.)
    """

    q = QueryField()
    page = AsciiIntegerField(required=False, min_value=1, signed=False)
    display = ChoiceField(required=False, choices=[(d, d) for d in DISPLAYS])
    sort = ChoiceField(required=False, choices=[(k, k) for k in SORTS])
    dir = ChoiceField(required=False, choices=[("asc", "asc"), ("desc", "desc")])
    # A page past the first ones (``cards.paging``): the signed cursor of its "Next" link.
    cursor = forms.CharField(required=False, max_length=1000)

    def page_number(self) -> int:
        if self.is_bound and not self.has_error("page"):
            return self.cleaned_data.get("page") or 1
        return 1

    def display_mode(self) -> str:
        if self.is_bound and not self.has_error("display"):
            return self.cleaned_data.get("display") or DISPLAYS[0]
        return DISPLAYS[0]

    def sorted_query(self) -> str | None:
        """The query text with the sort controls' choice written in (None: none asked)."""
        if not self.is_bound or "sort" not in self.data or self.has_error("sort"):
            return None
        if self.has_error("dir"):
            return None
        key = self.cleaned_data.get("sort") or DEFAULT_SORT.lstrip("-")
        descending = (self.cleaned_data.get("dir") or "desc") == "desc"
        return with_sort(str(self.data.get("q", "")), f"-{key}" if descending else key)


class RandomCardForm(forms.Form):
    """``/cards/random/?q=<query>``: a random card among those the query finds."""

    q = QueryField()


class SiteSearchForm(forms.Form):
    """The header's search box: ``?q=`` searches cards and wiki pages together."""

    q = forms.CharField(required=False, max_length=MAX_LENGTH, strip=True)

    def text(self) -> str:
        if self.is_valid():
            return self.cleaned_data["q"]
        return str(self.data.get("q", ""))[:MAX_LENGTH].strip()


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

    explain = ChoiceField(
        required=False,
        choices=[(v, v) for v in ("", "0", "1", "false", "true", "no", "yes")],
        error_messages={
            "invalid_choice": _("“explain” must be 1 (explain each card) or 0 (do not).")
        },
    )

    @property
    def explains(self) -> bool:
        """``explain=1``: each card carries its clause-by-clause explanation."""
        return self.cleaned_data.get("explain") in ("1", "true", "yes")

    # A page past the first ones: the signed cursor of the answer's ``next_page``.
    cursor = forms.CharField(required=False, max_length=1000)

    @property
    def size(self) -> int:
        return self.cleaned_data.get("page_size") or self.PAGE_SIZE

    @property
    def number(self) -> int:
        return self.cleaned_data.get("page") or 1


# ---------------------------------------------------------------------------
# Compare


class CardRefField(forms.CharField):
    """A card by token (``42``, ``#42``) or by name (``Tango #42``, any case), cleaned to
    its token. A name several cards share is refused with their tokens to choose from."""

    MAX_NAMED = 6

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=100, **kwargs)

    def clean(self, value: Any) -> int | None:
        text = super().clean(value)
        if not text:
            return None
        token = parse_token(text)
        if token is not None:
            if not Card.objects.filter(token=token).exists():
                raise ValidationError(
                    _("There is no card #%(token)s."), code="not_found", params={"token": token}
                )
            return token
        if text.lstrip().startswith("#"):
            raise ValidationError(
                _("“%(value)s” is not a card token (a whole number)."),
                code="invalid",
                params={"value": text[:20]},
            )
        named = list(
            Card.objects.filter(name__iexact=text)
            .order_by("token")
            .values_list("token", "name")[: self.MAX_NAMED + 1]
        )
        if not named:
            named = list(
                Card.objects.filter(name__istartswith=text)
                .order_by("token")
                .values_list("token", "name")[: self.MAX_NAMED + 1]
            )
        if len(named) == 1:
            return named[0][0]
        if not named:
            raise ValidationError(
                _("No card is called “%(name)s”: give its token or its full name."),
                code="not_found",
                params={"name": text[:100]},
            )
        shown = ", ".join(f"{name} (#{token})" for token, name in named[: self.MAX_NAMED])
        raise ValidationError(
            _(
                "Several cards are called “%(name)s”: %(cards)s. Give the token of the one you mean."
            ),
            code="ambiguous",
            params={
                "name": text[:100],
                "cards": shown + ("…" if len(named) > self.MAX_NAMED else ""),
            },
        )


class CompareForm(forms.Form):
    """``?a=<card>&b=<card>``: each a token (``42``, ``#42``) or a card's name."""

    a = CardRefField(label=_("First card (token or name)"))
    b = CardRefField(label=_("Second card (token or name)"))

    @classmethod
    def from_request(cls, params: Mapping[str, str]) -> CompareForm:
        """Bound when the address asks for a comparison, unbound (the empty form) otherwise."""
        if all((params.get(key) or "").strip() for key in ("a", "b")):
            return cls(params)
        return cls(initial={key: params.get(key, "") for key in ("a", "b")})


class ApiExplainForm(forms.Form):
    """``/api/cards/<token>/explain?q=``: the search to explain the card against."""

    q = QueryField()


class WhyForm(forms.Form):
    """``/cards/why/?q=<query>&card=<token or name>``: why the search finds that card, or
    why not (the results page's box, and each result's "Why?" link)."""

    q = QueryField()
    card = CardRefField(label=_("Card (token or name)"))


# ---------------------------------------------------------------------------
# The advanced search: a form that writes the query


def _bounded(label: object, high: int = 10**9 - 1) -> BoundedIntegerField:
    return BoundedIntegerField(
        label=label,
        min_value=0,
        max_value=high,
        message=_("Give a whole number from %(low)s to %(high)s, or leave it empty."),
    )


class AdvancedSearchForm(forms.Form):
    """Every part of the search language as form fields; ``query()`` writes the search.

    The list's address stays the one truth: a sent form redirects to ``/cards/?q=…``.
    """

    # (query field, label) of the numbers with a "from" and a "to" box.
    NUMBERS: tuple[tuple[str, object], ...] = (
        ("nrg", _("Energy cost (NRG)")),
        ("atk", _("ATK")),
        ("hp", _("HP")),
        ("def", _("DEF")),
        ("ability", _("Ability value")),
        ("rank", _("GetGems rank")),
        ("burned", _("Burned stickers")),
        ("score", _("Wardrobe score")),
    )
    FACTS: tuple[tuple[str, object], ...] = (
        ("legendary-skill", _("Has an active skill")),
        ("combo", _("Wears a complete combo")),
        ("god", _("Wears a god attribute")),
        ("premium", _("Wears a premium skin")),
        ("fragile", _("Fragile: one more print or a rank one place worse drops its tier")),
    )
    # The engine's answers (issue 30), as choices: (query field, form field).
    ENGINE = ("decided", "near", "effect")
    TRI = (("", _("either")), ("yes", _("yes")), ("no", _("no")))

    name = forms.CharField(label=_("Card name"), required=False, max_length=100)
    attribute = forms.CharField(label=_("Equipped attribute"), required=False, max_length=100)
    slot = ChoiceField(label=_("In the slot"), required=False)
    rarity = MultipleChoiceField(
        label=_("Rarity"), required=False, widget=forms.CheckboxSelectMultiple
    )
    role = MultipleChoiceField(label=_("Role"), required=False, widget=forms.CheckboxSelectMultiple)
    skill = MultipleChoiceField(
        label=_("Skill affinity"), required=False, widget=forms.CheckboxSelectMultiple
    )
    starter = ChoiceField(
        label=_("Starter (Free) cards"),
        required=False,
        choices=(("", _("leave out")), ("include", _("include")), ("only", _("only these"))),
    )
    supply = _bounded(_("An equipped attribute with supply at most"))
    owns = forms.CharField(
        label=_("Owns the attribute (worn or not)"), required=False, max_length=100
    )
    decided = MultipleChoiceField(
        label=_("Rarity decided by"), required=False, widget=forms.CheckboxSelectMultiple
    )
    near = ChoiceField(label=_("One swap from its own wardrobe reaches"), required=False)
    effect = ChoiceField(label=_("Has the effect"), required=False)
    has_rank = ChoiceField(label=_("Has a GetGems rank"), required=False, choices=TRI)
    order = ChoiceField(label=_("Sort by"), required=False)
    direction = ChoiceField(
        label=_("Direction"),
        required=False,
        choices=(("desc", _("highest first")), ("asc", _("lowest first"))),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["slot"].choices = [("", _("any slot"))] + [
            (slot.value, capfirst(label(slot))) for slot in Slot
        ]
        self.fields["rarity"].choices = [(r.value, label(r)) for r in Rarity]
        self.fields["role"].choices = [(r.value, label(r)) for r in Role]
        self.fields["skill"].choices = [(s.value, label(s)) for s in Skill]
        self.fields["order"].choices = [(key, capfirst(str(name))) for key, name in SORTS.items()]
        for key in self.ENGINE:
            spec = FIELD_BY_NAME[key]
            choices = [(value, capfirst(value_label(spec, value))) for value in spec.choices]
            empty = [] if key == "decided" else [("", _("any"))]
            self.fields[key].choices = empty + choices
        # The collection as it was that day (as:YYYY-MM-DD); a browser's date picker.
        self.fields["as_of"] = DayField(
            label=_("As it was on"),
            required=False,
            widget=forms.TextInput(attrs={"type": "date", "placeholder": "YYYY-MM-DD"}),
        )
        for key, text in self.NUMBERS:
            high = 10**9 - 1
            if key == "score":
                self.fields[f"{key}_min"] = AsciiDecimalField(
                    label=text, required=False, min_value=0, max_value=10**9, decimal_places=1
                )
                self.fields[f"{key}_max"] = AsciiDecimalField(
                    label=text, required=False, min_value=0, max_value=10**9, decimal_places=1
                )
            else:
                self.fields[f"{key}_min"] = _bounded(text, high)
                self.fields[f"{key}_max"] = _bounded(text, high)
        for key, text in self.FACTS:
            self.fields[f"is_{key}"] = ChoiceField(label=text, required=False, choices=self.TRI)

    @classmethod
    def multiple_choices(cls) -> tuple[str, ...]:
        """The fields that carry several values (for the page cache's key)."""
        return tuple(
            name
            for name, field in cls().fields.items()
            if isinstance(field, forms.MultipleChoiceField)
        )

    @property
    def asked(self) -> bool:
        """The address carries the form's fields (it was sent)."""
        return self.is_bound and any(name in self.data for name in self.fields)

    def number_rows(self) -> list[tuple[str, object, forms.BoundField, forms.BoundField]]:
        return [(key, text, self[f"{key}_min"], self[f"{key}_max"]) for key, text in self.NUMBERS]

    def fact_fields(self) -> list[forms.BoundField]:
        return [self[f"is_{key}"] for key, _text in self.FACTS]

    def query(self) -> str:
        """The search the form describes, in the search language (valid forms only)."""
        data = self.cleaned_data
        parts: list[str] = []
        if data.get("name"):
            parts.append(f"name:{_quoted(data['name'])}")
        if data.get("attribute"):
            parts.append(f"{data.get('slot') or 'attr'}:{_quoted(data['attribute'])}")
        for key, field_name in (("rarity", "r"), ("role", "role"), ("skill", "s")):
            chosen = data.get(key) or []
            if chosen:
                alternatives = " or ".join(f"{field_name}:{value}" for value in chosen)
                parts.append(f"({alternatives})" if len(chosen) > 1 else alternatives)
        if data.get("starter") == "include":
            parts.append("(is:starter or not:starter)")
        elif data.get("starter") == "only":
            parts.append("is:starter")
        for key, _text in self.NUMBERS:
            low, high = data.get(f"{key}_min"), data.get(f"{key}_max")
            if low is not None and low == high:
                parts.append(f"{key}={low}")
                continue
            if low is not None:
                parts.append(f"{key}>={low}")
            if high is not None:
                parts.append(f"{key}<={high}")
        if data.get("supply") is not None:
            parts.append(f"supply<={data['supply']}")
        if data.get("owns"):
            parts.append(f"owns:{_quoted(data['owns'])}")
        rules = data.get("decided") or []
        if rules:
            alternatives = " or ".join(f"decided:{rule}" for rule in rules)
            parts.append(f"({alternatives})" if len(rules) > 1 else alternatives)
        for key in ("near", "effect"):
            if data.get(key):
                parts.append(f"{key}:{data[key]}")
        if data.get("has_rank"):
            parts.append("has:rank" if data["has_rank"] == "yes" else "-has:rank")
        for key, _text in self.FACTS:
            answer = data.get(f"is_{key}")
            if answer:
                parts.append(f"is:{key}" if answer == "yes" else f"not:{key}")
        if data.get("as_of"):
            parts.append(f"as:{data['as_of'].isoformat()}")
        order = data.get("order") or DEFAULT_SORT.lstrip("-")
        sort = order if data.get("direction") == "asc" else f"-{order}"
        return with_sort(" ".join(parts), sort)


def _quoted(text: str) -> str:
    """A value as the search language reads it: in quotes unless it is one plain word."""
    cleaned = " ".join(text.replace('"', " ").split())
    if cleaned and all(ch.isalnum() for ch in cleaned):
        return cleaned
    return f'"{cleaned}"'


# ---------------------------------------------------------------------------
# What-if


class AttributeChoiceField(ChoiceField):
    """One slot's attribute by name: the card's own ones, then the whole catalogue.

    The choices are grouped the way the page shows them; checking a name is one set
    look-up (the catalogue has hundreds per slot).
    """

    def __init__(self, slot: Slot, card: CardSpec, catalogue: Catalogue) -> None:
        self.slot = slot
        self.owned = tuple(sorted({(a.name, a.supply) for a in card.owned if a.slot is slot}))
        self.catalogue = catalogue
        # Not their union: at 100,000 cards a slot has ~7,000 names, and building a set of
        # them for each field of each form was a third of a what-if's time there.
        self.owned_names = frozenset(n for n, _s in self.owned)
        self.catalogue_names = catalogue.by_slot[slot]
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
        return value in self.owned_names or value in self.catalogue_names

    def validate(self, value: Any) -> None:
        if value and not self.valid_value(value):
            raise ValidationError(
                _("There is no %(slot)s attribute called “%(name)s”."),
                code="invalid_choice",
                params={"slot": label(self.slot), "name": shorten(value)},
            )


class RankField(AsciiIntegerField):
    """A GetGems rank: ``4`` or ``#4`` (ASCII digits); empty or ``none`` for no rank."""

    def __init__(self) -> None:
        super().__init__(required=False, min_value=1, max_value=MAX_RANK, signed=False)

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


# ---------------------------------------------------------------------------
# A card's history: ?as=YYYY-MM-DD, the changes' pages and the search feed


class DayField(forms.CharField):
    """A day written YYYY-MM-DD, not after today (``code``: ``bad_date``)."""

    def clean(self, value: Any) -> datetime.date | None:
        text = (super().clean(value) or "").strip()
        if not text:
            return None
        try:
            day = datetime.date.fromisoformat(text) if len(text) == 10 else None
        except ValueError:
            day = None
        if day is None:
            raise ValidationError(
                _("“%(value)s” is not a date: write it as YYYY-MM-DD, as in 2026-01-31."),
                code="bad_date",
                params={"value": shorten(text, 40)},
            )
        if day > timezone.localdate():
            raise ValidationError(
                _("%(day)s is in the future: a card can be shown as it was, not as it will be."),
                code="bad_date",
                params={"day": text},
            )
        return day


class AsOfForm(forms.Form):
    """``?as=YYYY-MM-DD`` on a card's page and its JSON: the card as derived that day."""

    def __init__(self, data: Mapping[str, Any] | None = None) -> None:
        super().__init__(data)
        self.fields["as"] = DayField(required=False)

    def day(self) -> datetime.date | None:
        return self.cleaned_data.get("as") if self.is_valid() else None

    def message(self) -> str:
        error = first_error(self)
        return message_of(error) if error is not None else ""


class ChangesForm(forms.Form):
    """``/changes/?page=<n>``: a page number that is not one shows the first page."""

    page = AsciiIntegerField(required=False, min_value=1, signed=False)

    def page_number(self) -> int:
        if self.is_valid():
            return min(self.cleaned_data.get("page") or 1, 10**6)
        return 1


class SearchFeedForm(forms.Form):
    """``/changes/search.atom?q=<query>``: the cards entering and leaving a search."""

    q = QueryField()
