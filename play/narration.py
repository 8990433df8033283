"""The match engine's codes in the visitor's language: events, refusals, deck errors.

The engine speaks in codes with parameters that carry every number (``EVENT_CODES``,
``ILLEGAL_CODES``, ``DECK_ERROR_CODES`` in ``engine.match``). Each code is registered
here once, in one of three ``core.narration.Registry`` s, with its sentence (and, for an
event, the CSS kind of its log line and the wiki section that explains it). Names of
boosts, effect slots, end reasons and the like come from ``core.labels``. A test renders
every code in English and Russian.

The player is side ``a`` ("you"), the bot side ``b``. Card names are proper names, so
sentences put them where no grammatical case is needed, and Heroes appear as
"Your Hero:" / "Bot's Hero:" labels.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.labels import label, label_of, result_text  # result_text: shared with the arena
from core.narration import Registry, Say
from engine.match import DECK_ERROR_CODES, EVENT_CODES, ILLEGAL_CODES, Event
from engine.types import BoostKind, EffectKind, EffectSlot, EndReason, Skill

__all__ = [
    "DECK_ERRORS",
    "EVENTS",
    "REFUSALS",
    "SITE_DECK_ERRORS",
    "SITE_REFUSALS",
    "Line",
    "deck_error",
    "narrate",
    "narrate_all",
    "reason_text",
    "refusal",
    "result_text",
]

# The demo's own codes, beside the engine's: a form made for an earlier point of the
# match, "finish the match" while a card is left, and a card not in the collection.
SITE_REFUSALS = ("stale", "cards_left")
SITE_DECK_ERRORS = ("unknown_card",)

EVENTS = Registry("match events", EVENT_CODES)
REFUSALS = Registry("match refusals", (*ILLEGAL_CODES, *SITE_REFUSALS))
DECK_ERRORS = Registry("deck errors", (*DECK_ERROR_CODES, *SITE_DECK_ERRORS))


@dataclass(frozen=True, slots=True)
class Line:
    """A narrated event: its sentence, a CSS kind and which side it concerns."""

    text: str
    kind: str
    side: str | None = None


def _event(*codes: str, kind: str, section: str | None = None) -> Callable[[Say], Say]:
    """Register the sentence of ``codes`` with the CSS kind of their log lines."""
    return EVENTS.register(*codes, section=section, kind=kind)


# ---------------------------------------------------------------------------
# Words the sentences share


def _actor(side: str) -> str:
    return _("You") if side == "a" else _("Bot")


def _hero(side: str) -> str:
    return _("Your Hero") if side == "a" else _("Bot's Hero")


def _card_owner(side: str) -> str:
    return _("your card") if side == "a" else _("the bot's card")


def _initiative_holder(side: str) -> str:
    return _("you") if side == "a" else _("the bot")


def _slot(p: Mapping[str, Any]) -> str:
    return label_of(EffectSlot, p["slot"])


def _boost(p: Mapping[str, Any]) -> str:
    return label_of(BoostKind, p.get("boost"))


def _actor_boost(p: Mapping[str, Any], boost: BoostKind) -> dict[str, Any]:
    """The sentence parameters of a boost event: who, which boost (its name), the numbers."""
    return {**p, "actor": _actor(p["side"]), "boost": label(boost)}


def reason_text(reason: str | None, round_limit: int) -> str:
    """Why a match ended, as a sentence (``round_limit`` is the engine's round cap)."""
    texts: dict[str | None, Callable[[], str]] = {
        EndReason.HERO_DEFEATED: lambda: _("A Hero fell to 0 HP."),
        EndReason.BOTH_DEFEATED: lambda: _("Both Heroes fell in the same beat."),
        EndReason.SURRENDER: lambda: _("Surrender."),
        EndReason.DECKS_EXHAUSTED: lambda: _(
            "No card was left on either side: the unused Hero Patches were counted and "
            "the higher Hero HP wins."
        ),
        EndReason.ROUND_LIMIT: lambda: (
            _("Round %(round)s reached: the higher Hero HP wins.") % {"round": round_limit}
        ),
    }
    text = texts.get(reason)
    return text() if text is not None else ""


def _strike_notes(p: Mapping[str, Any]) -> str:
    notes = []
    if p["first_strike"]:
        notes.append(_("first strike"))
    if p["rage"]:
        notes.append(_("%(boost)s +%(n)s") % {"boost": label(BoostKind.RAGE), "n": p["rage"]})
    if p["wounded_rage"]:
        notes.append(
            _("%(effect)s +%(n)s")
            % {"effect": label(EffectKind.WOUNDED_RAGE), "n": p["wounded_rage"]}
        )
    if p.get("pierce"):
        notes.append(_("%(skill)s: DEF skipped") % {"skill": label(Skill.PIERCE)})
    return f" ({'; '.join(notes)})" if notes else ""


# ---------------------------------------------------------------------------
# Match events


@_event("hero.start", kind="start", section="hero_hp")
def _hero_start(p: Mapping[str, Any], v: Any) -> str:
    return _("%(hero)s: %(hp)s Hero HP at the start (%(base)s + %(bonus)s for the deck).") % {
        "hero": _hero(p["side"]),
        "hp": p["hp"],
        "base": p["base"],
        "bonus": p["bonus"],
    }


@_event("round.start", kind="round")
def _round_start(p: Mapping[str, Any], v: Any) -> str:
    reason = _("lower Hero HP") if p["reason"] == "lower_hp" else _("tie: it alternates")
    return _("Round %(round)s. Initiative: %(holder)s (%(reason)s).") % {
        "round": p["round"],
        "holder": _initiative_holder(p["initiative"]),
        "reason": reason,
    }


@_event("prepare.pick", kind="prepare")
def _pick(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — picked %(name)s to deploy.") % {"actor": _actor(p["side"]), **p}


@_event("boost.charge", kind="boost")
def _charge(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — %(boost)s: +%(amount)s NRG (now %(nrg)s).") % _actor_boost(
        p, BoostKind.CHARGE
    )


@_event("boost.switch", kind="boost")
def _switch(p: Mapping[str, Any], v: Any) -> str:
    text = _(
        "%(actor)s — %(boost)s: %(name)s returns to the deck (HP %(hp)s, DEF %(def)s kept); "
        "%(to_name)s will enter."
    ) % _actor_boost(p, BoostKind.SWITCH)
    if p.get("rage"):
        text += " " + _("Its %(boost)s (+%(n)s ATK) leaves with it.") % {
            "boost": label(BoostKind.RAGE),
            "n": p["rage"],
        }
    return text


@_event("boost.rage", kind="boost")
def _rage(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — %(boost)s: %(name)s +%(amount)s ATK this round.") % _actor_boost(
        p, BoostKind.RAGE
    )


@_event("boost.guard_up", kind="boost", section="shield")
def _guard_up(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — %(boost)s: %(name)s +%(amount)s DEF (DEF %(def)s).") % _actor_boost(
        p, BoostKind.GUARD_UP
    )


@_event("boost.hero_patch", kind="boost")
def _hero_patch(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — %(boost)s: +%(amount)s Hero HP (now %(hp)s).") % _actor_boost(
        p, BoostKind.HERO_PATCH
    )


@_event("commit", kind="commit")
def _commit(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — committed.") % {"actor": _actor(p["side"])}


@_event("deploy", kind="deploy", section="energy")
def _deploy(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(actor)s — %(name)s enters the field: pays %(paid)s of %(cost)s NRG "
        "(%(nrg)s left); ATK %(atk)s, HP %(hp)s, DEF %(def)s."
    ) % {"actor": _actor(p["side"]), **p}


@_event("deploy.undercharged", kind="undercharge", section="undercharge")
def _undercharged(p: Mapping[str, Any], v: Any) -> str:
    if p["halved"]:
        effects = _("numeric effects halved")
    else:
        effects = _("numeric effects −%(n)s") % {"n": p["effect_minus"]}
    return _(
        "%(name)s is Undercharged (%(deficit)s NRG short): ATK and DEF −%(cut)s%% "
        "(ATK %(atk)s, DEF %(def)s), %(effects)s, active skill off."
    ) % {**p, "cut": p["cut_percent"], "effects": effects}


@_event("arcane.bonus", kind="skill")
def _arcane(p: Mapping[str, Any], v: Any) -> str:
    return _("%(skill)s: %(name)s gets +%(bonus)s on its %(deploy)s and %(passive)s values.") % {
        **p,
        "skill": label(Skill.ARCANE),
        "deploy": label(EffectSlot.DEPLOY),
        "passive": label(EffectSlot.PASSIVE),
    }


@_event("deploy.lost", kind="effect")
def _deploy_lost(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s was destroyed before its Deploy could fire.") % p


@_event("effect.no_target", kind="effect")
def _no_target(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s (%(slot)s) has no target: the enemy field is empty.") % {
        **p,
        "slot": _slot(p),
    }


@_event("effect.damage_card", kind="damage")
def _damage_card(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(name)s (%(slot)s) deals %(amount)s to %(target_name)s: %(to_def)s into DEF, "
        "%(to_hp)s into HP (DEF %(def)s, HP %(hp)s left)."
    ) % {**p, "slot": _slot(p)}


@_event("effect.damage_hero", kind="damage")
def _damage_hero(p: Mapping[str, Any], v: Any) -> str:
    return _("%(hero)s: −%(amount)s HP from %(name)s (%(slot)s); %(hp)s left.") % {
        **p,
        "hero": _hero(p["target"]),
        "slot": _slot(p),
    }


@_event("effect.heal_hero", kind="heal")
def _heal_hero(p: Mapping[str, Any], v: Any) -> str:
    return _("%(hero)s: +%(amount)s HP from %(name)s (%(slot)s); now %(hp)s.") % {
        **p,
        "hero": _hero(p["side"]),
        "slot": _slot(p),
    }


@_event("effect.shield", kind="effect", section="shield")
def _shield(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s (%(slot)s): +%(amount)s DEF, DEF now %(def)s.") % {**p, "slot": _slot(p)}


@_event("effect.buff_atk", kind="effect")
def _buff_atk(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s (%(slot)s): +%(amount)s ATK, ATK now %(atk)s.") % {**p, "slot": _slot(p)}


@_event("effect.burn", kind="damage")
def _burn(p: Mapping[str, Any], v: Any) -> str:
    return _("%(hero)s: −%(amount)s HP from %(name)s (%(effect)s); %(hp)s left.") % {
        **p,
        "hero": _hero(p["target"]),
        "effect": label(EffectKind.BURN),
    }


@_event("strike.order", kind="order")
def _strike_order(p: Mapping[str, Any], v: Any) -> str:
    speed = label(Skill.SPEED)
    if p["mode"] == "first_strike":
        return _("%(skill)s: %(owner)s strikes first.") % {
            "skill": speed,
            "owner": _card_owner(p["first"]),
        }
    if p["mode"] == "speed_initiative":
        return _("Both cards have %(skill)s: initiative decides, %(owner)s strikes first.") % {
            "skill": speed,
            "owner": _card_owner(p["first"]),
        }
    return _("Neither card has %(skill)s: both strike at once.") % {"skill": speed}


@_event("strike.card", kind="strike", section="shield")
def _strike_card(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(name)s strikes %(target_name)s for %(atk)s%(notes)s: %(to_def)s into DEF, "
        "%(to_hp)s into HP (DEF %(def)s, HP %(hp)s left)."
    ) % {**p, "notes": _strike_notes(p)}


@_event("strike.hero", kind="strike")
def _strike_hero(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(name)s strikes the unguarded Hero for %(atk)s%(notes)s — %(hero)s: %(hp)s HP left."
    ) % {**p, "notes": _strike_notes(p), "hero": _hero(p["target"])}


@_event("strike.prevented", kind="strike")
def _prevented(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s fell to the first strike and does not strike back.") % p


@_event("steal.heal", kind="heal")
def _steal(p: Mapping[str, Any], v: Any) -> str:
    return _("%(hero)s: +%(amount)s HP (%(skill)s, %(name)s); now %(hp)s.") % {
        **p,
        "hero": _hero(p["side"]),
        "skill": label(Skill.STEAL),
    }


@_event("card.dies", kind="death")
def _dies(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s is defeated.") % p


@_event("nrg.gain", kind="nrg")
def _nrg(p: Mapping[str, Any], v: Any) -> str:
    return _("%(actor)s — +%(amount)s NRG (now %(nrg)s).") % {"actor": _actor(p["side"]), **p}


@_event("round.end", kind="round-end")
def _round_end(p: Mapping[str, Any], v: Any) -> str:
    return _("End of round %(round)s.") % p


@_event("hero_patch.counted", kind="heal")
def _patch_counted(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(hero)s: +%(amount)s HP from the unused %(boost)s, counted because no card is "
        "left on either side; now %(hp)s."
    ) % {**p, "hero": _hero(p["side"]), "boost": label(BoostKind.HERO_PATCH)}


@_event("surrender", kind="end")
def _surrender(p: Mapping[str, Any], v: Any) -> str:
    return _("You surrender.") if p["side"] == "a" else _("The bot surrenders.")


@_event("match.end", kind="end")
def _match_end(p: Mapping[str, Any], v: Any) -> str:
    return _("%(result)s %(reason)s Hero HP: you %(hp_a)s, the bot %(hp_b)s.") % {
        "result": result_text(p["result"]),
        "reason": reason_text(p["reason"], p["round_limit"]),
        "hp_a": p["hp_a"],
        "hp_b": p["hp_b"],
    }


def narrate(event: Event, *, show_bot_picks: bool = False) -> Line | None:
    """One event as a line in the active language (None for the bot's hidden pick)."""
    p = event.params
    side = p.get("side")
    if event.code == "prepare.pick" and side == "b" and not show_bot_picks:
        return None
    phrase = EVENTS[event.code]
    return Line(phrase.say(p, None), phrase.kind or "", side)


def narrate_all(events: Iterable[Event], *, show_bot_picks: bool = False) -> list[Line]:
    """The events' lines, in order (the bot's hidden picks left out)."""
    lines = (narrate(event, show_bot_picks=show_bot_picks) for event in events)
    return [line for line in lines if line is not None]


# ---------------------------------------------------------------------------
# Refusals


def _say(text: Callable[[], str]) -> Say:
    return lambda p, v: text()


for _code, _text in {
    "bad_action": lambda: _("That is not an action of this game."),
    "bad_side": lambda: _("That is not your side of the match."),
    "match_over": lambda: _("The match is over."),
    "already_committed": lambda: _("You have already committed this round."),
    "card_on_field": lambda: _("You already have a card on the field; use Switch to change it."),
    "unknown_card": lambda: _("That card is not in your deck."),
    "card_defeated": lambda: _("That card has been defeated."),
    "pick_required": lambda: _("Pick a card to deploy before you commit."),
    "unknown_boost": lambda: _("There is no such boost."),
    "stale": lambda: _(
        "That form was out of date (the match had moved on, or it was sent twice). "
        "Nothing was changed; here is the match as it stands."
    ),
    "cards_left": lambda: _(
        "You still have a card to play, so the match cannot be finished for you: play on."
    ),
}.items():
    REFUSALS.register(_code)(_say(_text))


@REFUSALS.register("switch_target")
def _switch_target(p: Mapping[str, Any], v: Any) -> str:
    return _("%(boost)s needs another card that is still in play.") % {
        "boost": label(BoostKind.SWITCH)
    }


@REFUSALS.register("boost_used")
def _boost_used(p: Mapping[str, Any], v: Any) -> str:
    return _("You have already used %(boost)s in this match.") % {"boost": _boost(p)}


@REFUSALS.register("boost_limit")
def _boost_limit(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "You may use at most %(limit)s boost per round.",
        "You may use at most %(limit)s boosts per round.",
        p["limit"],
    ) % {"limit": p["limit"]}


@REFUSALS.register("nrg_full")
def _nrg_full(p: Mapping[str, Any], v: Any) -> str:
    return _("Your NRG is already at the cap of %(cap)s.") % p


@REFUSALS.register("hero_hp_full")
def _hero_hp_full(p: Mapping[str, Any], v: Any) -> str:
    return _("Your Hero is already at %(cap)s HP.") % p


@REFUSALS.register("no_card_on_field")
def _no_card_on_field(p: Mapping[str, Any], v: Any) -> str:
    return _("%(boost)s needs a card on the field.") % {"boost": _boost(p)}


@REFUSALS.register("no_card")
def _no_card(p: Mapping[str, Any], v: Any) -> str:
    return _("%(boost)s needs a card on the field or a picked card.") % {"boost": _boost(p)}


def refusal(code: str, params: Mapping[str, Any] | None = None) -> str:
    """A refused action in the visitor's language (an engine code or the demo's own)."""
    if code not in REFUSALS:
        code = "bad_action"
    return REFUSALS.say(code, params or {})


# ---------------------------------------------------------------------------
# Deck errors


@DECK_ERRORS.register("empty")
def _deck_empty(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "Pick at least %(n)s card for your deck.",
        "Pick at least %(n)s cards for your deck.",
        p["minimum"],
    ) % {"n": p["minimum"]}


@DECK_ERRORS.register("too_many")
def _deck_too_many(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "A deck holds at most %(n)s card.", "A deck holds at most %(n)s cards.", p["maximum"]
    ) % {"n": p["maximum"]}


DECK_ERRORS.fixed("duplicate", text=gettext_lazy("A deck may hold each card only once."))
DECK_ERRORS.fixed(
    "invalid_card",
    "unknown_card",
    text=gettext_lazy("One of those cards is not in the collection."),
)
DECK_ERRORS.fixed("format", text=gettext_lazy("Those decks are not in the form the game reads."))


def deck_error(code: str, params: Mapping[str, Any] | None = None) -> str:
    """Why the chosen cards cannot make a deck, in the visitor's language."""
    if code not in DECK_ERRORS:
        code = "unknown_card"
    return DECK_ERRORS.say(code, params or {})
