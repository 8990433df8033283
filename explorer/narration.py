"""The engine's codes in words: every trace step and next-tier need, registered once.

The engine returns data (``engine.card.trace.CODES``, ``engine.card.trace.NEEDS``); each code is
registered here on a ``core.narration.Registry`` with its sentence (in the active
language), the wiki section that explains it and, for the rarity rules, the rule it
belongs to. A test proves that every code the engine can emit has a sentence in English
and in Russian (``TRACE.missing()`` stays empty).

>>> TRACE["rarity.burned_stickers"].section, TRACE.codes_of_rule("supply_count")
('burned_stickers', ('rarity.supply_count.substitution', 'rarity.supply_count'))
>>> TRACE.missing(), NEEDS_SAID.missing()
([], [])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf
from django.utils.formats import number_format
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from core.anchors import RULE_SECTIONS, TOPIC_SECTIONS, rule_url
from core.labels import label_of, rule_label, template_label
from core.memo import Kept
from core.narration import Registry
from engine.card.trace import CODES, NEEDS
from engine.data import SUPPLY_COUNT_TIERS
from engine.types import (
    EffectKind,
    EffectSlot,
    Rarity,
    Requirement,
    Role,
    Skill,
    Slot,
    Tier,
    TraceStep,
)

TRACE = Registry("trace", CODES)
"""Every derivation trace code: its sentence, the wiki section explaining it, its rule.
(Worded steps are kept by ``explorer.presenters.breakdown.worded_trace``, with their links.)"""

NEEDS_SAID = Registry("needs", NEEDS, memo=4096)
"""Every next-tier need (``Requirement.need``): its sentence (value: the target rarity)."""


_wiki_urls: Kept[tuple[str, str, str], dict[str, str]] = Kept(64)


def wiki_urls() -> dict[str, str]:
    """Every key of ``core.anchors`` with its wiki page and anchor, in the active language:
    resolved once per language (a card page links ~75 steps to their rules)."""
    key = (get_language() or "", get_script_prefix(), str(get_urlconf() or settings.ROOT_URLCONF))
    found = _wiki_urls.get(key)
    if found is None:
        found = _wiki_urls.keep(key, {k: rule_url(k) for k in (*RULE_SECTIONS, *TOPIC_SECTIONS)})
    return found


def wiki_url(section: str) -> str:
    """The wiki page and anchor explaining ``section`` (a key of ``core.anchors``)."""
    return wiki_urls().get(section) or rule_url(section)


# ---------------------------------------------------------------------------
# Small word helpers


def rarity(value: object) -> str:
    return label_of(Rarity, value)


def skill(value: object) -> str:
    return label_of(Skill, value)


def role(value: object) -> str:
    return label_of(Role, value)


def slot(value: object) -> str:
    return label_of(Slot, value)


def tier(value: object) -> str:
    return label_of(Tier, value)


def effect_slot(value: object) -> str:
    return label_of(EffectSlot, value)


def effect_kind(value: object) -> str:
    return label_of(EffectKind, value)


def rule(key: str) -> str:
    return rule_label(key)


def listing(items: Iterable[str]) -> str:
    """Items joined for a sentence: "a, b and c"."""
    items = [str(i) for i in items]
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return _("%(first)s and %(last)s") % {"first": ", ".join(items[:-1]), "last": items[-1]}


def slots(values: Iterable[object]) -> str:
    return listing(slot(v) for v in values)


def number(value: Any) -> str:
    return number_format(value, use_l10n=True, force_grouping=True)


def decimal(value: Any) -> str:
    """A score such as "1508.3" written the visitor's way: "1,508.3", "1 508,3"."""
    return number_format(Decimal(str(value)), use_l10n=True, force_grouping=True)


def rank_number(rank: Any) -> str:
    """A GetGems rank as a number: "#66", "№66" (docs/glossary.md)."""
    # Translators: a GetGems rank as a number; Russian writes "№66".
    return _("#%(rank)s") % {"rank": rank}


# ---------------------------------------------------------------------------
# One function per trace code


@TRACE.register("rarity.starter", section="starter", rule="starter")
def _starter(p: Mapping[str, Any], v: Any) -> str:
    return _("A starter card is always %(rarity)s: the seven rarity rules are skipped.") % {
        "rarity": rarity(v)
    }


