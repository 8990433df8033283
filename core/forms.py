"""Form fields every app reads request parameters with."""

from __future__ import annotations

import re
from typing import Any

from django import forms

__all__ = ["AsciiIntegerField"]

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
