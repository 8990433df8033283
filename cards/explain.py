"""Why a card matched a search, or did not: each leaf of a parsed query checked against
one card's own values, with the value said (issue 30).

The card search (``cards.search``) turns a query into one database condition, which says
nothing about why a row matched; here each leaf (`Term`, `Word`) is checked in Python
against the card's `Facts` — the same stored values the database compares (the derived
columns, the equipped attributes, the wardrobe, the combos) — so the query's and/or/not
combine the flags into the card's membership. A property test holds the two to agreeing
on every card of the demo collection.

Facts come from the database (``stored_facts``: what a search finds) or from a
derivation (``derived_facts``: a what-if of a card, never stored).

>>> from cards.query import parse
>>> card = Facts(token=7, name="Pup #7", rarity="epic", rank=80)
>>> [(c.clause, c.ok, c.value) for c in checks(parse("r>=rare -rank<=50"), card)]
[('r>=rare', True, 'epic'), ('rank<=50', False, '80')]
>>> matches(parse("r>=rare -rank<=50"), card)
True
"""

from __future__ import annotations

import operator
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.labels import enum_label, template_label
from engine.card.rarity import format_score
from engine.card.stats import compute_effects
from engine.data import TEMPLATES_BY_KEY
from engine.types import AttributeSpec, Breakdown, CardSpec, ComboSpec, Rarity

from . import search_index
from .models import RARITY_RANK, Card
from .query import (
    FIELD_BY_NAME,
    SLOT_FIELDS,
    SUPPLY_FIELDS,
    And,
    Node,
    Not,
    Or,
    Query,
    Term,
    Word,
    _lex,
    _term_sentence,
    _word_sentence,
    value_label,
    walk,
    word_token,
)
from .query import holds as query_holds

__all__ = [
    "Check",
    "Explained",
    "Facts",
    "checks",
    "derived_facts",
    "explain",
    "leaves",
    "matches",
    "stored_facts",
]


@dataclass(frozen=True, slots=True)
class Facts:
    """What a search can ask of one card: its stored (or what-if) values."""

    token: int
    name: str = ""
    starter: bool = False
    rarity: str = Rarity.COMMON.value
    role: str = "tank"
    skill: str = "pierce"
    active: str | None = None
    energy: int = 1
    atk: int = 0
    hp: int = 0
    defense: int = 0
    ability: int = 0
    rank: int | None = None
    burned: int = 0
    score: Decimal | None = None
    template: str = "iron_pup"
    decided: tuple[str, ...] = ()
    near: str = Rarity.COMMON.value
    equipped: tuple[AttributeSpec, ...] = ()
    owned: tuple[AttributeSpec, ...] = ()
    combo: bool = False

    @property
    def rarity_rank(self) -> int:
        return RARITY_RANK[self.rarity]

    @property
    def effects(self) -> tuple[str, ...]:
        template = TEMPLATES_BY_KEY.get(self.template)
        if template is None:
            return ()
        return tuple(e.kind.value for e in compute_effects(template, Rarity(self.rarity)))


def _wears_combo(equipped: Iterable[AttributeSpec], combos: Iterable[ComboSpec]) -> bool:
    keys = {a.key for a in equipped}
    return any(all(pair in keys for pair in combo.attributes) for combo in combos)


_STORED = (
    "token",
    "rarity",
    "role",
    "skill_affinity",
    "active_skill",
    "energy_cost",
    "atk",
    "hp",
    "defense",
    "ability",
    "wardrobe_score",
    "template",
    "decided_by",
    "near_rank",
)
_RARITY_OF_RANK = {rank: value for value, rank in RARITY_RANK.items()}


def stored_facts(specs: Sequence[CardSpec]) -> dict[int, Facts]:
    """The facts of these cards (``cards.specs.card_specs``) with their stored derived
    values, by token: one query besides the specs'."""
    rows = Card.objects.filter(token__in=[s.token for s in specs]).values_list(*_STORED)
    stored = {row[0]: dict(zip(_STORED, row, strict=True)) for row in rows}
    facts = {}
    for spec in specs:
        row = stored.get(spec.token)
        if row is None:
            continue
        facts[spec.token] = Facts(
            token=spec.token,
            name=spec.name,
            starter=spec.starter,
            rarity=row["rarity"],
            role=row["role"],
            skill=row["skill_affinity"],
            active=row["active_skill"],
            energy=row["energy_cost"],
            atk=row["atk"],
            hp=row["hp"],
            defense=row["defense"],
            ability=row["ability"],
            rank=spec.getgems_rank,
            burned=spec.burned_stickers,
            score=row["wardrobe_score"],
            template=row["template"],
            decided=tuple(k for k in row["decided_by"].split(",") if k),
            near=_RARITY_OF_RANK[row["near_rank"]],
            equipped=spec.equipped,
            owned=spec.owned,
            combo=_wears_combo(spec.equipped, spec.combos),
        )
    return facts