@TRACE.register("rarity.supply_count.substitution", section="supply_count", rule="supply_count")
def _substitution(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(slot)s: the wardrobe's %(name)s (supply %(supply)s, %(tier)s tier) counts instead of "
        "the equipped %(equipped)s (supply %(equipped_supply)s)."
    ) % {
        "slot": slot(p["slot"]).capitalize(),
        "name": p["name"],
        "supply": p["supply"],
        "tier": tier(p["tier"]),
        "equipped": p["equipped_name"],
        "equipped_supply": p["equipped_supply"],
    }


@TRACE.register("rarity.supply_count", section="supply_count", rule="supply_count")
def _supply_count(p: Mapping[str, Any], v: Any) -> str:
    needed = {t.max_supply: (t.min_slots, t.rarity.value) for t in SUPPLY_COUNT_TIERS}
    parts = []
    for max_supply, matched in p["matched"]:
        min_slots, target = needed.get(max_supply, (0, ""))
        parts.append(
            _("%(count)s with supply ≤ %(max)s (%(min)s needed for %(target)s)")
            % {
                "count": f"{len(matched)}" + (f" — {slots(matched)}" if matched else ""),
                "max": max_supply,
                "min": min_slots,
                "target": rarity(target),
            }
        )
    return _("Slots: %(parts)s → %(rarity)s.") % {"parts": "; ".join(parts), "rarity": rarity(v)}


@TRACE.register("rarity.wardrobe_score", section="wardrobe_score", rule="wardrobe_score")
def _wardrobe(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "%(count)s owned attribute gives a wardrobe score of %(score)s → %(rarity)s.",
        "%(count)s owned attributes give a wardrobe score of %(score)s → %(rarity)s.",
        p["attributes"],
    ) % {"count": p["attributes"], "score": decimal(p["score"]), "rarity": rarity(v)}


@TRACE.register("rarity.tier_badge", section="tier_badge", rule="tier_badge")
def _tier_badge(p: Mapping[str, Any], v: Any) -> str:
    if p["slots"]:
        return _("A unique-tier attribute is equipped (%(slots)s) → %(rarity)s.") % {
            "slots": slots(p["slots"]),
            "rarity": rarity(v),
        }
    return _("No unique-tier attribute is equipped → %(rarity)s.") % {"rarity": rarity(v)}


@TRACE.register("rarity.burned_stickers", section="burned_stickers", rule="burned_stickers")
def _burned(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "%(count)s burned sticker → %(rarity)s.",
        "%(count)s burned stickers → %(rarity)s.",
        p["burned"],
    ) % {"count": p["burned"], "rarity": rarity(v)}


@TRACE.register("rarity.god_premium", section="god_premium", rule="god_premium")
def _god_premium(p: Mapping[str, Any], v: Any) -> str:
    if p["god"]:
        return _("A god attribute is equipped (%(slots)s) → %(rarity)s.") % {
            "slots": slots(p["god"]),
            "rarity": rarity(v),
        }
    if p["premium"]:
        return _("A premium skin is equipped (%(slots)s) → %(rarity)s.") % {
            "slots": slots(p["premium"]),
            "rarity": rarity(v),
        }
    return _("No god attribute or premium skin is equipped → %(rarity)s.") % {"rarity": rarity(v)}


@TRACE.register("rarity.combo", section="combo", rule="combo")
def _combo(p: Mapping[str, Any], v: Any) -> str:
    if p["matched"]:
        return _("Every attribute of %(combos)s is equipped → %(rarity)s.") % {
            "combos": listing(f"“{name}”" for name in p["matched"]),
            "rarity": rarity(v),
        }
    return ngettext(
        "The %(count)s known combo is not fully equipped → %(rarity)s.",
        "None of the %(count)s known combos is fully equipped → %(rarity)s.",
        p["known"],
    ) % {"count": p["known"], "rarity": rarity(v)}


@TRACE.register("rarity.getgems_rank", section="getgems_rank", rule="getgems_rank")
def _getgems(p: Mapping[str, Any], v: Any) -> str:
    if p["rank"] is None:
        return _("No GetGems rank, so no floor → %(rarity)s.") % {"rarity": rarity(v)}
    return _("GetGems rank #%(rank)s → at least %(rarity)s.") % {
        "rank": p["rank"],
        "rarity": rarity(v),
    }


