"""Event codes and refusal codes of the match engine → EN/RU sentences (the only place).

The engine speaks in codes with parameters (``engine.match.EVENT_CODES`` and
``engine.match.ILLEGAL_CODES``); this module turns them into the visitor's
language. The player is side ``a`` ("you"), the bot side ``b``. Card names are
proper names, so sentences put them where no grammatical case is needed, and
Heroes appear as "Your Hero:" / "Bot's Hero:" labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from core.labels import enum_label
from engine.match import Event

__all__ = [
    "Line",
    "boost_label",
    "error_message",
    "narrate",
    "narrate_all",
    "reason_text",
    "result_text",
    "skill_label",
    "slot_label",
]


@dataclass(frozen=True, slots=True)
class Line:
    """A narrated event: its sentence, a CSS kind and which side it concerns."""

    text: str
    kind: str
    side: str | None = None


# Names of boosts, effect slots and skills come from core.labels (game terms that stay
# in Latin letters in Russian, as on the rules pages).
def boost_label(key: str) -> str:
    return enum_label("boost", key)


def slot_label(slot: str) -> str:
    return enum_label("effect_slot", slot)


def skill_label(skill: str | None) -> str:
    return enum_label("skill", skill)  # None → "none"


def effect_label(kind: str, value: int) -> str:
    """An effect in words with its value (for card panels)."""
    texts = {
        "damage_card": _("%(n)s damage to the enemy card"),
        "damage_hero": _("%(n)s damage to the enemy Hero"),
        "heal_hero": _("heals own Hero %(n)s"),
        "shield": _("+%(n)s DEF to this card"),
        "buff_atk": _("+%(n)s ATK to this card"),
        "burn": _("burn: enemy Hero −%(n)s each round"),
        "wounded_rage": _("Wounded Rage: +%(n)s ATK while own Hero ≤ 15"),
    }
    return texts.get(kind, kind) % {"n": value}


def _actor(side: str) -> str:
    return _("You") if side == "a" else _("Bot")


def _hero(side: str) -> str:
    return _("Your Hero") if side == "a" else _("Bot's Hero")


def _card_owner(side: str) -> str:
    return _("your card") if side == "a" else _("the bot's card")


def _initiative_holder(side: str) -> str:
    return _("you") if side == "a" else _("the bot")


def result_text(result: str | None) -> str:
    if result == "a":
        return _("You win!")
    if result == "b":
        return _("The bot wins.")
    if result == "draw":
        return _("A draw.")
    return _("The match is on.")


def reason_text(reason: str | None, round_: int | None = None) -> str:
    texts = {
        "hero_defeated": _("A Hero fell to 0 HP."),
        "both_defeated": _("Both Heroes fell in the same beat."),
        "surrender": _("Surrender."),
        "decks_exhausted": _("No card was left on either side: the higher Hero HP wins."),
        "round_limit": _("Round %(round)s reached: the higher Hero HP wins.")
        % {"round": round_ if round_ is not None else 200},
    }
    return texts.get(reason or "", "")


def _strike_notes(p: Mapping[str, Any]) -> str:
    notes = []
    if p.get("first_strike"):
        notes.append(_("first strike"))
    if p.get("rage"):
        notes.append(_("Rage +%(n)s") % {"n": p["rage"]})
    if p.get("wounded_rage"):
        notes.append(_("Wounded Rage +%(n)s") % {"n": p["wounded_rage"]})
    if p.get("pierce"):
        notes.append(_("Pierce: DEF skipped"))
    return f" ({'; '.join(notes)})" if notes else ""


def narrate(event: Event, *, show_bot_picks: bool = False) -> Line | None:
    """One event as a sentence in the active language (None for events left unsaid)."""
    code = event.code
    p = dict(event.params)
    side = p.get("side")
    for key in ("slot",):
        if key in p:
            p[key] = slot_label(p[key])
    if code == "hero.start":
        text = _("%(hero)s: %(hp)s Hero HP at the start (%(base)s + %(bonus)s for the deck).") % {
            "hero": _hero(side),
            "hp": p["hp"],
            "base": p["base"],
            "bonus": p["bonus"],
        }
        return Line(text, "start", side)
    if code == "round.start":
        reason = _("lower Hero HP") if p["reason"] == "lower_hp" else _("tie: it alternates")
        text = _("Round %(round)s. Initiative: %(holder)s (%(reason)s).") % {
            "round": p["round"],
            "holder": _initiative_holder(p["initiative"]),
            "reason": reason,
        }
        return Line(text, "round")
    if code == "prepare.pick":
        if side == "b" and not show_bot_picks:
            return None
        text = _("%(actor)s — picked %(name)s to deploy.") % {"actor": _actor(side), **p}
        return Line(text, "prepare", side)
    if code == "boost.charge":
        text = _("%(actor)s — Charge: +%(amount)s NRG (now %(nrg)s).") % {
            "actor": _actor(side),
            **p,
        }
        return Line(text, "boost", side)
    if code == "boost.switch":
        text = _(
            "%(actor)s — Switch: %(name)s returns to the deck (HP %(hp)s, DEF %(def)s kept); "
            "%(to_name)s will enter."
        ) % {"actor": _actor(side), **p}
        return Line(text, "boost", side)
    if code == "boost.rage":
        text = _("%(actor)s — Rage: +%(amount)s ATK this round.") % {"actor": _actor(side), **p}
        return Line(text, "boost", side)
    if code == "boost.guard_up":
        text = _("%(actor)s — Guard Up: %(name)s +%(amount)s DEF (DEF %(def)s).") % {
            "actor": _actor(side),
            **p,
        }
        return Line(text, "boost", side)
    if code == "boost.hero_patch":
        text = _("%(actor)s — Hero Patch: +%(amount)s Hero HP (now %(hp)s).") % {
            "actor": _actor(side),
            **p,
        }
        return Line(text, "boost", side)
    if code == "commit":
        return Line(_("%(actor)s — committed.") % {"actor": _actor(side)}, "commit", side)
    if code == "deploy":
        text = _(
            "%(actor)s — %(name)s enters the field: pays %(paid)s of %(cost)s NRG "
            "(%(nrg)s left); ATK %(atk)s, HP %(hp)s, DEF %(def)s."
        ) % {"actor": _actor(side), **p}
        return Line(text, "deploy", side)
    if code == "deploy.undercharged":
        if p["halved"]:
            effects = _("numeric effects halved")
        else:
            effects = _("numeric effects −%(n)s") % {"n": p["effect_minus"]}
        text = _(
            "%(name)s is Undercharged (%(deficit)s NRG short): ATK and DEF −%(cut)s%% "
            "(ATK %(atk)s, DEF %(def)s), %(effects)s, active skill off."
        ) % {**p, "cut": p["cut_percent"], "effects": effects}
        return Line(text, "undercharge", side)
    if code == "arcane.bonus":
        text = _("Arcane: %(name)s gets +%(bonus)s on its Deploy and Passive values.") % p
        return Line(text, "skill", side)
    if code == "deploy.lost":
        text = _("%(name)s was destroyed before its Deploy could fire.") % p
        return Line(text, "effect", side)
    if code == "effect.no_target":
        text = _("%(name)s (%(slot)s) has no target: the enemy field is empty.") % p
        return Line(text, "effect", side)
    if code == "effect.damage_card":
        text = (
            _(
                "%(name)s (%(slot)s) deals %(amount)s to %(target_name)s: %(to_def)s into DEF, "
                "%(to_hp)s into HP (DEF %(def)s, HP %(hp)s left)."
            )
            % p
        )
        return Line(text, "damage", side)
    if code == "effect.damage_hero":
        text = _("%(hero)s: −%(amount)s HP from %(name)s (%(slot)s); %(hp)s left.") % {
            "hero": _hero(p["target"]),
            **p,
        }
        return Line(text, "damage", side)
    if code == "effect.heal_hero":
        text = _("%(hero)s: +%(amount)s HP from %(name)s (%(slot)s); now %(hp)s.") % {
            "hero": _hero(side),
            **p,
        }
        return Line(text, "heal", side)
    if code == "effect.shield":
        text = _("%(name)s (%(slot)s): +%(amount)s DEF, DEF now %(def)s.") % p
        return Line(text, "effect", side)
    if code == "effect.buff_atk":
        text = _("%(name)s (%(slot)s): +%(amount)s ATK, ATK now %(atk)s.") % p
        return Line(text, "effect", side)
    if code == "effect.burn":
        text = _("%(hero)s: −%(amount)s HP from %(name)s's burn; %(hp)s left.") % {
            "hero": _hero(p["target"]),
            **p,
        }
        return Line(text, "damage", side)
    if code == "strike.order":
        if p["mode"] == "first_strike":
            text = _("Speed: %(owner)s strikes first.") % {"owner": _card_owner(p["first"])}
        elif p["mode"] == "speed_initiative":
            text = _("Both cards have Speed: initiative decides, %(owner)s strikes first.") % {
                "owner": _card_owner(p["first"])
            }
        else:
            text = _("Neither card has Speed: both strike at once.")
        return Line(text, "order")
    if code == "strike.card":
        text = _(
            "%(name)s strikes %(target_name)s for %(atk)s%(notes)s: %(to_def)s into DEF, "
            "%(to_hp)s into HP (DEF %(def)s, HP %(hp)s left)."
        ) % {**p, "notes": _strike_notes(p)}
        return Line(text, "strike", side)
    if code == "strike.hero":
        text = _(
            "%(name)s strikes the unguarded Hero for %(atk)s%(notes)s — %(hero)s: %(hp)s HP left."
        ) % {**p, "notes": _strike_notes(p), "hero": _hero(p["target"])}
        return Line(text, "strike", side)
    if code == "strike.prevented":
        text = _("%(name)s fell to the first strike and does not strike back.") % p
        return Line(text, "strike", side)
    if code == "steal.heal":
        text = _("%(hero)s: +%(amount)s HP (Steal, %(name)s); now %(hp)s.") % {
            "hero": _hero(side),
            **p,
        }
        return Line(text, "heal", side)
    if code == "card.dies":
        return Line(_("%(name)s is defeated.") % p, "death", side)
    if code == "nrg.gain":
        text = _("%(actor)s — +%(amount)s NRG (now %(nrg)s).") % {"actor": _actor(side), **p}
        return Line(text, "nrg", side)
    if code == "round.end":
        return Line(_("End of round %(round)s.") % p, "round-end")
    if code == "surrender":
        text = _("You surrender.") if side == "a" else _("The bot surrenders.")
        return Line(text, "end", side)
    if code == "match.end":
        text = _("%(result)s %(reason)s Hero HP: you %(hp_a)s, the bot %(hp_b)s.") % {
            "result": result_text(p["result"]),
            "reason": reason_text(p["reason"], p["round"]),
            **p,
        }
        return Line(text, "end")
    return Line(code, "unknown", side)  # a new engine code not worded yet: show the code


def narrate_all(events: Iterable[Event], *, show_bot_picks: bool = False) -> list[Line]:
    lines = []
    for event in events:
        line = narrate(event, show_bot_picks=show_bot_picks)
        if line is not None:
            lines.append(line)
    return lines


def error_message(code: str, params: Mapping[str, Any] | None = None) -> str:
    """A refused action in the visitor's language (engine codes and the demo's own)."""
    p = dict(params or {})
    boost = boost_label(str(p.get("boost", "")))
    texts = {
        "bad_action": _("That is not an action of this game."),
        "bad_side": _("That is not your side of the match."),
        "match_over": _("The match is over."),
        "already_committed": _("You have already committed this round."),
        "card_on_field": _("You already have a card on the field; use Switch to change it."),
        "unknown_card": _("That card is not in your deck."),
        "card_defeated": _("That card has been defeated."),
        "pick_required": _("Pick a card to deploy before you commit."),
        "unknown_boost": _("There is no such boost."),
        "boost_used": _("You have already used %(boost)s in this match.") % {"boost": boost},
        "boost_limit": _("You may use at most %(limit)s boosts per round.")
        % {"limit": p.get("limit", 2)},
        "nrg_full": _("Your NRG is already at the cap of %(cap)s.") % {"cap": p.get("cap", 4)},
        "hero_hp_full": _("Your Hero is already at %(cap)s HP.") % {"cap": p.get("cap", 90)},
        "no_card_on_field": _("Switch needs a card on the field."),
        "no_card": _("%(boost)s needs a card on the field or a picked card.") % {"boost": boost},
        "switch_target": _("Switch needs another card that is still in play."),
        # The demo's own refusals.
        "stale": _(
            "That form was out of date (the match had moved on, or it was sent twice). "
            "Nothing was changed; here is the match as it stands."
        ),
    }
    return texts.get(code, texts["bad_action"])
