"""The card search language: one box, many filters, joined with and, or, - and parentheses.

One parser serves the card list, the JSON API, the statistics links, the header search
and the match demo's deck builder (``cards.search.search_cards``). The grammar,
Scryfall's::

    query    := or_expr
    or_expr  := and_expr ( "or" and_expr )*        -- "or" and "OR" alike
    and_expr := unary ( ["and"] unary )*           -- side by side means and
    unary    := "-" unary | "(" or_expr ")" | atom
    atom     := field op value | is:fact | not:fact | has:fact | #token | word | "phrase"

So ``and`` binds tighter than ``or``: ``r:epic s:arcane or r:legendary`` is
``(r:epic and s:arcane) or r:legendary``. A field term is ``field`` ``op`` ``value``
(``r:legendary``, ``rank<=80``, ``head:"qx mitten"``); a bare word finds cards whose name
has a word starting with it, or that wear an attribute whose name contains it (so
``Mitten`` finds what ``attr:mitten`` finds, and more only if a card is named so);
``"two words"`` is a phrase. ``:`` means "is" (for text fields: contains; ``=`` is the
exact name). Fields have short aliases (``r`` for rarity), values of closed sets are
checked, and every refusal names its position and how to fix it, in the visitor's
language.

The work a query may ask for is bounded: at most ``MAX_LENGTH`` characters,
``MAX_TERMS`` filters and words, ``MAX_WORDS`` bare words or phrases and ``MAX_DEPTH``
levels of parentheses; every word is one look-up in the card-name index plus one in the
attribute-name index (``cards.search_index``).

The parser knows nothing about the database: it returns a `Query` (a tree of `Term`,
`Word`, `Not`, `And`, `Or`), which ``cards.search`` turns into one condition and
`describe` puts into words.

>>> q = parse("r>=epic s:arcane rank<=80 head:crown")
>>> [(t.field, t.op, t.value) for t in q.terms]
[('rarity', '>=', 'epic'), ('skill', '=', 'arcane'), ('rank', '<=', 80), ('head', ':', 'crown')]
>>> parse("r:legendary or -r:common").root
Or(children=(Term(field='rarity', op='=', value='legendary'), Not(child=Term(field='rarity', op='=', value='common'))))
>>> parse("rarty:legendary")
Traceback (most recent call last):
...
cards.query.QueryError: unknown_field
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Union

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from core.labels import LABELS, enum_label, template_label
from engine.data import RULE_KEYS, TEMPLATES
from engine.types import AttributeKind, EffectKind, Rarity, Role, Skill, Slot

__all__ = [
    "DEFAULT_SORT",
    "FACTS",
    "FIELDS",
    "HAS_FACTS",
    "MAX_DEPTH",
    "MAX_LENGTH",
    "MAX_TERMS",
    "MAX_WORDS",
    "SORTS",
    "And",
    "Node",
    "Not",
    "Or",
    "Query",
    "QueryError",
    "QueryWarning",
    "Term",
    "Word",
    "ascii_int",
    "describe",
    "describe_sort",
    "is_card_syntax",
    "parse",
    "with_sort",
    "word_token",
]

_TERM = re.compile(
    r"^(?P<field>[a-z_#]+)(?P<op><=|>=|!=|<|>|:|=)(?P<value>.*)$", re.IGNORECASE | re.S
)
MAX_LENGTH = 500  # characters
MAX_TERMS = 24  # filters and words together
MAX_WORDS = 8  # bare words and phrases (each one look-up in the name and attribute indexes)
MAX_DEPTH = 6  # nested parentheses
MAX_VALUE = 100  # characters of one text value


class QueryError(ValueError):
    """A query the parser cannot use, with a message in the visitor's language.

    ``code`` is stable (tests and the API use it); ``message`` is translated and names
    the position and a fix; ``position``/``length`` (0-based characters of the text) say
    what to highlight, ``position`` None when the whole query is at fault.
    """

    def __init__(
        self, code: str, message: str, position: int | None = None, length: int = 1
    ) -> None:
        super().__init__(code)
        self.code = code
        self.message = message
        self.position = position
        self.length = max(1, length)


def _at(position: int) -> str:
    return _("at character %(n)s") % {"n": position + 1}


def _error(code: str, message: str, position: int | None, length: int = 1) -> QueryError:
    """A refusal whose message ends by saying where (1-based, as people count)."""
    if position is not None:
        message = _("%(message)s (%(where)s)") % {"message": message, "where": _at(position)}
    return QueryError(code, message, position, length)


# ---------------------------------------------------------------------------
# Fields


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
    slot: str = ""  # the slot a per-slot field reads
    synonyms: tuple[tuple[str, str], ...] = ()  # other spellings of enum values


_NUMBER_OPS = ("=", "!=", "<", "<=", ">", ">=")
_TEXT_OPS = (":", "=")


def _supply_field(slot: Slot, *aliases: str) -> FieldSpec:
    return FieldSpec(
        f"{slot.value}_supply",
        "int",
        LABELS[Slot][slot],
        aliases,
        ops=_NUMBER_OPS,
        slot=slot.value,
    )


# decided:<rule> takes the rule's key or a short name (decided:supply, decided:getgems).
RULE_SYNONYMS: tuple[tuple[str, str], ...] = (
    ("supply", "supply_count"),
    ("wardrobe", "wardrobe_score"),
    ("score", "wardrobe_score"),
    ("badge", "tier_badge"),
    ("tier", "tier_badge"),
    ("stickers", "burned_stickers"),
    ("burned", "burned_stickers"),
    ("god", "god_premium"),
    ("premium", "god_premium"),
    ("getgems", "getgems_rank"),
    ("rank", "getgems_rank"),
    ("free", "starter"),
)

# The engine's answers (issue 30): which rule decided the rarity, what one swap from the
# card's own wardrobe reaches, what the card does, and what it owns.
SEARCH30_FIELDS: tuple[FieldSpec, ...] = (
    FieldSpec(
        "decided",
        "enum",
        gettext_lazy("rule that decided the rarity"),
        ("rule",),
        (*RULE_KEYS, "starter"),
        ops=("=", "!="),
        synonyms=RULE_SYNONYMS,
    ),
    FieldSpec(
        "near",
        "enum",
        gettext_lazy("rarity one swap from its own wardrobe reaches"),
        (),
        tuple(r.value for r in Rarity if r is not Rarity.FREE),
    ),
    FieldSpec(
        "effect",
        "enum",
        gettext_lazy("effect"),
        ("does",),
        tuple(k.value for k in EffectKind),
        ops=("=", "!="),
    ),
    FieldSpec(
        "template",
        "enum",
        gettext_lazy("template"),
        ("tpl",),
        tuple(t.key for t in TEMPLATES),
        ops=("=", "!="),
    ),
    FieldSpec(
        "owns", "text", gettext_lazy("an owned attribute, worn or not"), ("own",), ops=_TEXT_OPS
    ),
)

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
    FieldSpec("atk", "int", gettext_lazy("ATK"), ("attack",), ops=_NUMBER_OPS),
    FieldSpec("hp", "int", gettext_lazy("HP"), ("health",), ops=_NUMBER_OPS),
    FieldSpec("def", "int", gettext_lazy("DEF"), ("defense", "defence"), ops=_NUMBER_OPS),
    FieldSpec("ability", "int", gettext_lazy("ability value"), (), ops=_NUMBER_OPS),
    FieldSpec(
        "rank",
        "int",
        gettext_lazy("GetGems rank"),
        ("getgems", "gg"),
        nullable=True,
        ops=_NUMBER_OPS,
    ),
    FieldSpec("burned", "int", gettext_lazy("burned stickers"), ("stickers",), ops=_NUMBER_OPS),
    FieldSpec("score", "decimal", gettext_lazy("wardrobe score"), ("wardrobe",), ops=_NUMBER_OPS),
    FieldSpec(
        "supply", "int", gettext_lazy("supply of an equipped attribute"), (), ops=_NUMBER_OPS
    ),
    _supply_field(Slot.HEAD),
    _supply_field(Slot.BODY),
    _supply_field(Slot.PAW),
    _supply_field(Slot.BACKGROUND, "bg_supply"),
    FieldSpec("token", "int", gettext_lazy("token"), ("#", "id"), ops=_NUMBER_OPS),
    FieldSpec("name", "text", gettext_lazy("name"), (), ops=_TEXT_OPS),
    # The slots are named as everywhere on the site (core.labels).
    FieldSpec("head", "text", LABELS[Slot][Slot.HEAD], (), ops=_TEXT_OPS),
    FieldSpec("body", "text", LABELS[Slot][Slot.BODY], (), ops=_TEXT_OPS),
    FieldSpec("paw", "text", LABELS[Slot][Slot.PAW], (), ops=_TEXT_OPS),
    FieldSpec("background", "text", LABELS[Slot][Slot.BACKGROUND], ("bg",), ops=_TEXT_OPS),
    FieldSpec(
        "attr", "text", gettext_lazy("any equipped attribute"), ("attribute",), ops=_TEXT_OPS
    ),
    FieldSpec(
        "kind",
        "enum",
        gettext_lazy("kind of an equipped attribute"),
        (),
        tuple(k.value for k in AttributeKind if k is not AttributeKind.NORMAL),
    ),
    FieldSpec("starter", "bool", gettext_lazy("starter card"), ("free",)),
    FieldSpec(
        "undercharged", "int", gettext_lazy("undercharged with this much NRG"), (), ops=("=",)
    ),
    *SEARCH30_FIELDS,
)
FIELD_BY_NAME: dict[str, FieldSpec] = {}
for _spec in FIELDS:
    FIELD_BY_NAME[_spec.key] = _spec
    for _alias in _spec.aliases:
        FIELD_BY_NAME[_alias] = _spec

SLOT_FIELDS = tuple(s.value for s in Slot)
SUPPLY_FIELDS = tuple(f"{s.value}_supply" for s in Slot)

# is:<fact> / not:<fact>: the yes-or-no facts of a card (aliases after the key).
FACTS: dict[str, tuple[str, ...]] = {
    "starter": ("free",),
    "legendary-skill": ("active-skill", "skilled"),
    "combo": (),
    "god": (),
    "premium": (),
    "fragile": (),
}
# has:<fact>: the optional facts a card may lack.
HAS_FACTS: dict[str, tuple[str, ...]] = {
    "rank": ("getgems",),
    "stickers": ("burned",),
}


def _fact_names(table: dict[str, tuple[str, ...]]) -> dict[str, str]:
    return {name: key for key, aliases in table.items() for name in (key, *aliases)}


_FACT_BY_NAME = _fact_names(FACTS)
_HAS_BY_NAME = _fact_names(HAS_FACTS)

# sort:<key> or sort:-<key> (descending). The default is -rarity.
SORTS: dict[str, object] = {
    "rarity": gettext_lazy("rarity"),
    "name": gettext_lazy("name"),
    "token": gettext_lazy("token"),
    "rank": gettext_lazy("GetGems rank"),
    "score": gettext_lazy("wardrobe score"),
    "energy": gettext_lazy("energy cost"),
    "atk": gettext_lazy("ATK"),
    "hp": gettext_lazy("HP"),
    "def": gettext_lazy("DEF"),
    "ability": gettext_lazy("ability value"),
    "burned": gettext_lazy("burned stickers"),
}
_SORT_ALIASES = {"nrg": "energy", "cost": "energy", "wardrobe": "score", "defense": "def"}
DEFAULT_SORT = "-rarity"

_TRUE = {"yes", "true", "1", "y", "да"}
_FALSE = {"no", "false", "0", "n", "нет"}
_NONE = {"none", "null", "no", "нет"}


# ---------------------------------------------------------------------------
# The tree


@dataclass(frozen=True, slots=True)
class Term:
    """One parsed filter: a canonical field key, an operator and a typed value.

    Facts are terms too: ``is:god`` is ``Term("is", "=", "god")``, ``has:rank``
    ``Term("has", "=", "rank")``; ``not:god`` is ``Not(Term("is", "=", "god"))``.
    """

    field: str
    op: str
    value: object
    start: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Word:
    """A bare word (``phrase`` False) or a quoted phrase: names and attribute names."""

    text: str
    phrase: bool = False
    start: int = field(default=0, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class Not:
    child: Node


@dataclass(frozen=True, slots=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    children: tuple[Node, ...]


Node = Union[Term, Word, Not, And, Or]  # noqa: UP007 (a runtime alias for dataclass fields)


def walk(node: Node | None, negated: bool = False) -> Iterator[tuple[Term | Word, bool]]:
    """Every leaf of the tree with whether an odd number of ``-`` stands above it."""
    if node is None:
        return
    if isinstance(node, Not):
        yield from walk(node.child, not negated)
    elif isinstance(node, And | Or):
        for child in node.children:
            yield from walk(child, negated)
    else:
        yield node, negated


def holds(node: Node | None, leaf_holds: Callable[[Term | Word], bool]) -> bool:
    """Whether the tree holds, given whether each leaf does: the query's and/or/not over
    ``leaf_holds`` (an empty query holds). The one evaluator outside the database: the
    explanations and the searches of a past day.

    >>> tree = parse("r:epic or -atk>3").root
    >>> holds(tree, lambda leaf: leaf.field == "rarity")
    True
    >>> holds(tree, lambda leaf: leaf.field == "atk")
    False
    """
    if node is None:
        return True
    if isinstance(node, Not):
        return not holds(node.child, leaf_holds)
    if isinstance(node, And):
        return all(holds(child, leaf_holds) for child in node.children)
    if isinstance(node, Or):
        return any(holds(child, leaf_holds) for child in node.children)
    return leaf_holds(node)


@dataclass(frozen=True, slots=True)
class QueryWarning:
    """A part of the text the search read and ignored: a stable ``code``, the ``message``
    in the visitor's language, and where (0-based characters, as `QueryError`)."""

    code: str
    message: str
    position: int
    length: int = 1


