"""Form fields every app reads request parameters with."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

__all__ = [
    "AsciiIntegerField",
    "ChoiceField",
    "MultipleChoiceField",
    "TypedChoiceField",
    "shorten",
]

#: How much of what a visitor typed a page repeats back (a heading, an error message).
ECHO_CHARS = 80


def shorten(text: object, limit: int = ECHO_CHARS) -> str:
    """``text`` as a page repeats it back: at most ``limit`` characters, cut with "…".

    >>> shorten("short"), shorten("x" * 100, 5)
    ('short', 'xxxx…')
    """
    text = "" if text is None else str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: At most 12 digits: more is no number a page of this site counts to (a seed may ask
#: for more with ``max_digits``).
MAX_DIGITS = 12


class AsciiIntegerField(forms.IntegerField):
    """An integer of at most ``max_digits`` ASCII digits (with an optional sign unless
    ``signed=False``): the one way every app reads a whole number from a request.

    Django's own field also reads "٣" or "１" as 3, and ``"²".isdigit()`` is True while
    ``int("²")`` raises: neither is a number a visitor typed into an address here.
    Blank is no value; anything else is the field's "invalid" error.

    >>> field = AsciiIntegerField(required=False)
    >>> field.clean(" 42 "), field.clean("-3"), field.clean("")
    (42, -3, None)
    >>> field.clean("４")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Enter a whole number.']
    """

    def __init__(self, *, signed: bool = True, max_digits: int = MAX_DIGITS, **kwargs: Any) -> None:
        sign = "[+-]?" if signed else ""
        self.pattern = re.compile(f"{sign}[0-9]{{1,{max_digits}}}")
        super().__init__(**kwargs)

    def to_python(self, value: Any) -> int | None:
        text = "" if value is None else str(value).strip()
        if text and not self.pattern.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text)


class _FriendlyChoice:
    """A refused choice said in a sentence that repeats what was sent only shortened
    (Django's "Select a valid choice. … is not one of the available choices." repeats all
    of it: a 3,000-character value stretched a page to 31,025 px)."""

    default_error_messages = {
        "invalid_choice": _("“%(value)s” is not one of the choices offered here."),
    }

    def clean(self, value: Any) -> Any:
        try:
            return super().clean(value)  # type: ignore[misc]
        except forms.ValidationError as error:
            params = getattr(error, "params", None) or {}
            if getattr(error, "code", None) != "invalid_choice" or "value" not in params:
                raise  # a field's own sentence (it shortens what it repeats itself)
            shown = params["value"]
            raise forms.ValidationError(
                self.error_messages["invalid_choice"],  # type: ignore[attr-defined]
                code="invalid_choice",
                params={"value": shorten(shown)},
            ) from None


class ChoiceField(_FriendlyChoice, forms.ChoiceField):
    """Django's ``ChoiceField`` with a refusal that never repeats a huge value."""


class TypedChoiceField(_FriendlyChoice, forms.TypedChoiceField):
    """Django's ``TypedChoiceField`` with a refusal that never repeats a huge value."""


class MultipleChoiceField(_FriendlyChoice, forms.MultipleChoiceField):
    """Django's ``MultipleChoiceField`` with a refusal that never repeats a huge value."""