def derived_facts(spec: CardSpec, breakdown: Breakdown, *, near: bool = False) -> Facts:
    """The facts of a card as a derivation has it (a what-if); what one swap reaches is
    worked out only when ``near`` (each swap is a derivation of the rarity)."""
    from .specs import near_rarity

    score = breakdown.wardrobe_score
    return Facts(
        token=spec.token,
        name=spec.name,
        starter=spec.starter,
        rarity=breakdown.rarity.value,
        role=breakdown.role.value,
        skill=breakdown.skill_affinity.value,
        active=breakdown.active_skill.value if breakdown.active_skill else None,
        energy=breakdown.energy_cost,
        atk=breakdown.stats.atk,
        hp=breakdown.stats.hp,
        defense=breakdown.stats.def_,
        ability=breakdown.stats.ability,
        rank=spec.getgems_rank,
        burned=spec.burned_stickers,
        score=None if score is None else Decimal(format_score(score)),
        template=breakdown.template,
        decided=breakdown.decided_by,
        near=(near_rarity(spec, breakdown.rarity) if near else breakdown.rarity).value,
        equipped=spec.equipped,
        owned=spec.owned,
        combo=_wears_combo(spec.equipped, spec.combos),
    )


# ---------------------------------------------------------------------------
# Words: what the name and attribute indexes (cards.search_index) find, in Python


def _fold(text: str) -> list[str]:
    """``text``'s words as the FTS5 ``unicode61 remove_diacritics 2`` tokenizer reads them:
    case folded, accents taken off Latin letters."""
    letters = []
    for char in text:
        decomposed = unicodedata.normalize("NFD", char)
        letters.append(decomposed[0] if decomposed[0] < "\u0250" else char)
    return search_index._TOKEN.findall("".join(letters).lower())


def words_match(query: str, name: str) -> bool:
    """``name`` has ``query``'s words in order, the last one as a prefix (when it has two
    letters or more) — what ``search_index.fts_phrase`` asks the index."""
    wanted = _fold(query)
    if not wanted:
        return False
    have = _fold(name)
    prefix = len(search_index._TOKEN.findall(query)[-1]) >= search_index.MIN_PREFIX
    *first, last = wanted
    for start in range(len(have) - len(wanted) + 1):
        if have[start : start + len(first)] != first:
            continue
        word = have[start + len(first)]
        if word == last or (prefix and word.startswith(last)):
            return True
    return False


def _same_name(a: str, b: str) -> bool:
    """Django's ``iexact`` on SQLite (``LIKE``): ASCII letters alike in either case."""
    table = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
    return a.translate(table) == b.translate(table)


# ---------------------------------------------------------------------------
# Leaves


@dataclass(frozen=True, slots=True)
class Check:
    """One leaf checked against one card: the leaf as written (without a ``-`` or
    ``not:``), whether it holds, the card's own value (``value``, as the API gives it) and
    both in words (``sentence``: what the leaf asks; ``said``: what the card has)."""

    clause: str
    ok: bool
    value: str | None
    sentence: str = ""
    said: str = ""


_OPS: dict[str, Callable[[object, object], bool]] = {
    "=": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}


def _compare(have: object, op: str, want: object) -> bool:
    """A column compared as the database does: NULL equals only ``none``, fails every
    other comparison, and differs from every value."""
    if want is None:
        return (have is None) == (op == "=")
    if have is None:
        return op == "!="
    return _OPS[op](have, want)


def _names(attributes: Iterable[AttributeSpec]) -> str:
    return ", ".join(a.name for a in attributes)


_COLUMNS = {
    "role": "role",
    "skill": "skill",
    "active": "active",
    "energy": "energy",
    "atk": "atk",
    "hp": "hp",
    "def": "defense",
    "ability": "ability",
    "rank": "rank",
    "burned": "burned",
    "score": "score",
    "token": "token",
    "starter": "starter",
}


def _slots(term: Term) -> tuple[str, ...]:
    if term.field in SUPPLY_FIELDS:
        return (term.field.removesuffix("_supply"),)
    if term.field in SLOT_FIELDS:
        return (term.field,)
    return SLOT_FIELDS


def _text_check(term: Term, facts: Facts) -> tuple[bool, str | None]:
    text = str(term.value)
    exact = term.op == "="
    if term.field == "name":
        ok = words_match(text, facts.name) and (not exact or _same_name(facts.name, text))
        return ok, facts.name
    pool = facts.owned if term.field == "owns" else facts.equipped
    pool = tuple(a for a in pool if a.slot.value in _slots(term))
    found = [a for a in pool if (_same_name(a.name, text) if exact else words_match(text, a.name))]
    return bool(found), _names(found or pool) or None