@dataclass(frozen=True, slots=True)
class Query:
    """A parsed query: its condition tree (None matches every card) and the sort order."""

    root: Node | None = None
    sort: str = DEFAULT_SORT
    as_of: datetime.date | None = None  # as:YYYY-MM-DD: the collection as it was that day
    #: What the search read but ignored, said on the page and in the API (issue 30).
    warnings: tuple[QueryWarning, ...] = field(default=(), compare=False)

    @property
    def terms(self) -> tuple[Term, ...]:
        """Every filter of the tree, in the order written."""
        return tuple(leaf for leaf, _neg in walk(self.root) if isinstance(leaf, Term))

    @property
    def words(self) -> tuple[str, ...]:
        """Every bare word and phrase, in the order written."""
        return tuple(leaf.text for leaf, _neg in walk(self.root) if isinstance(leaf, Word))

    @property
    def wants_free_cards(self) -> bool:
        """Free (starter) cards stay out of the results unless the query asks for them:
        with ``is:starter`` (or ``starter:yes``), ``r:free`` (or a rarity at most Common),
        or a token (``#5``) — anywhere, except under a ``-``."""
        for leaf, negated in walk(self.root):
            if negated or not isinstance(leaf, Term):
                continue
            if leaf.field == "is" and leaf.value == "starter":
                return True
            if leaf.field == "starter" and leaf.value is True:
                return True
            if leaf.field == "rarity" and (
                (leaf.op in ("=", "<=") and leaf.value == "free")
                or (leaf.op == "<=" and leaf.value == "common")
                or (leaf.op == "<" and leaf.value in ("common", "rare"))
            ):
                return True
            if leaf.field == "token" and leaf.op == "=":
                return True
            if leaf.field == "decided" and leaf.op == "=" and leaf.value == "starter":
                return True
        return False


