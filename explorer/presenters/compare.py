"""Compare."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlencode

from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from cards.art import CardArt, card_art
from cards.specs import card_spec
from core.labels import card_title, label, rule_label, template_label
from core.links import route_path, token_path
from engine.card.derive import derive
from engine.card.rarity import format_score, paths_to
from engine.types import Breakdown, CardSpec, Slot

from .. import narration
from ..forms import CompareForm
from ..whatif import Catalogue
from .breakdown import EffectRow, effect_rows, paths


@dataclass(frozen=True, slots=True)
class CompareRow:
    label: str
    a: str
    b: str
    differs: bool


@dataclass(frozen=True, slots=True)
class CompareSection:
    title: str
    rows: list[CompareRow]

    @property
    def differences(self) -> int:
        return sum(row.differs for row in self.rows)


@dataclass(frozen=True, slots=True)
class CompareCard:
    card: CardSpec
    title: str
    url: str
    art: CardArt
    rarity: str
    answer: str


@dataclass(frozen=True, slots=True)
class CompareVerdict:
    """Why the first card's rarity is above the second's (or level with it), which rule
    decides each, and what the lower one would need, with a what-if of it checked to get
    there (the card page's "ways up")."""

    text: str
    try_url: str = ""  # the lower card's page with that what-if
    try_card: str = ""  # its title


@dataclass(frozen=True, slots=True)
class ComparePage:
    a: str
    b: str
    errors: list[str]
    cards: list[CompareCard]
    sections: list[CompareSection]
    asked: bool
    swap_url: str = ""
    differences: int = 0
    verdict: CompareVerdict | None = None

    @property
    def status(self) -> int:
        return 400 if self.errors else 200


def _row(name: object, a: object, b: object) -> CompareRow:
    shown_a = "—" if a in (None, "") else str(a)
    shown_b = "—" if b in (None, "") else str(b)
    return CompareRow(str(name), shown_a, shown_b, shown_a != shown_b)


def _effect_text(row: EffectRow) -> str:
    return f"{row.kind} {row.value}" if row.kind else ""


def compare_sections(
    a: CardSpec, b: CardSpec, da: Breakdown, db: Breakdown
) -> list[CompareSection]:
    """Two cards fact by fact, each row marked when they differ."""

    def facts(card: CardSpec, d: Breakdown) -> list[object]:
        return [
            label(d.rarity),
            label(d.role),
            label(d.skill_affinity),
            label(d.active_skill),
            d.energy_cost,
            d.stats.atk,
            d.stats.hp,
            d.stats.def_,
            d.stats.ability,
            narration.decimal(format_score(d.wardrobe_score))
            if d.wardrobe_score is not None
            else "",
            narration.rank_number(card.getgems_rank) if card.getgems_rank else _("none"),
            card.burned_stickers,
            template_label(d.template),
        ]

    names = [
        _("Rarity"),
        _("Role"),
        _("Skill affinity"),
        _("Active skill"),
        _("Energy cost (NRG)"),
        "ATK",
        "HP",
        "DEF",
        _("Ability value"),
        _("Wardrobe score"),
        _("GetGems rank"),
        _("Burned stickers"),
        _("Template"),
    ]
    summary = [_row(n, x, y) for n, x, y in zip(names, facts(a, da), facts(b, db), strict=True)]
    rules_a = {r.key: label(r.rarity) for r in da.rules}
    rules_b = {r.key: label(r.rarity) for r in db.rules}
    keys = [*rules_a, *(key for key in rules_b if key not in rules_a)]
    rules = [_row(rule_label(key), rules_a.get(key), rules_b.get(key)) for key in keys]
    equipped = []
    for slot in Slot:
        x, y = a.attribute(slot), b.attribute(slot)
        equipped.append(
            _row(capfirst(label(slot)), f"{x.name} ({x.supply})", f"{y.name} ({y.supply})")
        )
    effects = [
        _row(ra.slot, _effect_text(ra), _effect_text(rb))
        for ra, rb in zip(effect_rows(da), effect_rows(db), strict=True)
    ]
    return [
        CompareSection(_("The card"), summary),
        CompareSection(_("Rarity rules"), rules),
        CompareSection(_("Equipped"), equipped),
        CompareSection(_("Effects"), effects),
    ]


def compare_verdict(
    a: CardSpec, b: CardSpec, da: Breakdown, db: Breakdown, catalogue: Catalogue
) -> CompareVerdict:
    """The sentence over two cards: the higher first (``a`` when level), and what the
    other would need to reach it (to rise above it, when level), from the same ways up
    as the card page (``paths_to`` made concrete and checked by ``paths``)."""
    if db.rarity > da.rarity:
        a, b, da, db = b, a, db, da
    target = da.rarity if da.rarity != db.rarity else db.rarity.next()
    towards = paths_to(b, target) if target is not None else None
    ways = paths(b, towards.paths, catalogue) if towards is not None else []
    way = next((w for w in ways if w.whatif_query), ways[0] if ways else None)
    title_a, title_b = card_title(a.name, a.token), card_title(b.name, b.token)
    text = narration.compare_sentence(title_a, title_b, da, db, way.text if way else None, target)
    if way is None or not way.whatif_query:
        return CompareVerdict(text)
    url = f"{token_path('explorer:card-detail', b.token)}?{way.whatif_query}"
    return CompareVerdict(text, url, title_b)


def compare_page(form: CompareForm, catalogue: Catalogue) -> ComparePage:
    """Two cards side by side, differences marked, or why they cannot be."""
    typed = {key: str(form[key].value() or "").strip() for key in ("a", "b")}
    if not form.is_bound:
        return ComparePage(typed["a"], typed["b"], [], [], [], asked=False)
    errors: list[str] = []
    for key in ("a", "b"):
        errors.extend(form.errors.get(key, []))
    if errors:
        return ComparePage(typed["a"], typed["b"], errors, [], [], asked=True)
    specs = [card_spec(form.cleaned_data[key]) for key in ("a", "b")]
    breakdowns = [derive(spec) for spec in specs]
    cards = [
        CompareCard(
            card=spec,
            title=card_title(spec.name, spec.token),
            url=reverse("explorer:card-detail", args=[spec.token]),
            art=card_art(
                spec.token,
                spec.name,
                d.rarity.value,
                {slot.value: spec.attribute(slot).name for slot in Slot},
            ),
            rarity=d.rarity.value,
            answer=narration.one_line_answer(d),
        )
        for spec, d in zip(specs, breakdowns, strict=True)
    ]
    swap = urlencode({"a": specs[1].token, "b": specs[0].token})
    sections = compare_sections(specs[0], specs[1], *breakdowns)
    verdict = compare_verdict(specs[0], specs[1], *breakdowns, catalogue)
    return ComparePage(
        typed["a"],
        typed["b"],
        [],
        cards,
        sections,
        asked=True,
        swap_url=f"{route_path('explorer:compare')}?{swap}",
        differences=sum(section.differences for section in sections),
        verdict=verdict,
    )
