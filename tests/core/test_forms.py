"""core.forms: the one way a whole number is read from a request (ASCII digits only)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django import forms
from django.conf import settings

from cards.forms import TokenField, parse_token
from core.forms import AsciiIntegerField

ROOT = Path(settings.BASE_DIR)
# Digits of other scripts that ``int`` reads (Arabic-Indic, fullwidth, Devanagari) and one
# it refuses although ``str.isdigit`` says yes (a superscript).
FOREIGN = ["١", "٣", "４", "１２", "७", "²"]


@pytest.mark.parametrize("value", FOREIGN)
def test_digits_of_other_scripts_are_no_number(value):
    with pytest.raises(forms.ValidationError):
        AsciiIntegerField(required=False).clean(value)


def test_ascii_numbers_with_their_bounds_and_width():
    field = AsciiIntegerField(required=False, signed=False, max_digits=3)
    assert field.clean("123") == 123 and field.clean("") is None
    for bad in ("1234", "-1", "+1", "1.0"):
        with pytest.raises(forms.ValidationError):
            field.clean(bad)
    assert AsciiIntegerField().clean(" -12 ") == -12


@pytest.mark.parametrize("value", ["٤٢", "#٤٢", "４２", "#４２"])
def test_a_card_token_is_ascii_digits(value):
    assert parse_token(value) is None
    with pytest.raises(forms.ValidationError):
        TokenField().clean(value)
    assert parse_token(value.translate(str.maketrans("٤٢４２", "4242"))) == 42


def test_every_integer_or_choice_field_of_a_request_form_is_cores():
    """Django's ``forms.IntegerField`` reads "٣" as 3 (its ``DecimalField`` and ``FloatField``
    read "١٫٥" as 1.5), and its choice fields repeat a refused value whole: every app's
    forms use ``core.forms``' fields (or fields built on them)."""
    bare = re.compile(
        r"\bforms\.(IntegerField|DecimalField|FloatField|ChoiceField|TypedChoiceField"
        r"|MultipleChoiceField|ModelMultipleChoiceField)\b"
    )
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for app in (
            "cards",
            "explorer",
            "play",
            "packs",
            "arena",
            "wiki",
            "sharing",
            "codex_site",
            "core",
            "config",
        )
        for path in sorted((ROOT / app).rglob("*.py"))
        if path.name != "models.py" and "migrations" not in path.parts
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
        and "isinstance(" not in line
        and path.parts[-2:] != ("core", "forms.py")
    ]
    assert not found, "use core.forms' fields instead:\n" + "\n".join(found)
