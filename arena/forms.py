"""Every request parameter of the arena goes through one of these forms (never hand
parsing: ``"²".isdigit()`` is True and ``int("²")`` raises)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

from core.forms import (
    AsciiDecimalField,
    AsciiIntegerField,
    ChoiceField,
    MultipleChoiceField,
    TypedChoiceField,
)
from core.labels import choices
from engine.arena.bots import ArenaBot
from engine.arena.slabs import GRADE_MAX, GRADE_MIN, GRADE_STEP, Bracket, Element, SlabTier

from . import importing
from .models import ASSET_ID_MAX, VALUE_MAX_DIGITS, asset_id_validator
from .selectors import SlabFilters

__all__ = [
    "DayForm",
    "MatchStartForm",
    "MoveForm",
    "PageForm",
    "ReplayForm",
    "SlabFilterForm",
    "SurrenderForm",
    "TeamEditForm",
    "TeamLinkForm",
    "ValuesFileForm",
]

DATE_FORMATS = ["%Y-%m-%d"]
FIRST_DATE = dt.date(1990, 1, 1)
LAST_DATE = dt.date(2200, 12, 31)


def _grades() -> list[tuple[str, str]]:
    """Every grade, 1 to 10 in half steps: ("1", "1"), ("1.5", "1.5"), …"""
    steps = int((GRADE_MAX - GRADE_MIN) / GRADE_STEP)
    values = [Decimal(GRADE_MIN) + i * GRADE_STEP for i in range(steps + 1)]
    texts = [str(int(v)) if v == int(v) else str(v) for v in values]
    return [(t, t) for t in texts]


class DayForm(forms.Form):
    """``?date=YYYY-MM-DD``: the day to show (empty: today, UTC)."""

    date = forms.DateField(
        label=_("Day (UTC)"),
        required=False,
        input_formats=DATE_FORMATS,
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        error_messages={"invalid": _("Give a date as YYYY-MM-DD, for example 2026-01-31.")},
    )

    def clean_date(self) -> dt.date | None:
        day = self.cleaned_data.get("date")
        if day is not None and not FIRST_DATE <= day <= LAST_DATE:
            raise forms.ValidationError(
                _("Give a date between %(first)s and %(last)s."),
                params={"first": FIRST_DATE.isoformat(), "last": LAST_DATE.isoformat()},
                code="range",
            )
        return day


class PageForm(forms.Form):
    page = AsciiIntegerField(required=False, min_value=1, max_value=100_000)


SORT_CHOICES = [
    ("value_desc", _("Value, highest first")),
    ("value_asc", _("Value, lowest first")),
    ("name", _("Card name")),
    ("grade_desc", _("Grade, highest first")),
    ("year_asc", _("Year, oldest first")),
]


class SlabFilterForm(DayForm):
    """The slab explorer's filters (all optional)."""

    q = forms.CharField(label=_("Card name or asset ID"), required=False, max_length=100)
    tier = MultipleChoiceField(
        label=_("Tier"),
        required=False,
        choices=choices(SlabTier),
        widget=forms.CheckboxSelectMultiple,
    )
    element = MultipleChoiceField(
        label=_("Element"),
        required=False,
        choices=choices(Element),
        widget=forms.CheckboxSelectMultiple,
    )
    grade_min = TypedChoiceField(
        label=_("Grade from"), required=False, choices=[("", "—"), *_grades()], coerce=Decimal,
        empty_value=None,
    )  # fmt: skip
    grade_max = TypedChoiceField(
        label=_("Grade to"), required=False, choices=[("", "—"), *_grades()], coerce=Decimal,
        empty_value=None,
    )  # fmt: skip
    year_min = AsciiIntegerField(label=_("Year from"), required=False, min_value=1, max_value=9999)
    year_max = AsciiIntegerField(label=_("Year to"), required=False, min_value=1, max_value=9999)
    value_min = AsciiDecimalField(
        label=_("Value from ($)"), required=False, min_value=0,
        max_digits=VALUE_MAX_DIGITS, decimal_places=2,
    )  # fmt: skip
    value_max = AsciiDecimalField(
        label=_("Value to ($)"), required=False, min_value=0,
        max_digits=VALUE_MAX_DIGITS, decimal_places=2,
    )  # fmt: skip
    bracket = ChoiceField(
        label=_("Fits the bracket"),
        required=False,
        choices=[("", pgettext_lazy("bracket filter", "any")), *choices(Bracket)],
    )
    sort = ChoiceField(label=_("Sort by"), required=False, choices=SORT_CHOICES)
    page = AsciiIntegerField(required=False, min_value=1, max_value=100_000)

    def filters(self) -> SlabFilters:
        """The valid form's filters, as the selectors take them."""
        data = self.cleaned_data
        return SlabFilters(
            q=data["q"].strip(),
            tiers=frozenset(SlabTier(t) for t in data["tier"]),
            elements=frozenset(Element(e) for e in data["element"]),
            grade_min=data["grade_min"],
            grade_max=data["grade_max"],
            year_min=data["year_min"],
            year_max=data["year_max"],
            value_min=data["value_min"],
            value_max=data["value_max"],
            bracket=Bracket(data["bracket"]) if data["bracket"] else None,
            sort=data["sort"] or "value_desc",
        )

    def clean(self):
        data = super().clean()
        for low, high in (("grade_min", "grade_max"), ("year_min", "year_max"),
                          ("value_min", "value_max")):  # fmt: skip
            a, b = data.get(low), data.get(high)
            if a is not None and b is not None and a > b:
                self.add_error(high, _("This must not be below the lower bound."))
        return data


