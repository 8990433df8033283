"""Form fields every app reads request parameters with."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.text import Truncator
from django.utils.translation import gettext_lazy as _

__all__ = [
    "AsciiDecimalField",
    "AsciiIntegerField",
    "ChoiceField",
    "ModelMultipleChoiceField",
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
    return Truncator("" if text is None else str(text)).chars(limit)


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


class AsciiDecimalField(forms.DecimalField):
    """A decimal number of ASCII digits, with an optional sign and a decimal point: the
    one way every app reads a number with a fraction from a request (the same policy as
    ``AsciiIntegerField``; ``max_digits`` and ``decimal_places`` bound it further).

    Django's own field reads "٣" or "４" as 3 or 4, "١٫٥" as 1.5 and "1e3" as 1000: none is
    a number a visitor typed here. Blank is no value; anything else is the field's
    "invalid" error.

    >>> field = AsciiDecimalField(required=False)
    >>> field.clean(" 1.5 "), field.clean("-.25"), field.clean("")
    (Decimal('1.5'), Decimal('-0.25'), None)
    >>> field.clean("١٫٥")
    Traceback (most recent call last):
    ...
    django.core.exceptions.ValidationError: ['Enter a number.']
    """

    pattern = re.compile(
        f"[+-]?(?:[0-9]{{1,{MAX_DIGITS}}}(?:[.][0-9]{{0,{MAX_DIGITS}}})?|[.][0-9]{{1,{MAX_DIGITS}}})"
    )

    def to_python(self, value: Any) -> Decimal | None:
        text = "" if value is None else str(value).strip()
        if text and not self.pattern.fullmatch(text):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(text)


class _FriendlyChoice(forms.Field):
    """A refused choice said in a sentence that repeats what was sent only shortened
    (Django's "Select a valid choice. … is not one of the available choices." repeats all
    of it: a 3,000-character value stretched a page to 31,025 px). A mixin placed before
    one of Django's choice fields, whose ``clean`` it wraps."""

    default_error_messages = {
        "invalid_choice": _("“%(value)s” is not one of the choices offered here."),
    }

    #: Django's refusals that repeat what was sent: their code and the parameter holding it
    #: (``invalid_pk_value`` is a model choice field's id that is no id at all).
    ECHOED = {"invalid_choice": "value", "invalid_pk_value": "pk"}

    def clean(self, value: Any) -> Any:
        try:
            return super().clean(value)
        except forms.ValidationError as error:
            code = getattr(error, "code", None)
            params = getattr(error, "params", None) or {}
            if code not in self.ECHOED or self.ECHOED[code] not in params:
                raise  # a field's own sentence (it shortens what it repeats itself)
            raise forms.ValidationError(
                self.error_messages[code],
                code=code,
                params={name: shorten(shown) for name, shown in params.items()},
            ) from None


class ChoiceField(_FriendlyChoice, forms.ChoiceField):
    """Django's ``ChoiceField`` with a refusal that never repeats a huge value."""


class TypedChoiceField(_FriendlyChoice, forms.TypedChoiceField):
    """Django's ``TypedChoiceField`` with a refusal that never repeats a huge value."""


class MultipleChoiceField(_FriendlyChoice, forms.MultipleChoiceField):
    """Django's ``MultipleChoiceField`` with a refusal that never repeats a huge value."""


class ModelMultipleChoiceField(_FriendlyChoice, forms.ModelMultipleChoiceField):
    """Django's ``ModelMultipleChoiceField`` with a refusal that never repeats a huge value,
    and a form shown again without the values that are no key at all: the admin's
    autocomplete widget looks the sent values up to label them, and "x" as an id was a
    ``ValueError`` there (a 500) once the form was refused."""

    def bound_data(self, data: Any, initial: Any) -> Any:
        shown = super().bound_data(data, initial)  # what a refused form shows again
        if not isinstance(shown, list | tuple):
            return shown
        meta = self.queryset.model._meta
        key = meta.get_field(self.to_field_name) if self.to_field_name else meta.pk
        return [item for item in shown if _is_key(key, item)]


def _is_key(key: Any, value: Any) -> bool:
    """Whether ``value`` reads as a value of the model field ``key`` (a row's id or key)."""
    try:
        key.to_python(value)
    except ValidationError:
        return False
    return True