def _term_check(term: Term, facts: Facts) -> tuple[bool, str | None]:
    field_ = term.field
    if field_ == "is":
        fact = term.value
        if fact == "starter":
            return facts.starter, "yes" if facts.starter else "no"
        if fact == "legendary-skill":
            return facts.active is not None, facts.active
        if fact == "combo":
            return facts.combo, "yes" if facts.combo else "no"
        kinds = [a for a in facts.equipped if a.kind.value == fact]  # god, premium
        return bool(kinds), _names(kinds) or None
    if field_ == "has":
        if term.value == "rank":
            return facts.rank is not None, None if facts.rank is None else str(facts.rank)
        return facts.burned >= 1, str(facts.burned)
    if field_ == "rarity":
        return _compare(facts.rarity_rank, term.op, RARITY_RANK[str(term.value)]), facts.rarity
    if field_ in SLOT_FIELDS or field_ in ("attr", "name", "owns"):
        return _text_check(term, facts)
    if field_ == "kind":
        kinds = [a for a in facts.equipped if a.kind.value == term.value]
        return bool(kinds), ", ".join(sorted({a.kind.value for a in facts.equipped}))
    if field_ == "supply" or field_ in SUPPLY_FIELDS:
        slots = _slots(term)
        supplies = [a.supply for a in facts.equipped if a.slot.value in slots]
        said = ", ".join(str(s) for s in supplies)
        if term.op == "!=":
            return all(s != term.value for s in supplies), said
        return any(_OPS[term.op](s, term.value) for s in supplies), said
    if field_ == "undercharged":
        return facts.energy > int(term.value), str(facts.energy)  # type: ignore[call-overload]
    if field_ == "decided":
        holds = term.value in facts.decided
        return holds if term.op == "=" else not holds, ",".join(facts.decided)
    if field_ == "near":
        rank = RARITY_RANK[str(term.value)]
        return facts.rarity_rank < rank <= RARITY_RANK[facts.near], facts.near
    if field_ == "effect":
        holds = term.value in facts.effects
        return holds if term.op == "=" else not holds, ",".join(facts.effects)
    if field_ == "template":
        return _compare(facts.template, term.op, term.value), facts.template
    have = getattr(facts, _COLUMNS[field_])
    said = (
        None if have is None else (("yes" if have else "no") if field_ == "starter" else str(have))
    )
    return _compare(have, term.op, term.value), said


def _word_check(word: Word, facts: Facts) -> tuple[bool, str | None]:
    token = None if word.phrase else word_token(word.text)
    if token is not None and token == facts.token:
        return True, f"#{facts.token}"
    if words_match(word.text, facts.name):
        return True, facts.name
    found = [a for a in facts.equipped if words_match(word.text, a.name)]
    return bool(found), _names(found) or facts.name


# ---------------------------------------------------------------------------
# The card's value in words


def _said(leaf: Term | Word, facts: Facts, value: str | None) -> str:
    """What the card has, for the leaf's question, in the visitor's language."""
    if isinstance(leaf, Word):
        return _("name “%(name)s”; wears %(attributes)s") % {
            "name": facts.name,
            "attributes": _names(facts.equipped),
        }
    field_ = leaf.field
    if field_ in ("rarity", "decided"):
        return _("rarity %(rarity)s, decided by %(rules)s") % {
            "rarity": enum_label("rarity", facts.rarity),
            "rules": ", ".join(str(enum_label("rule", k)) for k in facts.decided) or "—",
        }
    if field_ == "near":
        if facts.near == facts.rarity:
            return _("rarity %(rarity)s; no swap from its own wardrobe lifts it") % {
                "rarity": enum_label("rarity", facts.rarity)
            }
        return _("rarity %(rarity)s; one swap from its own wardrobe makes it %(near)s") % {
            "rarity": enum_label("rarity", facts.rarity),
            "near": enum_label("rarity", facts.near),
        }
    if field_ == "effect":
        return _("effects: %(effects)s") % {
            "effects": ", ".join(str(enum_label("effect_kind", k)) for k in facts.effects)
        }
    if field_ == "template":
        return _("template %(template)s") % {"template": template_label(facts.template)}
    if field_ == "owns":
        return ngettext(
            "owns %(count)s attribute: %(names)s",
            "owns %(count)s attributes: %(names)s",
            len(facts.owned),
        ) % {"count": len(facts.owned), "names": _names(facts.owned)}
    if field_ == "is" and leaf.value == "combo":
        return _("wears a complete combo") if facts.combo else _("wears no complete combo")
    if (field_ == "has" and leaf.value == "stickers") or field_ == "burned":
        return ngettext("%(count)s burned sticker", "%(count)s burned stickers", facts.burned) % {
            "count": facts.burned
        }
    if field_ == "has" or field_ == "rank":
        if facts.rank is None:
            return _("no GetGems rank")
        return _("GetGems rank %(rank)s") % {"rank": facts.rank}
    if field_ in ("is", "kind", "attr", "supply", *SLOT_FIELDS, *SUPPLY_FIELDS):
        return _("wears %(attributes)s") % {
            "attributes": ", ".join(
                _("%(name)s (supply %(supply)s)") % {"name": a.name, "supply": a.supply}
                for a in facts.equipped
            )
        }
    if field_ == "undercharged":
        return _("energy cost %(cost)s") % {"cost": facts.energy}
    spec = FIELD_BY_NAME[field_]
    shown = value_label(spec, value) if value is not None else _("none")
    return _("%(field)s %(value)s") % {"field": spec.label, "value": shown}