class TeamEditForm(forms.Form):
    """A change to the session's team (POST)."""

    OPS = ("add", "remove", "lead", "clear", "fill", "use")
    op = ChoiceField(choices=[(o, o) for o in OPS])
    asset_id = forms.CharField(required=False, max_length=ASSET_ID_MAX)
    bracket = ChoiceField(required=False, choices=[("", ""), *choices(Bracket)])
    slab = MultipleChoiceField(required=False)  # for "use": the permalink's slabs
    next = forms.CharField(required=False, max_length=2000)

    def clean_slab(self) -> list[str]:
        return self.cleaned_data.get("slab") or []

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # Any asset ID may be sent; each is checked as an asset ID, not against a list.
        self.fields["slab"].valid_value = lambda value: _valid_asset_id(value)  # type: ignore[attr-defined]


def _valid_asset_id(value: str) -> bool:
    try:
        asset_id_validator(value)
    except forms.ValidationError:
        return False
    return True


class TeamLinkForm(DayForm):
    """A team permalink: ``?slab=…&slab=…`` (up to four asset IDs) and an optional day."""

    slab = MultipleChoiceField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slab"].valid_value = lambda value: _valid_asset_id(value)  # type: ignore[attr-defined]

    def clean_slab(self) -> list[str]:
        slabs = self.cleaned_data.get("slab") or []
        if len(slabs) > 8:
            raise forms.ValidationError(_("A team link holds at most four slabs."))
        return slabs


class MatchStartForm(forms.Form):
    """Enter the arena with the session's team."""

    bracket = ChoiceField(label=_("Bracket"), choices=choices(Bracket))
    lead = forms.CharField(label=_("On the field first"), required=False, max_length=ASSET_ID_MAX)
    bot = ChoiceField(
        label=_("Opponent"),
        choices=[c for c in choices(ArenaBot) if c[0] != ArenaBot.RANDOM],
        initial=ArenaBot.PLANNER.value,
    )


class MoveForm(forms.Form):
    """A move in a match: the action count the page was made for, and the move."""

    turn = AsciiIntegerField(min_value=0, max_value=10_000)
    move = ChoiceField(choices=())

    def __init__(self, *args, **kwargs):
        from .services import MOVES

        super().__init__(*args, **kwargs)
        self.fields["move"].choices = [(m, m) for m in MOVES]


class SurrenderForm(forms.Form):
    """``confirmed=1`` surrenders; anything else asks first (the no-JS confirmation step)."""

    confirmed = forms.BooleanField(required=False)


class ReplayForm(forms.Form):
    turn = AsciiIntegerField(required=False, min_value=0, max_value=10_000)


class ValuesFileForm(forms.Form):
    """The admin's import of a daily values file: CSV or JSON, read (``clean_file``) into
    raw rows; ``arena.services.import_feed`` checks and stores them (all or none), and
    ``refuse`` puts each of its problems on the form."""

    MAX_BYTES = 20 * 1024 * 1024

    file = forms.FileField(
        label=_("Values file"),
        help_text=_(
            "CSV with a header naming asset_id, date and value, or JSON: a list of "
            "{asset_id, date, value} objects. Every row is checked before anything is stored."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.problems: list[importing.Problem] = []

    def clean_file(self) -> list[importing.RawRow]:
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is larger than %(mb)s MB."), params={"mb": self.MAX_BYTES >> 20}
            )
        try:
            return importing.parse(upload.read(), upload.name)
        except importing.FeedError as exc:
            self.refuse(exc.problems)
            raise forms.ValidationError(str(exc)) from None

    def refuse(self, problems: list[importing.Problem]) -> None:
        """The feed's problems (each located): the form is invalid, and says why."""
        self.problems = problems
        if "file" not in self.errors:
            self.add_error(
                "file",
                ngettext_lazy(
                    "%(n)s problem; nothing was imported.",
                    "%(n)s problems; nothing was imported.",
                    "n",
                )
                % {"n": len(problems)},
            )