# ---------------------------------------------------------------------------
# Numbers


_ASCII_INT = re.compile(r"[0-9]{1,9}")
_WORD_CHARACTER = re.compile(r"[^\W_]")
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


def _suggest(word: str, choices: list[str]) -> str | None:
    found = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return found[0] if found else None


def _with_hint(message: str, hint: str | None) -> str:
    if not hint:
        return message
    return _("%(message)s Did you mean “%(hint)s”?") % {"message": message, "hint": hint}


# ---------------------------------------------------------------------------
# Lexing: text → tokens with their positions


@dataclass(frozen=True, slots=True)
class _Token:
    kind: str  # "(", ")", "-", "or", "and", "atom", "phrase"
    text: str  # the raw characters (a phrase: its inside)
    start: int
    end: int


def _lex(text: str) -> list[_Token]:
    tokens: list[_Token] = []
    i, n = 0, len(text)
    while i < n:
        char = text[i]
        if char.isspace():
            i += 1
        elif char in "()":
            tokens.append(_Token(char, char, i, i + 1))
            i += 1
        elif char == "-":
            following = text[i + 1] if i + 1 < n else ""
            if not following or following.isspace() or following == ")":
                raise _error(
                    "lone_minus",
                    _(
                        "A minus sign leaves out what follows it, with no space between: "
                        "write -r:common, or remove the “-”."
                    ),
                    i,
                )
            tokens.append(_Token("-", "-", i, i + 1))
            i += 1
        elif char == '"':
            close = text.find('"', i + 1)
            if close < 0:
                raise _unclosed_quote(i)
            tokens.append(_Token("phrase", text[i + 1 : close], i, close + 1))
            i = close + 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in "()":
                if text[j] == '"':
                    close = text.find('"', j + 1)
                    if close < 0:
                        raise _unclosed_quote(j)
                    j = close + 1
                else:
                    j += 1
            raw = text[i:j]
            kind = raw.lower() if raw.lower() in ("or", "and") else "atom"
            tokens.append(_Token(kind, raw, i, j))
            i = j
    return tokens


