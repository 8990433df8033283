"""Request input of the booster pages, and the pool admin's form.

Every number a visitor sends (a page, a reveal step, how many packs to check, a seed)
goes through a Django form: "²" or "1e9" is a form error, never a crash.
"""

from __future__ import annotations

import datetime as dt
import re
import secrets
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Rarity
from core.forms import AsciiIntegerField, ModelMultipleChoiceField
from engine.ledger import CLIENT_SEED_MAX

from .models import RESERVED_SLUGS, Pool
from .narration import REFUSALS, Refusal

CHECK_PACKS_DEFAULT = 2_000
CHECK_PACKS_MAX = 20_000  # a check draws at ~100,000 packs a second: a bounded request
SEED_MAX = 2**63 - 1


class PageForm(forms.Form):
    page = AsciiIntegerField(min_value=1, max_value=10**6, required=False)


class RevealForm(forms.Form):
    """``shown``: how many of the pack's cards are turned over (the rest face down)."""

    shown = AsciiIntegerField(min_value=0, max_value=100, required=False)


class CheckForm(forms.Form):
    """How many packs to simulate, and (optionally) the seed, to repeat a check."""

    n = AsciiIntegerField(
        label=_("Packs to open"),
        min_value=1,
        max_value=CHECK_PACKS_MAX,
        initial=CHECK_PACKS_DEFAULT,
    )
    seed = AsciiIntegerField(
        max_digits=40,  # past SEED_MAX: a long seed hears "at most …", not "not a number"
        label=_("Seed (optional)"),
        min_value=0,
        max_value=SEED_MAX,
        required=False,
        help_text=_("Leave empty for a fresh random check; give a seed to repeat one."),
    )


def proposed_client_seed() -> str:
    """A client seed the server proposes when the browser did not make one (no
    JavaScript): random, and the person may change it before opening."""
    return secrets.token_hex(8)


class OpenForm(forms.Form):
    """The player's client seed (1–64 characters of any text), for one opening."""

    client_seed = forms.CharField(
        label=_("Your client seed"),
        strip=False,
        required=False,  # an empty one is refused below, in the refusals' words
        help_text=_(
            "Any text of 1 to 64 characters. It is mixed with the day's secret server seed, "
            "so neither side alone decides the cards."
        ),
    )

    def clean_client_seed(self) -> str:
        seed = self.cleaned_data.get("client_seed") or ""
        if not seed:
            params = {"max": CLIENT_SEED_MAX}
            raise forms.ValidationError(REFUSALS.say(Refusal.CLIENT_SEED_EMPTY, params))
        if len(seed) > CLIENT_SEED_MAX:
            params = {"max": CLIENT_SEED_MAX, "length": len(seed)}
            raise forms.ValidationError(REFUSALS.say(Refusal.CLIENT_SEED_LONG, params))
        return seed


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


class LedgerDay:
    """A ledger's date from its address, parsed: ``day`` or ``refusal`` with ``params``
    (not a date, a day to come) and the HTTP status to answer it with."""

    def __init__(self, text: str, today: dt.date) -> None:
        self.text = text
        self.day: dt.date | None = None
        self.refusal: Refusal | None = None
        self.status = 200
        try:
            if not _DATE.fullmatch(text):
                raise ValueError(text)
            self.day = dt.date.fromisoformat(text)
        except ValueError:
            self.refusal, self.status = Refusal.BAD_DATE, 400
            return
        if self.day > today:
            self.refusal, self.status, self.day = Refusal.FUTURE_DATE, 404, None

    @property
    def params(self) -> dict[str, str]:
        return {"date": self.text[:40]}


_SOURCE = re.compile(r"/api/packs/(openings/[0-9a-f-]{36}|ledger/[0-9]{4}-[0-9]{2}-[0-9]{2})")


def verify_source(query: Any) -> str:
    """The verifier's ``?opening=`` or ``?ledger=``: an address of this site's packs API to
    load, or "" (anything else is ignored: the page never fetches another site)."""
    asked = query.get("opening") or query.get("ledger") or ""
    return asked if _SOURCE.fullmatch(asked) else ""


class PoolAdminForm(forms.ModelForm):
    """The pool's fields; refuses Free cards and a card listed twice, each by name."""

    class Meta:
        model = Pool
        fields = (
            "name_en",
            "name_ru",
            "slug",
            "description_en",
            "description_ru",
            "position",
            "pack_size",
            "cards",
        )
        # A refused card id is repeated shortened, in core.forms' sentence.
        field_classes = {"cards": ModelMultipleChoiceField}

    def clean_slug(self) -> str:
        slug = self.cleaned_data["slug"]
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(
                _("“%(slug)s” is the address of another booster page; choose another one.")
                % {"slug": slug}
            )
        return slug

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cards = self.fields.get("cards")
        if cards is not None:
            # The picker offers catalogue cards only (limit_choices_to); accepting any card
            # here lets clean_cards say *why* a Free card is refused, instead of Django's
            # generic "not one of the available choices".
            cards.queryset = Card.objects.all()
            cards.help_text = _(
                "Type a name or a token to add a card. Free (starter) cards never enter a "
                "pool; each card is listed once."
            )

    def clean_cards(self):
        chosen = self.cleaned_data.get("cards")
        raw = self.data.getlist(self.add_prefix("cards")) if hasattr(self.data, "getlist") else []
        seen: set[str] = set()
        twice = []
        for value in raw:
            if value in seen and value not in twice:
                twice.append(value)
            seen.add(value)
        errors = []
        if twice:
            names = Card.objects.filter(pk__in=[v for v in twice if v.isascii() and v.isdigit()])
            errors.append(
                _("Each card enters a pool once; listed twice: %(cards)s.")
                % {"cards": ", ".join(str(c) for c in names) or ", ".join(twice)}
            )
        if chosen is not None:
            free = [c for c in chosen if c.starter or c.rarity == Rarity.FREE]
            if free:
                errors.append(
                    _("Free cards never enter a pool: %(cards)s.")
                    % {"cards": ", ".join(str(c) for c in free)}
                )
        if errors:
            raise forms.ValidationError(errors)
        return chosen