@TRACE.register("rarity.decided", section="rarity")
def _decided(p: Mapping[str, Any], v: Any) -> str:
    return _("The highest result wins: %(rarity)s, reached by %(rules)s.") % {
        "rarity": rarity(v),
        "rules": listing(rule(k) for k in p["decided_by"]),
    }


@TRACE.register("role.vote", section="role")
def _role_vote(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(slot)s %(name)s hits %(skill)s and votes %(weight)s for %(role)s "
        "(slot weight %(slot_weight)s × %(tier)s tier weight %(tier_weight)s)."
    ) % {
        "slot": slot(p["slot"]).capitalize(),
        "name": p["name"],
        "skill": skill(p["skill"]),
        "weight": p["weight"],
        "role": role(v),
        "slot_weight": p["slot_weight"],
        "tier": tier(p["tier"]),
        "tier_weight": p["tier_weight"],
    }


def _totals(values: Mapping[str, Any], label: Callable[[str], str]) -> str:
    return ", ".join(f"{label(k)} {n}" for k, n in values.items())


@TRACE.register("role.totals", section="role")
def _role_totals(p: Mapping[str, Any], v: Any) -> str:
    return _("Role votes: %(totals)s.") % {"totals": _totals(p, role)}


@TRACE.register("role.tie_break", section="role_tie_break")
def _role_tie(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(tied)s are tied; scanning paw → head → body → background, the first voter is "
        "%(name)s (%(slot)s), so %(role)s."
    ) % {
        "tied": listing(role(r) for r in p["tied"]),
        "name": p["name"],
        "slot": slot(p["slot"]),
        "role": role(v),
    }


@TRACE.register("role.hash_fallback", section="role_hash")
def _role_hash(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "No attribute hits a keyword, so the role comes from a hash of the equipped "
        "attributes: first byte %(byte)s, %(byte)s mod 4 = %(index)s → %(role)s."
    ) % {"byte": p["byte"], "index": p["index"], "role": role(v)}


@TRACE.register("role.decided", section="role")
def _role_decided(p: Mapping[str, Any], v: Any) -> str:
    return _("Role: %(role)s.") % {"role": role(v)}


@TRACE.register("skill.hits", section="skill_keywords")
def _skill_hits(p: Mapping[str, Any], v: Any) -> str:
    if v is None:
        return _("%(slot)s %(name)s hits no keyword: no point.") % {
            "slot": slot(p["slot"]).capitalize(),
            "name": p["name"],
        }
    values = {
        "slot": slot(p["slot"]).capitalize(),
        "name": p["name"],
        "fragments": ", ".join(f"“{f}”" for f in p["fragments"]),
        "skill": skill(v),
        "secondary": skill(p["secondary"]),
    }
    if p["secondary"]:
        return (
            _(
                "%(slot)s %(name)s hits %(fragments)s: primary %(skill)s (one point), "
                "secondary %(secondary)s."
            )
            % values
        )
    return _("%(slot)s %(name)s hits %(fragments)s: %(skill)s gets one point.") % values


@TRACE.register("skill.scores", section="skill")
def _skill_scores(p: Mapping[str, Any], v: Any) -> str:
    if not p:
        return _("No equipped attribute scored a point.")
    return _("Skill points: %(totals)s.") % {"totals": _totals(p, skill)}


@TRACE.register("skill.tie_break.scan", section="skill_tie_break")
def _skill_scan(p: Mapping[str, Any], v: Any) -> str:
    values = {
        "slot": slot(p["slot"]),
        "name": p["name"],
        "tier": tier(p["tier"]),
        "primary": skill(p["primary"]),
        "secondary": skill(p["secondary"]),
        "skill": skill(v),
    }
    if v is None:
        return (
            _(
                "Tie-break looks at %(name)s (%(slot)s, %(tier)s): primary %(primary)s, secondary "
                "%(secondary)s — neither is tied, so the scan goes on."
            )
            % values
        )
    return (
        _(
            "Tie-break looks at %(name)s (%(slot)s, %(tier)s): primary %(primary)s, secondary "
            "%(secondary)s — %(skill)s is tied, so it wins."
        )
        % values
    )


