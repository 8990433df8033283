"""Request input of the booster pages, and the pool admin's form.

Every number a visitor sends (a page, a reveal step, how many packs to check, a seed)
goes through a Django form: "²" or "1e9" is a form error, never a crash.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from cards.models import Card, Rarity
from core.forms import AsciiIntegerField, ModelMultipleChoiceField

from .models import RESERVED_SLUGS, Pool

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
