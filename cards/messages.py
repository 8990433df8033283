"""Engine input errors in the reader's language.

``engine`` raises ``InvalidCardError`` with a stable ``code`` and its ``params``
(its own message is plain English); ``invalid_card_message`` turns the code into
a translated sentence, keeping the engine's English for a code it does not know.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from engine.types import InvalidCardError

__all__ = ["invalid_card_message"]

_MESSAGES = {
    "object": _("must be an object"),
    "list": _("must be a list"),
    "unknown_field": _("unknown field"),
    "missing": _("is required"),
    "min_int": _("must be an integer ≥ %(minimum)s"),
    "min_int_or_null": _("must be an integer ≥ %(minimum)s or null"),
    "non_empty_string": _("must be a non-empty string"),
    "string": _("must be a string"),
    "boolean": _("must be true or false"),
    "unknown_slot": _("unknown slot %(value)s (expected head, body, paw or background)"),
    "unknown_kind": _("unknown kind %(value)s (expected normal, god or premium)"),
    "unknown_rarity": _("unknown rarity %(value)s (expected common, rare, epic or legendary)"),
    "slot_mismatch": _("names another slot than the one it is equipped in"),
    "pair": _("must be a [slot, name] pair"),
    "duplicate_slot": _("names a slot twice"),
    "non_empty_list": _("must list at least one attribute"),
    "conflicting_attribute": _("conflicts with another owned attribute of the same slot and name"),
    "combo_rarity": _("must be common, rare, epic or legendary"),
    "json": _("not valid JSON (line %(line)s, column %(column)s)"),
    "encoding": _("not UTF-8 text"),
    "json_depth": _("JSON nested too deeply"),
    "json_number": _("not valid JSON (a number too large to read)"),
    "max_int": _("must be at most %(maximum)s (2^63 − 1)"),
    "too_long": _("must be at most %(maximum)s characters (this one has %(length)s)"),
    "nul": _("must not contain a NUL character"),
    "surrogate": _("must be text (it holds a lone surrogate, such as \\ud800)"),
}
# Used when the error carries no "value" parameter.
_WITHOUT_VALUE = {
    "unknown_slot": _("must be head, body, paw or background"),
    "unknown_kind": _("must be normal, god or premium"),
    "unknown_rarity": _("must be common, rare, epic or legendary"),
}


def _shown(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False) if not isinstance(value, int) else str(value)


def invalid_card_message(error: InvalidCardError) -> str:
    """The error's message (without its field) in the active language."""
    template = _MESSAGES.get(error.code)
    if template is None:
        return error.message
    params = dict(error.params)
    if "value" in params:
        params["value"] = _shown(params["value"])
    elif error.code in _WITHOUT_VALUE:
        return str(_WITHOUT_VALUE[error.code])
    try:
        return str(template) % params
    except (KeyError, TypeError, ValueError):
        return error.message