# ---------------------------------------------------------------------------
# The tree


def _written(text: str) -> dict[int, str]:
    """Each token of the typed query by where it starts (a leaf's ``start``)."""
    try:
        return {token.start: token.text for token in _lex(text)}
    except ValueError:
        return {}


def _clause(leaf: Term | Word, written: dict[int, str]) -> str:
    raw = written.get(leaf.start)
    if isinstance(leaf, Word):
        if raw is None:
            return f'"{leaf.text}"' if leaf.phrase else leaf.text
        return f'"{raw}"' if leaf.phrase and not raw.startswith('"') else raw
    if raw is None:
        return f"{leaf.field}{leaf.op}{leaf.value}"
    if raw.lower().startswith("not:"):
        return "is:" + raw[4:]  # not:god asks is:god, inverted
    return raw


def leaves(node: Node | None) -> Iterator[Term | Word]:
    """The leaves of the tree in query order."""
    return (leaf for leaf, _negated in walk(node))


def check(leaf: Term | Word, facts: Facts, written: dict[int, str] | None = None) -> Check:
    ok, value = _word_check(leaf, facts) if isinstance(leaf, Word) else _term_check(leaf, facts)
    return Check(_clause(leaf, written or {}), ok, value)


def checks(query: Query, facts: Facts, text: str = "") -> list[Check]:
    """One `Check` per leaf, in query order (the API's ``explain``)."""
    written = _written(text)
    return [check(leaf, facts, written) for leaf in leaves(query.root)]


def holds(node: Node | None, facts: Facts) -> bool:
    """Whether the tree holds for the card (starter cards not left out)."""
    return query_holds(node, lambda leaf: check(leaf, facts).ok)


def matches(query: Query, facts: Facts) -> bool:
    """Whether the search finds the card: the tree holds, and a starter card only when
    the query asks for starters (``cards.search.catalogue_condition``)."""
    if facts.starter and not query.wants_free_cards:
        return False
    return holds(query.root, facts)


@dataclass(frozen=True, slots=True)
class Explained:
    """A node of the query with whether it holds for the card: ``kind`` is "and", "or",
    "not" or "leaf"; a leaf carries its `Check` with the words filled in."""

    kind: str
    ok: bool
    children: tuple[Explained, ...] = ()
    check: Check | None = None


def explain(node: Node | None, facts: Facts, text: str = "") -> Explained | None:
    """The query as a tree, each node marked with whether it holds for the card."""
    if node is None:
        return None
    return _explain(node, facts, _written(text))


def _explain(node: Node, facts: Facts, written: dict[int, str]) -> Explained:
    if isinstance(node, Not):
        inner = _explain(node.child, facts, written)
        return Explained("not", not inner.ok, (inner,))
    if isinstance(node, And | Or):
        children = tuple(_explain(child, facts, written) for child in node.children)
        combine = all if isinstance(node, And) else any
        return Explained(
            "and" if isinstance(node, And) else "or",
            combine(c.ok for c in children),
            children,
        )
    found = check(node, facts, written)
    sentence = _word_sentence(node) if isinstance(node, Word) else _term_sentence(node)
    worded = Check(found.clause, found.ok, found.value, sentence, _said(node, facts, found.value))
    return Explained("leaf", found.ok, check=worded)


def failing(explained: Explained | None) -> list[Check]:
    """The leaves that keep the card out: under an and, the failing children; under an
    or, each child's; under a not, the leaves that hold (and should not)."""
    if explained is None or explained.ok:
        return []
    return list(_failing(explained, want=True))


def _failing(node: Explained, want: bool) -> Iterator[Check]:
    if node.kind == "leaf":
        assert node.check is not None
        if node.ok != want:
            yield node.check
        return
    if node.kind == "not":
        yield from _failing(node.children[0], not want)
        return
    for child in node.children:
        if child.ok != want:
            yield from _failing(child, want)
