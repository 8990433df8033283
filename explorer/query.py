"""The card search language: one box, many filters.

A query is a list of whitespace-separated terms. A term is ``field`` ``op`` ``value``
(``r:legendary``, ``rank<=80``, ``head:"qx mitten"``); anything else is free text matched
against the card's name and token. ``:`` means "is" (or "contains" for text fields).
Fields have short aliases (``r`` for rarity, ``s`` for skill) and values of closed sets are
checked, so a typo is explained with a suggestion instead of silently matching nothing.

The parser knows nothing about the database: it returns a `Query`, which
`explorer.selectors` turns into a queryset, and `describe` puts into words.

>>> q = parse("r>=epic s:arcane rank<=80 head:crown")
>>> [(t.field, t.op, t.value) for t in q.terms]
[('rarity', '>=', 'epic'), ('skill', '=', 'arcane'), ('rank', '<=', 80), ('head', '=', 'crown')]
>>> parse("rarty:legendary")
Traceback (most recent call last):
...
explorer.query.QueryError: unknown_field
"""

from __future__ import annotations

import difflib
import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from core.labels import LABELS, enum_label
from engine.types import AttributeKind, Rarity, Role, Skill, Slot

OPS = ("<=", ">=", "!=", "<", ">", ":", "=")
_TERM = re.compile(r"^(?P<field>[a-z_#]+)(?P<op><=|>=|!=|<|>|:|=)(?P<value>.*)$", re.IGNORECASE)
MAX_TERMS = 20
MAX_LENGTH = 500


class QueryError(ValueError):
    """A query the parser cannot use, with a message in the visitor's language.

    ``code`` is stable (tests and the API use it); ``message`` is translated.
    """

    def __init__(self, code: str, message: str, term: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.term = term


@dataclass(frozen=True, slots=True)
class FieldSpec:
    """How one field parses and which operators it accepts."""

    key: str
    kind: str  # "enum", "int", "decimal", "text", "bool"
    label: object  # lazy translated label, used by describe()
    aliases: tuple[str, ...] = ()
    choices: tuple[str, ...] = ()
    ordered: bool = False  # enum with an order (rarity): comparisons allowed
    nullable: bool = False  # accepts "none"
    ops: tuple[str, ...] = ("=",)


_NUMBER_OPS = ("=", "!=", "<", "<=", ">", ">=")

FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "rarity",
        "enum",
        gettext_lazy("rarity"),
        ("r",),
        tuple(r.value for r in Rarity),
        ordered=True,
        ops=_NUMBER_OPS,
    ),
    FieldSpec(
        "role", "enum", gettext_lazy("role"), (), tuple(r.value for r in Role), ops=("=", "!=")
    ),
    FieldSpec(
        "skill",
        "enum",
        gettext_lazy("skill affinity"),
        ("s", "affinity"),
        tuple(s.value for s in Skill),
        ops=("=", "!="),
    ),
    FieldSpec(
        "active",
        "enum",
        gettext_lazy("active skill"),
        ("a", "active_skill"),
        tuple(s.value for s in Skill),
        nullable=True,
        ops=("=", "!="),
    ),
    FieldSpec("energy", "int", gettext_lazy("energy cost"), ("nrg", "cost"), ops=_NUMBER_OPS),
    FieldSpec(
        "rank",
        "int",
        gettext_lazy("GetGems rank"),
        ("getgems", "gg"),
        nullable=True,
        ops=_NUMBER_OPS,
    ),
    FieldSpec("burned", "int", gettext_lazy("burned stickers"), ("stickers",), ops=_NUMBER_OPS),
    FieldSpec(
        "supply", "int", gettext_lazy("supply of an equipped attribute"), (), ops=_NUMBER_OPS
    ),
    FieldSpec("atk", "int", gettext_lazy("ATK"), ("attack",), ops=_NUMBER_OPS),
    FieldSpec("hp", "int", gettext_lazy("HP"), ("health",), ops=_NUMBER_OPS),
    FieldSpec("score", "decimal", gettext_lazy("wardrobe score"), ("wardrobe",), ops=_NUMBER_OPS),
    FieldSpec("token", "int", gettext_lazy("token"), ("#", "id"), ops=_NUMBER_OPS),
    FieldSpec("name", "text", gettext_lazy("name"), ()),
    # The slots are named as everywhere on the site (core.labels).
    FieldSpec("head", "text", LABELS[Slot][Slot.HEAD], ()),
    FieldSpec("body", "text", LABELS[Slot][Slot.BODY], ()),
    FieldSpec("paw", "text", LABELS[Slot][Slot.PAW], ()),
    FieldSpec("background", "text", LABELS[Slot][Slot.BACKGROUND], ("bg",)),
    FieldSpec("attr", "text", gettext_lazy("any equipped attribute"), ("attribute",)),
    FieldSpec(
        "kind",
        "enum",
        gettext_lazy("kind of an equipped attribute"),
        (),
        tuple(k.value for k in AttributeKind if k is not AttributeKind.NORMAL),
    ),
    FieldSpec("starter", "bool", gettext_lazy("starter card"), ("free",)),
)
FIELD_BY_NAME: dict[str, FieldSpec] = {}
for _spec in FIELDS:
    FIELD_BY_NAME[_spec.key] = _spec
    for _alias in _spec.aliases:
        FIELD_BY_NAME[_alias] = _spec