@TRACE.register("skill.tie_break", section="skill_tie_break")
def _skill_tie(p: Mapping[str, Any], v: Any) -> str:
    return _("%(tied)s were tied; %(name)s (%(slot)s) broke the tie → %(skill)s.") % {
        "tied": listing(skill(s) for s in p["tied"]),
        "name": p["name"],
        "slot": slot(p["slot"]),
        "skill": skill(v),
    }


@TRACE.register("skill.role_default", section="skill_role_default")
def _skill_default(p: Mapping[str, Any], v: Any) -> str:
    return _("No attribute scored, so the %(role)s default applies: %(skill)s.") % {
        "role": role(p["role"]),
        "skill": skill(v),
    }


@TRACE.register("skill.affinity", section="skill")
def _skill_affinity(p: Mapping[str, Any], v: Any) -> str:
    return _("Skill affinity: %(skill)s.") % {"skill": skill(v)}


@TRACE.register("skill.active", section="active_skill")
def _skill_active(p: Mapping[str, Any], v: Any) -> str:
    if v is None:
        return _(
            "No active skill: only Legendary cards use their skill (this card is %(rarity)s)."
        ) % {"rarity": rarity(p["rarity"])}
    return _("Legendary, so the affinity is the active skill: %(skill)s.") % {"skill": skill(v)}


@TRACE.register("skill.temporary_roll", section="temporary_skill")
def _temporary_roll(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "Temporary card: roll %(roll)s against the %(rarity)s chance %(chance)s → %(result)s."
    ) % {
        "roll": p["roll"],
        "rarity": rarity(p["rarity"]),
        "chance": p["chance"],
        "result": skill(v) if v else _("no active skill"),
    }


@TRACE.register("template.selected", section="template")
def _template(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "Template %(template)s: byte %(byte)s of the token's hash, %(byte)s mod %(count)s = "
        "%(index)s among the %(role)s templates (%(candidates)s)."
    ) % {
        "template": template_label(v),
        "byte": p["byte"],
        "count": p["count"],
        "index": p["index"],
        "role": role(p["role"]),
        "candidates": ", ".join(template_label(c) for c in p["candidates"]),
    }


@TRACE.register("stats.base", section="stats")
def _stats_base(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "Base stats of %(template)s: ATK %(atk)s, HP %(hp)s, DEF %(def)s, ability %(ability)s."
    ) % {**p, "template": template_label(p["template"])}


def _signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"−{-n}"


@TRACE.register("stats.rarity_bonus", section="stats")
def _rarity_bonus(p: Mapping[str, Any], v: Any) -> str:
    return _("%(rarity)s bonus: ATK %(atk)s, HP %(hp)s, ability %(ability)s.") % {
        "rarity": rarity(p["rarity"]),
        "atk": _signed(p["atk"]),
        "hp": _signed(p["hp"]),
        "ability": _signed(p["ability"]),
    }


@TRACE.register("stats.sticker_power", section="stats")
def _sticker_power(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "Sticker power: %(burned)s burned, +1 ATK per %(per)s (at most +%(cap)s) → ATK %(atk)s."
    ) % {"burned": p["burned"], "per": p["per_atk"], "cap": p["cap"], "atk": _signed(p["atk"])}


@TRACE.register("stats.paw_item", section="stats")
def _paw_item(p: Mapping[str, Any], v: Any) -> str:
    return _("Paw item %(name)s (%(tier)s tier) → ATK %(atk)s.") % {
        "name": p["name"],
        "tier": tier(p["tier"]),
        "atk": _signed(p["atk"]),
    }


@TRACE.register("stats.burn_milestone", section="stats")
def _burn_milestone(p: Mapping[str, Any], v: Any) -> str:
    if p["milestone"] is None:
        return _("Burn milestones: %(burned)s burned, none reached → HP +0.") % {
            "burned": p["burned"]
        }
    return _("Burn milestone %(milestone)s+ reached (%(burned)s burned) → HP %(hp)s.") % {
        "milestone": p["milestone"],
        "burned": p["burned"],
        "hp": _signed(p["hp"]),
    }


@TRACE.register("stats.final", section="stats")
def _stats_final(p: Mapping[str, Any], v: Any) -> str:
    return _("Final stats: ATK %(atk)s, HP %(hp)s, DEF %(def)s, ability %(ability)s.") % p