def _unclosed_quote(position: int) -> QueryError:
    return _error(
        "unclosed_quote",
        _('This quotation mark is never closed: add a closing “"” after the phrase.'),
        position,
    )


# ---------------------------------------------------------------------------
# Parsing: tokens → tree


class _Parser:
    def __init__(self, text: str, tokens: list[_Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.index = 0
        self.sort = DEFAULT_SORT
        self.as_of: datetime.date | None = None
        self.leaves = 0
        self.words = 0
        self.warnings: list[QueryWarning] = []
        self.sort_token: _Token | None = None

    def peek(self) -> _Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> _Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> Query:
        root = self.or_expr(depth=0)
        extra = self.peek()
        if extra is not None:  # only a ")" stops an or_expr before the end
            raise _error(
                "unmatched_paren",
                _("This “)” closes nothing: remove it, or add a “(” before what it should close."),
                extra.start,
            )
        return Query(
            root,
            self.sort,
            as_of=self.as_of,
            warnings=tuple(sorted(self.warnings, key=lambda w: w.position)),
        )

    def warn(self, code: str, message: str, token: _Token) -> None:
        self.warnings.append(QueryWarning(code, message, token.start, token.end - token.start))

    def or_expr(self, depth: int) -> Node | None:
        parts: list[Node] = []
        start = self.index
        first = self.and_expr(depth)
        if first is not None:
            parts.append(first)
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            following = self.peek()
            if self.index - 1 == start or following is None or following.kind in ("or", ")"):
                raise _error(
                    "dangling_or",
                    _(
                        "“or” needs a search on each side, as in r:epic or r:legendary: "
                        "add one, or remove this “or”."
                    ),
                    token.start,
                    token.end - token.start,
                )
            part = self.and_expr(depth)
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def and_expr(self, depth: int) -> Node | None:
        parts: list[Node] = []
        start = self.index
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            if token.kind == "and":
                self.take()
                following = self.peek()
                if (
                    self.index - 1 == start
                    or following is None
                    or following.kind in ("or", "and", ")")
                ):
                    raise _error(
                        "dangling_and",
                        _(
                            "“and” needs a search on each side (side by side already means "
                            "and): remove this “and”."
                        ),
                        token.start,
                        token.end - token.start,
                    )
                continue
            part = self.unary(depth, negated=False)
            if part is not None:
                parts.append(part)
        if not parts:
            return None
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def unary(self, depth: int, negated: bool) -> Node | None:
        token = self.take()
        if token.kind == "-":
            following = self.peek()
            if following is None or following.kind in ("or", "and", ")"):
                raise _error(
                    "lone_minus",
                    _(
                        "A minus sign leaves out what follows it, with no space between: "
                        "write -r:common, or remove the “-”."
                    ),
                    token.start,
                )
            child = self.unary(depth, negated=True)
            return None if child is None else Not(child)
        if token.kind == "(":
            if depth + 1 > MAX_DEPTH:
                raise _error(
                    "too_deep",
                    _("Use at most %(n)d levels of parentheses inside each other.")
                    % {"n": MAX_DEPTH},
                    token.start,
                )
            following = self.peek()
            if following is not None and following.kind == ")":
                raise _error(
                    "empty_group",
                    _("These parentheses hold nothing: put a search inside, or remove them."),
                    token.start,
                    following.end - token.start,
                )
            inner = self.or_expr(depth + 1)
            closing = self.peek()
            if closing is None or closing.kind != ")":
                raise _error(
                    "unclosed_paren",
                    _("This “(” is never closed: add a “)” where the group ends."),
                    token.start,
                )
            self.take()
            if inner is None:
                raise _error(
                    "empty_group",
                    _("These parentheses hold nothing: put a search inside, or remove them."),
                    token.start,
                    closing.end - token.start,
                )
            return inner
        if token.kind == "phrase":
            return self.word(token, token.text, phrase=True)
        return self.atom(token, depth, negated)

    def count(self, token: _Token, word: bool) -> None:
        self.leaves += 1
        if self.leaves > MAX_TERMS:
            raise _error(
                "too_many",
                _(
                    "Use at most %(n)d filters and words in one search: remove some, "
                    "or split the search in two."
                )
                % {"n": MAX_TERMS},
                token.start,
                token.end - token.start,
            )
        if word:
            self.words += 1
            if self.words > MAX_WORDS:
                raise _error(
                    "too_many_words",
                    _(
                        "Use at most %(n)d words in one search: put a name in quotes to "
                        "search it as one phrase, or use a field such as head:crown."
                    )
                    % {"n": MAX_WORDS},
                    token.start,
                    token.end - token.start,
                )

    def word(self, token: _Token, text: str, phrase: bool) -> Word | None:
        text = text.strip()
        if not text:
            raise _error(
                "missing_value",
                _("These quotation marks hold nothing: put a name inside, or remove them."),
                token.start,
                token.end - token.start,
            )
        if len(text) > MAX_VALUE:
            raise _too_long_value(token)
        if not _WORD_CHARACTER.search(text):
            # No name has such a word (the index reads letters and digits only).
            self.warn(
                "ignored_word",
                _("“%(word)s” has no letter or digit, so the search ignored it.") % {"word": text},
                token,
            )
            return None
        self.count(token, word=True)
        return Word(text, phrase, token.start)

    def atom(self, token: _Token, depth: int, negated: bool) -> Node | None:
        raw = token.text
        match = _TERM.match(raw)
        if match is None:
            if raw.startswith("#") and raw[1:].isnumeric():
                # "#17" is a token; "#²" or "#٣" only looks like one.
                number = ascii_int(raw[1:])
                if number is None:
                    raise _bad_number(raw[1:], token)
                self.count(token, word=False)
                return Term("token", "=", number, token.start)
            return self.word(token, raw.replace('"', ""), phrase='"' in raw)
        name, op, value = match.group("field").lower(), match.group("op"), match.group("value")
        value = _unquote(value)
        if name in ("sort", "order"):
            if negated:
                raise _error(
                    "bad_sort",
                    _("A sort order cannot be left out: remove the “-” before “%(term)s”.")
                    % {"term": raw},
                    token.start,
                    len(raw),
                )
            if depth:
                raise _error(
                    "bad_sort",
                    _(
                        "A sort order applies to the whole search: move “%(term)s” out of "
                        "the parentheses."
                    )
                    % {"term": raw},
                    token.start,
                    len(raw),
                )
            sort = _parse_sort(value, token)
            if self.sort_token is not None:
                self.warn(
                    "ignored_sort",
                    _("Only the last sort order counts: “%(term)s” was ignored.")
                    % {"term": self.sort_token.text},
                    self.sort_token,
                )
            self.sort, self.sort_token = sort, token
            return None
        if name == "as":
            self.as_of = _parse_day(value, token, negated or bool(depth))
            return None
        if name in ("is", "not", "has"):
            return self.fact(token, name, op, value)
        spec = FIELD_BY_NAME.get(name)
        if spec is None:
            hint = _suggest(name, [*FIELD_BY_NAME, "sort", "is", "not", "has"])
            if hint:
                message = _("Unknown field “%(field)s” — did you mean “%(hint)s”?") % {
                    "field": name,
                    "hint": hint,
                }
            else:
                message = _(
                    "Unknown field “%(field)s”. See the search help for the list of fields, "
                    "or put the text in quotes to search it as a name."
                ) % {"field": name}
            raise _error("unknown_field", message, token.start, len(match.group("field")))
        if spec.kind != "text" and op == ":":
            op = "="
        if op not in spec.ops:
            raise _error(
                "bad_operator",
                _("“%(op)s” cannot be used with %(field)s: use one of %(ops)s.")
                % {"op": op, "field": spec.label, "ops": " ".join(spec.ops)},
                token.start + len(match.group("field")),
                len(op),
            )
        parsed = _parse_value(spec, op, value, raw, token)
        self.count(token, word=False)
        return Term(spec.key, op, parsed, token.start)

    def fact(self, token: _Token, name: str, op: str, value: str) -> Node:
        table = _HAS_BY_NAME if name == "has" else _FACT_BY_NAME
        keys = HAS_FACTS if name == "has" else FACTS
        if op not in (":", "="):
            raise _error(
                "bad_operator",
                _("Write %(name)s: followed by a fact, as in %(example)s.")
                % {"name": name, "example": "has:rank" if name == "has" else "is:god"},
                token.start + len(name),
                len(op),
            )
        key = table.get(value.strip().lower())
        if key is None:
            hint = _suggest(value.strip().lower(), list(table))
            message = _(
                "%(name)s:%(value)s is not a fact the search knows. Use one of: %(choices)s."
            ) % {
                "value": value,
                "name": name,
                "choices": ", ".join(keys),
            }
            raise _error(
                "bad_fact", _with_hint(message, hint), token.start, token.end - token.start
            )
        self.count(token, word=False)
        term = Term("has" if name == "has" else "is", "=", key, token.start)
        return Not(term) if name == "not" else term


def _parse_day(value: str, token: _Token, nested: bool) -> datetime.date:
    """``as:YYYY-MM-DD``: a day not in the future, for the whole search."""
    length = token.end - token.start
    if nested:
        message = _("as: applies to the whole search: write it once, outside “-” and parentheses.")
        raise _error("bad_as", message, token.start, length)
    try:
        day = datetime.date.fromisoformat(value) if len(value) == 10 else None
    except ValueError:
        day = None
    if day is None:
        message = _("“%(value)s” is not a date: write as:YYYY-MM-DD, as in as:2026-01-31.")
        raise _error("bad_as", message % {"value": value}, token.start, length)
    if day > timezone.localdate():
        message = _("%(day)s is in the future: as: shows the collection as it was.")
        raise _error("bad_as", message % {"day": value}, token.start, length)
    return day


def _unquote(value: str) -> str:
    if len(value) >= 2 and value.startswith('"') and value.endswith('"'):
        return value[1:-1]
    return value.replace('"', "")


def _too_long_value(token: _Token) -> QueryError:
    return _error(
        "too_long",
        _("A name or value is at most %(n)d characters: shorten it.") % {"n": MAX_VALUE},
        token.start,
        token.end - token.start,
    )


def _bad_number(raw: str, token: _Token) -> QueryError:
    return _error(
        "bad_number",
        _(
            "“%(value)s” is not a whole number of up to nine digits 0–9 (in “%(term)s”): "
            "write it with the digits 0–9, as in rank<=80."
        )
        % {"value": raw, "term": token.text},
        token.start,
        token.end - token.start,
    )


def _parse_sort(value: str, token: _Token) -> str:
    key = value.strip().lower()
    descending = key.startswith("-")
    bare = key.lstrip("-")
    bare = _SORT_ALIASES.get(bare, bare)
    if bare not in SORTS:
        hint = _suggest(bare, list(SORTS))
        message = _(
            "“%(value)s” is not something cards can be sorted by. Use one of: %(choices)s."
        ) % {"value": value, "choices": ", ".join(SORTS)}
        raise _error("bad_sort", _with_hint(message, hint), token.start, token.end - token.start)
    return f"-{bare}" if descending else bare


def _parse_value(spec: FieldSpec, op: str, raw: str, term: str, token: _Token) -> object:
    value = raw.strip().lower() if spec.kind != "text" else raw.strip()
    if not value:
        raise _error(
            "missing_value",
            _("“%(term)s” needs a value after the operator, as in %(example)s.")
            % {"term": term, "example": _example(spec)},
            token.start,
            token.end - token.start,
        )
    if spec.nullable and value.lower() in _NONE:
        if op not in ("=", "!="):
            raise _error(
                "bad_operator",
                _("“%(op)s” cannot be used with “none”: write %(field)s:none or -%(field)s:none.")
                % {"op": op, "field": spec.key},
                token.start,
                token.end - token.start,
            )
        return None
    if spec.kind == "enum":
        value = dict(spec.synonyms).get(value, value)
        if value not in spec.choices:
            hint = _suggest(value, list(spec.choices))
            message = _("“%(value)s” is not a %(field)s. Use one of: %(choices)s.") % {
                "value": raw,
                "field": spec.label,
                "choices": ", ".join(spec.choices + (("none",) if spec.nullable else ())),
            }
            raise _error(
                "bad_choice", _with_hint(message, hint), token.start, token.end - token.start
            )
        return value
    if spec.kind == "int":
        number = ascii_int(value)
        if number is None:
            raise _bad_number(raw, token)
        return number
    if spec.kind == "decimal":
        try:
            # Decimal() would read other scripts' digits too: the language is ASCII only.
            number = Decimal(value) if value.isascii() and len(value) <= 20 else None
        except InvalidOperation:
            number = None
        if number is None or not number.is_finite() or number < 0 or number > 10**9:
            raise _error(
                "bad_number",
                _(
                    "“%(value)s” is not a number written with the digits 0–9 (in “%(term)s”): "
                    "write it as in score>=1500.5."
                )
                % {"value": raw, "term": term},
                token.start,
                token.end - token.start,
            )
        return number
    if spec.kind == "bool":
        if value in _TRUE:
            return True
        if value in _FALSE:
            return False
        raise _error(
            "bad_bool",
            _("“%(term)s” takes yes or no.") % {"term": term},
            token.start,
            token.end - token.start,
        )
    if len(value) > MAX_VALUE:
        raise _too_long_value(token)
    return value


def _example(spec: FieldSpec) -> str:
    if spec.kind == "enum":
        return f"{spec.key}:{spec.choices[-1]}"
    if spec.kind in ("int", "decimal"):
        return f"{spec.key}>=2" if spec.key != "undercharged" else "undercharged:3"
    if spec.kind == "bool":
        return f"{spec.key}:yes"
    return f'{spec.key}:"…"'


def parse(text: str | None) -> Query:
    """Parse a query string into a `Query`, or raise `QueryError` explaining the first problem.

    >>> parse('paw:"qx mitten" burned>=1 sort:-rank').sort
    '-rank'
    >>> parse("fox 17").words
    ('fox', '17')
    >>> parse("(r:epic or r:legendary) -is:combo").root
    And(children=(Or(children=(Term(field='rarity', op='=', value='epic'), Term(field='rarity', op='=', value='legendary'))), Not(child=Term(field='is', op='=', value='combo'))))
    """
    text = text or ""
    if len(text) > MAX_LENGTH:
        raise QueryError(
            "too_long",
            _("That search is %(length)d characters long; at most %(n)d are read: shorten it.")
            % {"length": len(text), "n": MAX_LENGTH},
            MAX_LENGTH,
            len(text) - MAX_LENGTH,
        )
    if "\x00" in text:
        raise _error(
            "bad_character",
            _("The search holds a NUL character, which no name contains: remove it."),
            text.index("\x00"),
        )
    return _Parser(text, _lex(text)).parse()


def is_card_syntax(text: str) -> bool:
    """The text uses the card language (a filter, a token, or, -, parentheses, quotes),
    not only plain words — the header search shows cards first for it.

    >>> is_card_syntax("r:epic"), is_card_syntax("#12"), is_card_syntax("how to play")
    (True, True, False)
    """
    try:
        tokens = _lex(text or "")
    except QueryError:
        return True  # it tried: the card list explains the mistake
    for token in tokens:
        if token.kind != "atom" or _TERM.match(token.text) or token.text.startswith("#"):
            return True
    return False


def with_sort(text: str, sort: str) -> str:
    """``text`` with its ``sort:`` replaced by ``sort`` (dropped for the default order),
    every other character kept: what the list's sort controls put in the address.

    >>> with_sort("r:epic sort:name fox", "-atk")
    'r:epic fox sort:-atk'
    >>> with_sort("r:epic sort:atk", DEFAULT_SORT)
    'r:epic'
    """
    try:
        tokens = _lex(text or "")
    except QueryError:
        tokens = []
    kept = text or ""
    for token in reversed(tokens):
        match = _TERM.match(token.text) if token.kind == "atom" else None
        if match and match.group("field").lower() in ("sort", "order"):
            kept = kept[: token.start] + kept[token.end :]
    kept = " ".join(kept.split())
    if sort and sort != DEFAULT_SORT:
        kept = f"{kept} sort:{sort}".strip()
    return kept


# ---------------------------------------------------------------------------
# The query in words


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

_FACT_WORDS: dict[tuple[str, str], tuple[Callable[[], str], Callable[[], str]]] = {
    ("is", "starter"): (lambda: _("is a starter (Free) card"), lambda: _("is not a starter card")),
    ("is", "legendary-skill"): (
        lambda: _("has an active skill"),
        lambda: _("has no active skill"),
    ),
    ("is", "combo"): (lambda: _("wears a complete combo"), lambda: _("wears no complete combo")),
    ("is", "god"): (lambda: _("wears a god attribute"), lambda: _("wears no god attribute")),
    ("is", "premium"): (lambda: _("wears a premium skin"), lambda: _("wears no premium skin")),
    ("is", "fragile"): (
        lambda: _("one more print or a rank one place worse lowers its rarity"),
        lambda: _("no single print or rank step lowers its rarity"),
    ),
    ("has", "rank"): (lambda: _("has a GetGems rank"), lambda: _("has no GetGems rank")),
    ("has", "stickers"): (
        lambda: _("has burned stickers"),
        lambda: _("has no burned stickers"),
    ),
}


def _capitalise(text: str) -> str:
    return text[:1].upper() + text[1:]


# The enum (``core.labels.ENUMS``) that names a field's values, where it is not the field's key.
_ENUM_KINDS = {"decided": "rule", "near": "rarity", "effect": "effect_kind"}


def value_label(spec: FieldSpec, value: object) -> str:
    """A value as a visitor reads it (enum values use the site's translated labels)."""
    if value is None:
        return _("none")
    if spec.kind == "enum":
        kind = _ENUM_KINDS.get(spec.key, spec.key)
        if kind == "template":
            return template_label(str(value))
        return str(enum_label(kind, str(value)))
    if spec.kind == "bool":
        return _("yes") if value else _("no")
    return str(value)


def _term_sentence(term: Term, negated: bool = False) -> str:
    if term.field in ("is", "has"):
        positive, negative = _FACT_WORDS[(term.field, str(term.value))]
        return negative() if negated else positive()
    spec = FIELD_BY_NAME[term.field]
    if term.field == "undercharged":
        if negated:
            return _("can be deployed in full with %(n)s NRG (costs %(n)s or less)") % {
                "n": term.value
            }
        return _("would enter undercharged with %(n)s NRG (costs more than %(n)s)") % {
            "n": term.value
        }
    sentence = _plain_term_sentence(spec, term)
    return _("not (%(condition)s)") % {"condition": sentence} if negated else sentence


def _plain_term_sentence(spec: FieldSpec, term: Term) -> str:
    if spec.kind == "text":
        exact = term.op == "="
        if term.field in SLOT_FIELDS:
            template = (
                _("%(slot)s attribute is “%(text)s”")
                if exact
                else _("%(slot)s attribute contains “%(text)s”")
            )
            return template % {"slot": _capitalise(str(spec.label)), "text": term.value}
        if term.field == "owns":
            template = (
                _("owns an attribute (worn or not) named “%(text)s”")
                if exact
                else _("owns an attribute (worn or not) whose name contains “%(text)s”")
            )
            return template % {"text": term.value}
        if term.field == "attr":
            template = (
                _("an equipped attribute is “%(text)s”")
                if exact
                else _("an equipped attribute contains “%(text)s”")
            )
            return template % {"text": term.value}
        template = (
            _("name is “%(text)s”") if exact else _("name has a word starting with “%(text)s”")
        )
        return template % {"text": term.value}
    if term.field == "decided":
        template = (
            _("the rarity was decided by the rule “%(rule)s”")
            if term.op == "="
            else _("the rarity was not decided by the rule “%(rule)s”")
        )
        return template % {"rule": value_label(spec, term.value)}
    if term.field == "near":
        return _(
            "is below %(rarity)s, and one swap from its own wardrobe makes it %(rarity)s or higher"
        ) % {"rarity": value_label(spec, term.value)}
    if term.field == "effect":
        template = (
            _("has the effect “%(effect)s”")
            if term.op == "="
            else _("does not have the effect “%(effect)s”")
        )
        return template % {"effect": value_label(spec, term.value)}
    if term.field == "supply":
        return _("an equipped attribute has supply that %(op)s %(value)s") % {
            "op": _OP_WORDS[term.op](),
            "value": term.value,
        }
    if term.field in SUPPLY_FIELDS:
        return _("%(slot)s attribute has supply that %(op)s %(value)s") % {
            "slot": _capitalise(str(spec.label)),
            "op": _OP_WORDS[term.op](),
            "value": term.value,
        }
    return _("%(field)s %(op)s %(value)s") % {
        "field": _capitalise(str(spec.label)),
        "op": _RARITY_OP_WORDS[term.op]() if spec.ordered else _OP_WORDS[term.op](),
        "value": value_label(spec, term.value),
    }


def _word_sentence(word: Word) -> str:
    if word.phrase:
        return _("name or an equipped attribute has the phrase “%(text)s”") % {"text": word.text}
    if word_token(word.text) is not None:
        return _("token is %(token)s, or name or an equipped attribute matches “%(text)s”") % {
            "token": word_token(word.text),
            "text": word.text,
        }
    return _("name or an equipped attribute matches “%(text)s”") % {"text": word.text}


def _sentence(node: Node, nested: bool) -> str:
    if isinstance(node, Term):
        return _term_sentence(node)
    if isinstance(node, Word):
        return _word_sentence(node)
    if isinstance(node, Not):
        child = node.child
        if isinstance(child, Term) and (
            child.field in ("is", "has", "undercharged")
            or (child.op in ("=", "!=") and FIELD_BY_NAME[child.field].kind == "enum")
        ):
            if child.field in ("is", "has", "undercharged"):
                return _term_sentence(child, negated=True)
            flipped = Term(child.field, "!=" if child.op == "=" else "=", child.value)
            return _term_sentence(flipped)
        return _("not (%(condition)s)") % {"condition": _sentence(child, nested=False)}
    joiner = _(" and ") if isinstance(node, And) else _(" or ")
    text = joiner.join(_sentence(child, nested=True) for child in node.children)
    return f"({text})" if nested else text


def describe(query: Query) -> list[str]:
    """The query in words, one entry per part that must hold (the parts of a top-level
    and); ``or``, ``-`` and parentheses are said inside each entry.

    >>> from django.utils import translation
    >>> with translation.override("en"):
    ...     describe(parse("r:epic or r:legendary -is:combo"))
    ['Rarity is Epic or (Rarity is Legendary and wears no complete combo)']
    """
    root = query.root
    if root is None:
        return []
    if isinstance(root, And):
        return [_sentence(child, nested=True) for child in root.children]
    return [_sentence(root, nested=False)]


def describe_sort(query: Query) -> str:
    key = query.sort.lstrip("-")
    if query.sort.startswith("-"):
        return _("sorted by %(key)s, highest first") % {"key": SORTS[key]}
    return _("sorted by %(key)s, lowest first") % {"key": SORTS[key]}