SLOT_FIELDS = tuple(s.value for s in Slot)

# sort:<key> or sort:-<key> (descending). The first is the default.
SORTS: dict[str, object] = {
    "rarity": gettext_lazy("rarity"),
    "token": gettext_lazy("token"),
    "rank": gettext_lazy("GetGems rank"),
    "energy": gettext_lazy("energy cost"),
    "atk": gettext_lazy("ATK"),
    "hp": gettext_lazy("HP"),
    "score": gettext_lazy("wardrobe score"),
    "burned": gettext_lazy("burned stickers"),
    "name": gettext_lazy("name"),
}
DEFAULT_SORT = "-rarity"

_TRUE = {"yes", "true", "1", "y", "да"}
_FALSE = {"no", "false", "0", "n", "нет"}
_NONE = {"none", "null", "no", "нет"}


@dataclass(frozen=True, slots=True)
class Term:
    """One parsed filter: a canonical field key, an operator and a typed value."""

    field: str
    op: str
    value: object


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: filters, free-text words and the sort order."""

    terms: tuple[Term, ...] = ()
    words: tuple[str, ...] = ()
    sort: str = DEFAULT_SORT

    @property
    def wants_free_cards(self) -> bool:
        """Free (starter) cards stay out of listings unless the query asks for them."""
        for term in self.terms:
            if term.field == "starter" and term.value is True:
                return True
            if term.field == "rarity" and term.op in ("=", "<=", "<") and term.value == "free":
                return True
            if term.field == "token" and term.op == "=":
                return True
        return False


_ASCII_INT = re.compile(r"[0-9]{1,9}")
_WORD_TOKEN = re.compile(r"#*([0-9]{1,9})")


def ascii_int(text: str) -> int | None:
    """A whole number of the query language: one to nine ASCII digits, else None.

    ``str.isdigit`` and ``int`` accept other scripts' digits ("٣", "１") and ``isdigit``
    even superscripts, which ``int`` then refuses ("²"): the language reads 0–9 only.

    >>> ascii_int("80"), ascii_int("٣"), ascii_int("²"), ascii_int("1234567890")
    (80, None, None, None)
    """
    return int(text) if _ASCII_INT.fullmatch(text) else None


def word_token(word: str) -> int | None:
    """The token a free word may also mean ("17", "#17"), else None.

    >>> word_token("#17"), word_token("fox"), word_token("²")
    (17, None, None)
    """
    match = _WORD_TOKEN.fullmatch(word)
    return int(match.group(1)) if match else None


def _bad_number(raw: str, term: str) -> QueryError:
    return QueryError(
        "bad_number",
        _("“%(value)s” is not a whole number of up to nine digits 0–9 (in “%(term)s”).")
        % {"value": raw, "term": term},
        term,
    )


def _suggest(word: str, choices: list[str]) -> str | None:
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return found[0] if found else None


def _split(text: str) -> list[str]:
    try:
        lexer = shlex.shlex(text, posix=True)
        lexer.whitespace_split = True
        lexer.commenters = ""
        return list(lexer)
    except ValueError:
        raise QueryError("unclosed_quote", _("A quotation mark is not closed.")) from None


def _parse_value(spec: FieldSpec, op: str, raw: str, term: str) -> object:
    value = raw.strip().lower() if spec.kind != "text" else raw.strip()
    if not value:
        raise QueryError(
            "missing_value",
            _("“%(term)s” needs a value after the operator.") % {"term": term},
            term,
        )
    if spec.nullable and value.lower() in _NONE:
        if op not in ("=", "!="):
            raise QueryError(
                "bad_operator",
                _("“%(op)s” cannot be used with “none”.") % {"op": op},
                term,
            )
        return None
    if spec.kind == "enum":
        if value not in spec.choices:
            hint = _suggest(value, list(spec.choices))
            message = _("“%(value)s” is not a %(field)s. Use one of: %(choices)s.") % {
                "value": raw,
                "field": spec.label,
                "choices": ", ".join(spec.choices + (("none",) if spec.nullable else ())),
            }
            if hint:
                message = _("%(message)s Did you mean “%(hint)s”?") % {
                    "message": message,
                    "hint": hint,
                }
            raise QueryError("bad_choice", message, term)
        return value
    if spec.kind == "int":
        number = ascii_int(value)
        if number is None:
            raise _bad_number(raw, term)
        return number
    if spec.kind == "decimal":
        try:
            # Decimal() would read other scripts' digits too: the language is ASCII only.
            number = Decimal(value) if value.isascii() else None
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or number < 0 or number > 10**9:
            raise QueryError(
                "bad_number",
                _("“%(value)s” is not a number written with the digits 0–9 (in “%(term)s”).")
                % {"value": raw, "term": term},
                term,
            )
        return number
    if spec.kind == "bool":
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise QueryError(
            "bad_bool",
            _("“%(term)s” takes yes or no.") % {"term": term},
            term,
        )
    if len(value) > 100:
        raise QueryError("too_long", _("That search is too long."), term)
    return value


def parse(text: str) -> Query:
    """Parse a query string into a `Query`, or raise `QueryError` explaining the first problem.

    >>> parse('paw:"qx mitten" burned>=1 sort:-rank').sort
    '-rank'
    >>> parse("fox 17").words
    ('fox', '17')
    """
    text = (text or "").strip()
    if len(text) > MAX_LENGTH:
        raise QueryError("too_long", _("That search is too long."))
    terms: list[Term] = []
    words: list[str] = []
    sort = DEFAULT_SORT
    for token in _split(text):
        match = _TERM.match(token)
        if match is None:
            if token.startswith("#") and token[1:].isnumeric():
                # "#17" is a token; "#²" or "#٣" only looks like one.
                number = ascii_int(token[1:])
                if number is None:
                    raise _bad_number(token[1:], token)
                terms.append(Term("token", "=", number))
            else:
                words.append(token)
            continue
        name, op, raw = match.group("field").lower(), match.group("op"), match.group("value")
        if name == "sort":
            key = raw.strip().lower()
            if key.lstrip("-") not in SORTS:
                hint = _suggest(key.lstrip("-"), list(SORTS))
                message = _(
                    "“%(value)s” is not something cards can be sorted by. Use one of: %(choices)s."
                ) % {
                    "value": raw,
                    "choices": ", ".join(SORTS),
                }
                if hint:
                    message = _("%(message)s Did you mean “%(hint)s”?") % {
                        "message": message,
                        "hint": hint,
                    }
                raise QueryError("bad_sort", message, token)
            sort = key
            continue
        spec = FIELD_BY_NAME.get(name)
        if spec is None:
            hint = _suggest(name, [*FIELD_BY_NAME, "sort"])
            if hint:
                message = _("Unknown field “%(field)s” — did you mean “%(hint)s”?") % {
                    "field": name,
                    "hint": hint,
                }
            else:
                message = _(
                    "Unknown field “%(field)s”. See the search help for the list of fields."
                ) % {"field": name}
            raise QueryError("unknown_field", message, token)
        op = "=" if op == ":" else op
        if op not in spec.ops:
            raise QueryError(
                "bad_operator",
                _("“%(op)s” cannot be used with %(field)s (in “%(term)s”).")
                % {"op": op, "field": spec.label, "term": token},
                token,
            )
        value = _parse_value(spec, op, raw, token)
        terms.append(Term(spec.key, op, value))
        if len(terms) > MAX_TERMS:
            raise QueryError("too_many", _("Use at most %(n)d filters.") % {"n": MAX_TERMS})
    return Query(tuple(terms), tuple(words), sort)


_OP_WORDS: dict[str, Callable[[], str]] = {
    "=": lambda: _("is"),
    "!=": lambda: _("is not"),
    "<": lambda: _("is below"),
    "<=": lambda: _("is at most"),
    ">": lambda: _("is above"),
    ">=": lambda: _("is at least"),
}

# Rarities are ranked, not counted: "at least Epic" reads differently in Russian.
_RARITY_OP_WORDS: dict[str, Callable[[], str]] = {
    "=": lambda: _("is"),
    "!=": lambda: _("is not"),
    "<": lambda: pgettext("rarity comparison", "is below"),
    "<=": lambda: pgettext("rarity comparison", "is at most"),
    ">": lambda: pgettext("rarity comparison", "is above"),
    ">=": lambda: pgettext("rarity comparison", "is at least"),
}


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


def value_label(spec: FieldSpec, value: object) -> str:
    """A value as a visitor reads it (enum values use the site's translated labels)."""
    if value is None:
        return _("none")
    if spec.kind == "enum":
        return str(enum_label(spec.key, str(value)))
    if spec.kind == "bool":
        return _("yes") if value else _("no")
    return str(value)


def describe(query: Query) -> list[str]:
    """Each filter of the query as a short sentence in the active language."""
    parts: list[str] = []
    for term in query.terms:
        spec = FIELD_BY_NAME[term.field]
        if spec.kind == "text":
            if term.field in SLOT_FIELDS:
                parts.append(
                    _("%(slot)s attribute contains “%(text)s”")
                    % {"slot": _capitalise(str(spec.label)), "text": term.value}
                )
            elif term.field == "attr":
                parts.append(_("an equipped attribute contains “%(text)s”") % {"text": term.value})
            else:
                parts.append(_("name contains “%(text)s”") % {"text": term.value})
            continue
        if term.field == "supply":
            parts.append(
                _("an equipped attribute has supply that %(op)s %(value)s")
                % {"op": _OP_WORDS[term.op](), "value": term.value}
            )
            continue
        parts.append(
            _("%(field)s %(op)s %(value)s")
            % {
                "field": _capitalise(str(spec.label)),
                "op": _RARITY_OP_WORDS[term.op]() if spec.ordered else _OP_WORDS[term.op](),
                "value": value_label(spec, term.value),
            }
        )
    if query.words:
        parts.append(_("name or token matches “%(text)s”") % {"text": " ".join(query.words)})
    return parts


def describe_sort(query: Query) -> str:
    key = query.sort.lstrip("-")
    if query.sort.startswith("-"):
        return _("sorted by %(key)s, highest first") % {"key": SORTS[key]}
    return _("sorted by %(key)s, lowest first") % {"key": SORTS[key]}