@TRACE.register("effects.template", section="effects")
def _effect_template(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(slot)s from the template: %(kind)s %(value)s (base %(base)s + ability bonus %(bonus)s)."
    ) % {
        "slot": effect_slot(p["slot"]),
        "kind": effect_kind(p["kind"]),
        "value": v,
        "base": p["base"],
        "bonus": p["bonus"],
    }


@TRACE.register("effects.allowance", section="fill_order")
def _effect_allowance(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "%(rarity)s allows %(count)s signature effect, filled in the %(role)s order: %(order)s.",
        "%(rarity)s allows %(count)s signature effects, filled in the %(role)s order: %(order)s.",
        v,
    ) % {
        "rarity": rarity(p["rarity"]),
        "count": v,
        "role": role(p["role"]),
        "order": " → ".join(effect_slot(s) for s in p["fill_order"]),
    }


@TRACE.register("effects.slot_taken", section="fill_order")
def _effect_taken(p: Mapping[str, Any], v: Any) -> str:
    return _("%(slot)s is already filled, so it is skipped.") % {"slot": effect_slot(p["slot"])}


@TRACE.register("effects.signature", section="effects")
def _effect_signature(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(slot)s signature of the %(role)s: %(kind)s %(value)s (base %(base)s + ability bonus "
        "%(bonus)s)."
    ) % {
        "slot": effect_slot(p["slot"]),
        "role": role(p["role"]),
        "kind": effect_kind(p["kind"]),
        "value": v,
        "base": p["base"],
        "bonus": p["bonus"],
    }


@TRACE.register("energy.cost", section="energy")
def _energy_cost(p: Mapping[str, Any], v: Any) -> str:
    return _("A %(rarity)s card costs %(cost)s NRG to deploy.") % {
        "rarity": rarity(p["rarity"]),
        "cost": v,
    }


@TRACE.register("energy.undercharge", section="undercharge")
def _undercharge(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "Deployed with %(nrg)s NRG (%(deficit)s short): ATK and DEF −%(cut)s%% → ATK %(atk)s, "
        "DEF %(def)s; effects %(effects)s; active skill off."
    ) % {
        "nrg": p["nrg"],
        "deficit": p["deficit"],
        "cut": p["stat_cut_percent"],
        "atk": p["atk"],
        "def": p["def"],
        "effects": ", ".join(f"{effect_slot(s)} {n}" for s, n in p["effects"].items()) or "—",
    }


def sentence(step: TraceStep, language: str | None = None) -> str:
    """The step in words, in the active language (``language``, when the caller read it)."""
    return TRACE.say(step.code, step.params, step.value, language)


def step_section(step: TraceStep) -> str:
    """The wiki section (a key of ``core.anchors``) that explains the step."""
    return TRACE[step.code].section or "rarity"


def _plain(value: Any) -> Any:
    return getattr(value, "value", value)


# ---------------------------------------------------------------------------
# Requirements: what lifts a rule to the next tier


@NEEDS_SAID.register("slots_at_most", section="supply_count", rule="supply_count")
def _need_slots(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "One more slot with supply ≤ %(max)s (from %(slots)s) → %(target)s.",
        "%(count)s more slots with supply ≤ %(max)s (from %(slots)s) → %(target)s.",
        p["slots_needed"],
    ) % {
        "count": p["slots_needed"],
        "max": p["max_supply"],
        "slots": slots(p["candidate_slots"]),
        "target": rarity(v),
    }


@NEEDS_SAID.register("score", section="wardrobe_score", rule="wardrobe_score")
def _need_score(p: Mapping[str, Any], v: Any) -> str:
    text = _("Wardrobe score %(have)s of %(threshold)s: %(missing)s more points → %(target)s.") % {
        "have": decimal(p["have"]),
        "threshold": number(p["threshold"]),
        "missing": decimal(p["missing"]),
        "target": rarity(v),
    }
    if p.get("one_attribute_max_supply"):
        text += " " + _("One more attribute with supply ≤ %(max)s is enough.") % {
            "max": p["one_attribute_max_supply"]
        }
    return text


@NEEDS_SAID.register("tier_equipped", section="tier_badge", rule="tier_badge")
def _need_tier(p: Mapping[str, Any], v: Any) -> str:
    return _("Equip a %(tier)s-tier attribute (supply ≤ %(max)s) in any slot → %(target)s.") % {
        "tier": tier(p["tier"]),
        "max": p["max_supply"],
        "target": rarity(v),
    }


@NEEDS_SAID.register("burned", section="burned_stickers", rule="burned_stickers")
def _need_burned(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "Burn %(missing)s more sticker (%(have)s of %(threshold)s) → %(target)s.",
        "Burn %(missing)s more stickers (%(have)s of %(threshold)s) → %(target)s.",
        p["missing"],
    ) % {**p, "target": rarity(v)}


@NEEDS_SAID.register("kind_equipped", section="god_premium", rule="god_premium")
def _need_kind(p: Mapping[str, Any], v: Any) -> str:
    if _plain(p["kind"]) == "god":
        return _("Equip a god attribute → %(target)s.") % {"target": rarity(v)}
    return _("Equip a premium skin → %(target)s.") % {"target": rarity(v)}


@NEEDS_SAID.register("combo", section="combo", rule="combo")
def _need_combo(p: Mapping[str, Any], v: Any) -> str:
    missing = listing(f"{name} ({slot(s)})" for s, name in p["missing"])
    return _("Complete the combo “%(combo)s”: equip %(missing)s → %(target)s.") % {
        "combo": p["combo"],
        "missing": missing,
        "target": rarity(v),
    }


@NEEDS_SAID.register("rank", section="getgems_rank", rule="getgems_rank")
def _need_rank(p: Mapping[str, Any], v: Any) -> str:
    return _("A GetGems rank of %(rank)s or better → %(target)s.") % {
        "rank": p["rank_at_most"],
        "target": rarity(v),
    }


def requirement_sentence(req: Requirement) -> str:
    """What lifts a rule to the next tier, in the active language."""
    return NEEDS_SAID.say(req.need, req.params, req.target)


# ---------------------------------------------------------------------------
# The one-line answer


def _rule_reason(result: Any) -> str:
    """Why one deciding rule gave its rarity, as a short clause."""
    key, e = result.key, result.evidence
    if key == "supply_count":
        for max_supply, matched in e["matched"]:
            tier_ = next((t for t in SUPPLY_COUNT_TIERS if t.max_supply == max_supply), None)
            count = len(matched)
            if tier_ is not None and tier_.rarity is result.rarity:
                return ngettext(
                    "%(count)s slot with supply ≤ %(max)s",
                    "%(count)s slots with supply ≤ %(max)s",
                    count,
                ) % {"count": count, "max": max_supply}
    if key == "wardrobe_score":
        return _("a wardrobe score of %(score)s") % {"score": decimal(e["display"])}
    if key == "tier_badge":
        return _("a unique-tier attribute equipped")
    if key == "burned_stickers":
        return ngettext("%(count)s burned sticker", "%(count)s burned stickers", e["burned"]) % {
            "count": e["burned"]
        }
    if key == "god_premium":
        return _("a god attribute equipped") if e["god"] else _("a premium skin equipped")
    if key == "combo":
        return _("the combo %(combos)s") % {"combos": listing(f"“{c.name}”" for c in e["matched"])}
    if key == "getgems_rank":
        return _("GetGems rank #%(rank)s") % {"rank": e["rank"]}
    return rule(key)


def one_line_answer(breakdown: Any) -> str:
    """ "Legendary because GetGems rank #4 and 3 slots with supply ≤ 3"."""
    if breakdown.decided_by == ("starter",):
        return _("%(rarity)s because it is a starter card.") % {
            "rarity": rarity(breakdown.rarity.value)
        }
    deciding = [r for r in breakdown.rules if r.key in breakdown.decided_by]
    if breakdown.rarity.value == "common":
        return _("Common: no rule lifts it higher.")
    return _("%(rarity)s because of %(reasons)s.") % {
        "rarity": rarity(breakdown.rarity.value),
        "reasons": listing(_rule_reason(r) for r in deciding),
    }


# ---------------------------------------------------------------------------
# Compare: which rule decides, and what the lower card would need


def decided_clause(breakdown: Any) -> str:
    """Which rule(s) set a card's rarity, with their evidence: "decided by Supply count:
    3 slots with supply ≤ 3"."""
    if breakdown.decided_by == ("starter",):
        return _("a starter card")
    if breakdown.rarity.value == "common":
        return _("no rule lifts it higher")
    deciding = [r for r in breakdown.rules if r.key in breakdown.decided_by]
    return ngettext(
        "decided by %(rules)s: %(reasons)s",
        "decided by %(rules)s: %(reasons)s",
        len(deciding),
    ) % {
        "rules": listing(rule(r.key) for r in deciding),
        "reasons": listing(_rule_reason(r) for r in deciding),
    }


def _as_clause(text: str) -> str:
    """A requirement's sentence inside another: lower-case start, no full stop."""
    text = text.strip().removesuffix(".")
    return text[:1].lower() + text[1:]


def compare_sentence(
    a: str, b: str, da: Any, db: Any, need: str | None, target: object | None
) -> str:
    """One sentence on two cards' rarities: why ``a``'s is above ``b``'s (or why they are
    level), which rule decides each, and what ``b`` would need (``need``: a requirement's
    sentence; None when nothing of its own gets it there)."""
    values = {
        "a": a,
        "b": b,
        "a_rarity": rarity(da.rarity.value),
        "b_rarity": rarity(db.rarity.value),
        "a_why": decided_clause(da),
        "b_why": decided_clause(db),
        "target": rarity(getattr(target, "value", target)) if target is not None else "",
        "need": _as_clause(need) if need else "",
    }
    if da.rarity != db.rarity:
        if not need:
            return (
                _(
                    "%(a)s is above %(b)s: %(a_rarity)s (%(a_why)s) beats %(b_rarity)s "
                    "(%(b_why)s), and nothing of its own would lift %(b)s to %(a_rarity)s."
                )
                % values
            )
        return (
            _(
                "%(a)s is above %(b)s: %(a_rarity)s (%(a_why)s) beats %(b_rarity)s "
                "(%(b_why)s); to reach %(a_rarity)s, %(b)s would need: %(need)s."
            )
            % values
        )
    if target is None:
        return (
            _(
                "%(a)s and %(b)s are both %(a_rarity)s (%(a)s: %(a_why)s; %(b)s: %(b_why)s), "
                "and neither can rise higher."
            )
            % values
        )
    if not need:
        return (
            _(
                "%(a)s and %(b)s are both %(a_rarity)s (%(a)s: %(a_why)s; %(b)s: %(b_why)s), "
                "and nothing of its own would lift %(b)s to %(target)s."
            )
            % values
        )
    return (
        _(
            "%(a)s and %(b)s are both %(a_rarity)s (%(a)s: %(a_why)s; %(b)s: %(b_why)s); "
            "to rise to %(target)s, %(b)s would need: %(need)s."
        )
        % values
    )


# ---------------------------------------------------------------------------
# How safe is this tier (engine.card.fragility)


def tier_safety(drop: Any, current: object) -> str:
    """The smallest single change of market data that lowers the card's tier, in words
    ("One more print of Rusty Ring makes it Epic."); "" for a Free or Common card, which
    no such change can lower."""
    if drop is None:
        if str(getattr(current, "value", current)) in ("free", "common"):
            return ""
        return _(
            "No single rise in an attribute's supply and no worse GetGems rank lowers its tier."
        )
    if drop.kind == "rank":
        return _(
            "GetGems rank #%(rank)s or worse removes the %(floor)s floor: it would be %(rarity)s."
        ) % {
            "rank": drop.rank,
            "floor": rarity(drop.rarity.value),
            "rarity": rarity(drop.lowered_to.value),
        }
    values = {
        "name": drop.name,
        "slot": slot(drop.slot.value),
        "now": drop.supply - drop.steps,
        "supply": drop.supply,
        "count": drop.steps,
        "rarity": rarity(drop.lowered_to.value),
    }
    if drop.steps == 1:
        return (
            _("One more print of %(name)s (%(slot)s, supply %(now)s) makes it %(rarity)s.") % values
        )
    return (
        ngettext(
            "%(count)s more print of %(name)s (%(slot)s, supply %(now)s → %(supply)s) makes it %(rarity)s.",
            "%(count)s more prints of %(name)s (%(slot)s, supply %(now)s → %(supply)s) make it %(rarity)s.",
            drop.steps,
        )
        % values
    )


__all__ = [
    "NEEDS_SAID",
    "TRACE",
    "compare_sentence",
    "decided_clause",
    "one_line_answer",
    "requirement_sentence",
    "sentence",
    "step_section",
    "tier_safety",
    "wiki_url",
]
