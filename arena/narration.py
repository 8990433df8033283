"""The arena's codes in words: the stat book's steps, the match's events and refusals.

Three ``core.narration.Registry`` families, one registration per code the engine can
emit (``engine.slabs.SLAB_CODES``, ``engine.arena.EVENT_CODES``,
``engine.arena.ILLEGAL_CODES``), each with its sentence and the Leagues section that
explains it (``arena.anchors``). A test proves none is missing in English and Russian.
In a match the player is side ``a`` ("you"), the bot side ``b``. Slab names are proper
names: the sentences put them where no grammatical case is needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.labels import enum_label
from core.narration import Registry
from engine.arena.match import EVENT_CODES, ILLEGAL_CODES, Event
from engine.arena.slabs import (
    ELEMENT_BEATS,
    ELEMENT_BONUS,
    ENERGY_BANK_MAX,
    MIN_DAMAGE,
    SLAB_CODES,
    USD_CENT,
    Element,
)

from .anchors import leagues_url
from .formatting import money, percent

__all__ = [
    "EVENTS",
    "NOTICES",
    "REFUSALS",
    "STAT_BOOK",
    "Line",
    "narrate",
    "notice",
    "refusal",
    "step_sentence",
]

STAT_BOOK = Registry("slab stat book", SLAB_CODES)
EVENTS = Registry("arena events", EVENT_CODES)
REFUSALS = Registry("arena refusals", ILLEGAL_CODES)


def tier(value: object) -> str:
    return enum_label("slab_tier", value)


def element(value: object) -> str:
    return enum_label("element", value)


def bracket(value: object) -> str:
    return enum_label("bracket", value)


def _below(bound: str | None) -> str:
    """The last cent of a band that ends below ``bound``."""
    return money(Decimal(bound) - USD_CENT) if bound is not None else ""


# ---------------------------------------------------------------------------
# The stat book


@STAT_BOOK.register("slab.hp", section="hp")
def _hp(p: Mapping[str, Any], v: Any) -> str:
    if p["below"] is None:
        return _("Value %(value)s is %(low)s or more → %(hp)s HP, the top band.") % {
            "value": money(p["value"]),
            "low": money(p["low"]),
            "hp": v,
        }
    return _(
        "Value %(value)s is in the band %(low)s – %(high)s → %(hp)s HP. "
        "%(missing)s more would give %(next)s HP."
    ) % {
        "value": money(p["value"]),
        "low": money(p["low"]),
        "high": _below(p["below"]),
        "hp": v,
        "missing": money(p["missing"]),
        "next": p["next_hp"],
    }


@STAT_BOOK.register("slab.tier", section="tier")
def _tier(p: Mapping[str, Any], v: Any) -> str:
    if p["below"] is None:
        return _("Value %(value)s is %(low)s or more → the %(tier)s tier, the top one.") % {
            "value": money(p["value"]),
            "low": money(p["low"]),
            "tier": tier(v),
        }
    return _(
        "Value %(value)s is in the band %(low)s – %(high)s → the %(tier)s tier. "
        "%(missing)s more would make it %(next)s."
    ) % {
        "value": money(p["value"]),
        "low": money(p["low"]),
        "high": _below(p["below"]),
        "tier": tier(v),
        "missing": money(p["missing"]),
        "next": tier(p["next_tier"]),
    }


@STAT_BOOK.register("slab.power", section="tier")
def _power(p: Mapping[str, Any], v: Any) -> str:
    if p["bonus"] is None:
        return _("The %(tier)s tier has no power move: only the basic attack.") % {
            "tier": tier(p["tier"])
        }
    return _("Power move of the %(tier)s tier: attack +%(bonus)s for %(cost)s energy.") % {
        "tier": tier(p["tier"]),
        "bonus": p["bonus"],
        "cost": p["cost"],
    }


@STAT_BOOK.register("slab.ko_points", section="ko")
def _ko(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "Knocking it out scores %(points)s point (the %(tier)s tier).",
        "Knocking it out scores %(points)s points (the %(tier)s tier).",
        v,
    ) % {"points": v, "tier": tier(p["tier"])}


def next_band_text(p: Mapping[str, Any]) -> str:
    """ "$12.40 more → 100 HP and the rare tier" (or the top band)."""
    if p["at"] is None:
        return _("No band above: this slab has the most HP and the top tier.")
    if p["hp"] is not None and p["tier"] is not None:
        what = _("%(hp)s HP and the %(tier)s tier") % {"hp": p["hp"], "tier": tier(p["tier"])}
    elif p["hp"] is not None:
        what = _("%(hp)s HP") % {"hp": p["hp"]}
    else:
        what = _("the %(tier)s tier") % {"tier": tier(p["tier"])}
    return _("%(missing)s more → %(what)s") % {"missing": money(p["missing"]), "what": what}


@STAT_BOOK.register("slab.next_band", section="daily_values")
def _next(p: Mapping[str, Any], v: Any) -> str:
    if p["at"] is None:
        return next_band_text(p)
    return _("Next band at %(at)s: %(text)s.") % {"at": money(p["at"]), "text": next_band_text(p)}


@STAT_BOOK.register("slab.attack", section="attack")
def _attack(p: Mapping[str, Any], v: Any) -> str:
    if Decimal(p["grade"]) != p["counted"]:
        text = _(
            "Grade %(grade)s counts as %(counted)s (half grades round down) → attack %(attack)s."
        )
    else:
        text = _("Grade %(grade)s → attack %(attack)s.")
    text = text % {"grade": _grade(p["grade"]), "counted": p["counted"], "attack": v}
    if p["next_grade"] is None:
        return text + " " + _("That is the top band.")
    return (
        text
        + " "
        + _("Grade %(next)s would give %(attack)s.")
        % {"next": p["next_grade"], "attack": p["next_attack"]}
    )


def _grade(value: str) -> str:
    from django.utils.formats import number_format

    amount = Decimal(value)
    return number_format(amount, decimal_pos=0 if amount == int(amount) else 1, use_l10n=True)


@STAT_BOOK.register("slab.armor", section="armor")
def _armor(p: Mapping[str, Any], v: Any) -> str:
    first, last = p["first_year"], p["last_year"]
    if first is None:
        band = _("%(year)s or earlier") % {"year": last}
    elif last is None:
        band = _("%(year)s or later") % {"year": first}
    else:
        band = f"{first} – {last}"
    return _("Year %(year)s is in the band %(band)s → armor %(armor)s (taken off every hit).") % {
        "year": p["year"],
        "band": band,
        "armor": v,
    }


@STAT_BOOK.register("slab.element", section="element")
def _element(p: Mapping[str, Any], v: Any) -> str:
    beaten = ELEMENT_BEATS[Element(v)]
    return _(
        "SHA-256 of the asset ID %(asset_id)s starts with the byte %(hex)s = %(byte)s; "
        "%(byte)s mod %(modulo)s = %(index)s → %(element)s. %(element)s beats %(beats)s: "
        "+%(bonus)s damage against it."
    ) % {
        "asset_id": p["asset_id"],
        "hex": "0x" + p["sha256"][:2],
        "byte": p["byte"],
        "modulo": p["modulo"],
        "index": p["index"],
        "element": element(v),
        "beats": element(beaten),
        "bonus": ELEMENT_BONUS,
    }


def step_sentence(step: Any) -> str:
    """A stat book step in words."""
    return STAT_BOOK.say(step.code, step.params, step.value)


def step_url(step: Any) -> str:
    """The Leagues section that explains a stat book step."""
    return leagues_url(STAT_BOOK[step.code].section)


# ---------------------------------------------------------------------------
# Match events


def _who(side: str) -> str:
    return _("You") if side == "a" else _("The bot")


def _team_of(side: str) -> str:
    return _("Your team") if side == "a" else _("The bot's team")


@EVENTS.register("match.start", section="match")
def _start(p: Mapping[str, Any], v: Any) -> str:
    first = _("you move first") if p["first"] == "a" else _("the bot moves first")
    head = (
        _("Match in the %(bracket)s bracket") % {"bracket": bracket(p["bracket"])}
        if p["bracket"]
        else _("Match")
    )
    return _(
        "%(head)s: %(first)s (drawn from the seed %(seed)s). First to %(points)s points "
        "wins; after turn %(turns)s the tie-breaks decide."
    ) % {
        "head": head,
        "first": first,
        "seed": p["seed"],
        "points": p["points_to_win"],
        "turns": p["turn_limit"],
    }


@EVENTS.register("team", section="teams")
def _team(p: Mapping[str, Any], v: Any) -> str:
    return _("%(team)s: %(names)s — worth %(value)s, %(hp)s HP in all. On the field: %(lead)s.") % {
        "team": _team_of(p["side"]),
        "names": ", ".join(p["names"]),
        "value": money(p["value"]),
        "hp": p["hp"],
        "lead": p["names"][0] if p["names"] else p["lead"],
    }


@EVENTS.register("turn.start", section="energy")
def _turn(p: Mapping[str, Any], v: Any) -> str:
    values = {"turn": p["turn"], "who": _who(p["side"]), "energy": p["energy"]}
    if p["skipped"]:
        return _("Turn %(turn)s — %(who)s: no energy on the first player's first turn.") % values
    if p["gain"] == 0:
        return _("Turn %(turn)s — %(who)s: the bank is full (%(max)s energy).") % {
            **values,
            "max": ENERGY_BANK_MAX,
        }
    return _("Turn %(turn)s — %(who)s: +%(gain)s energy (%(energy)s).") % {
        **values,
        "gain": p["gain"],
    }


@EVENTS.register("slab.replace", section="ko")
def _replace(p: Mapping[str, Any], v: Any) -> str:
    values = {"name": p["name"], "hp": p["hp"], "who": _who(p["side"])}
    if p["auto"]:
        return (
            _(
                "Time ran out with no slab on the field: the healthiest on the bench comes on — "
                "%(name)s (%(hp)s HP)."
            )
            % values
        )
    return _("%(who)s: %(name)s comes off the bench after the KO (%(hp)s HP, free).") % values


@EVENTS.register("slab.swap", section="swap")
def _swap(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "%(who)s: swap %(from)s for %(to)s (%(hp)s HP) — %(cost)s energy, %(energy)s left."
    ) % {
        "who": _who(p["side"]),
        "from": p["from_name"],
        "to": p["to_name"],
        "hp": p["hp"],
        "cost": p["cost"],
        "energy": p["energy"],
    }


def damage_formula(p: Mapping[str, Any]) -> str:
    """``25 + 10 − 5 = 30`` (or the minimum)."""
    parts = str(p["move_damage"])
    if p["element_bonus"]:
        parts += f" + {p['element_bonus']}"
    if p["armor"]:
        parts += f" − {p['armor']}"
    raw = p["move_damage"] + p["element_bonus"] - p["armor"]
    if raw < MIN_DAMAGE:
        return _("%(parts)s = %(raw)s, raised to the minimum %(min)s") % {
            "parts": parts,
            "raw": raw,
            "min": MIN_DAMAGE,
        }
    return f"{parts} = {p['damage']}"


@EVENTS.register("attack", section="attacks")
def _attack_event(p: Mapping[str, Any], v: Any) -> str:
    move = enum_label("slab_move", p["move"])
    text = _(
        "%(who)s: %(name)s, %(move)s on %(target)s: %(formula)s damage (%(cost)s energy, "
        "%(energy)s left). %(target)s: %(hp)s HP."
    ) % {
        "who": _who(p["side"]),
        "name": p["name"],
        "move": move,
        "target": p["target_name"],
        "formula": damage_formula(p),
        "cost": p["cost"],
        "energy": p["energy"],
        "hp": p["hp"],
    }
    return text


@EVENTS.register("slab.ko", section="ko")
def _ko_event(p: Mapping[str, Any], v: Any) -> str:
    values = {"name": p["name"], "tier": tier(p["tier"]), "points": p["points"],
              "score": p["score"]}  # fmt: skip
    if p["by"] == "a":
        return (
            ngettext(
                "KO: %(name)s (%(tier)s) is out. You score %(points)s point (%(score)s in all).",
                "KO: %(name)s (%(tier)s) is out. You score %(points)s points (%(score)s in all).",
                p["points"],
            )
            % values
        )
    return (
        ngettext(
            "KO: %(name)s (%(tier)s) is out. The bot scores %(points)s point (%(score)s in all).",
            "KO: %(name)s (%(tier)s) is out. The bot scores %(points)s points (%(score)s in all).",
            p["points"],
        )
        % values
    )


@EVENTS.register("turn.pass", section="energy")
def _pass(p: Mapping[str, Any], v: Any) -> str:
    return _("%(who)s: pass.") % {"who": _who(p["side"])}


@EVENTS.register("turn.timeout", section="clock")
def _timeout(p: Mapping[str, Any], v: Any) -> str:
    return _("%(who)s: time ran out — the turn counts as a pass (timeout %(n)s of %(limit)s).") % {
        "who": _who(p["side"]),
        "n": p["timeouts"],
        "limit": p["limit"],
    }


@EVENTS.register("forfeit", section="clock")
def _forfeit(p: Mapping[str, Any], v: Any) -> str:
    if p["side"] == "a":
        return _("%(n)s timeouts: you forfeit the match.") % {"n": p["timeouts"]}
    return _("%(n)s timeouts: the bot forfeits the match.") % {"n": p["timeouts"]}


@EVENTS.register("surrender", section="winning")
def _surrender(p: Mapping[str, Any], v: Any) -> str:
    return _("You surrender.") if p["side"] == "a" else _("The bot surrenders.")


@EVENTS.register("turn_limit", section="turn_limit")
def _limit(p: Mapping[str, Any], v: Any) -> str:
    values = {
        "turns": p["turns"],
        "pa": p["points_a"],
        "pb": p["points_b"],
        "hp_a": p["hp_a"],
        "full_a": p["full_a"],
        "share_a": percent(p["hp_a"], p["full_a"]),
        "hp_b": p["hp_b"],
        "full_b": p["full_b"],
        "share_b": percent(p["hp_b"], p["full_b"]),
    }
    head = (
        _(
            "Turn %(turns)s is over. Points %(pa)s–%(pb)s; HP left: you %(hp_a)s of %(full_a)s "
            "(%(share_a)s), the bot %(hp_b)s of %(full_b)s (%(share_b)s)."
        )
        % values
    )
    if p["decided_by"] == "points":
        tail = _("More points decide.")
    elif p["decided_by"] == "hp_share":
        tail = _("Points are level: the larger share of HP left decides.")
    else:
        tail = _("Points and shares of HP are level: a draw.")
    return f"{head} {tail}"


@EVENTS.register("match.end", section="winning")
def _end(p: Mapping[str, Any], v: Any) -> str:
    values = {
        "reason": enum_label("arena_end", p["reason"]),
        "pa": p["points_a"],
        "pb": p["points_b"],
    }
    if p["result"] == "a":
        return _("You win — %(reason)s (points %(pa)s–%(pb)s).") % values
    if p["result"] == "b":
        return _("The bot wins — %(reason)s (points %(pa)s–%(pb)s).") % values
    return _("A draw — %(reason)s (points %(pa)s–%(pb)s).") % values


@dataclass(frozen=True, slots=True)
class Line:
    """A narrated event: its sentence, a CSS kind, which side it concerns, and the Leagues
    section that explains it."""

    text: str
    kind: str
    side: str | None
    url: str


_KINDS = {
    "match.start": "start",
    "team": "start",
    "turn.start": "turn",
    "slab.replace": "move",
    "slab.swap": "move",
    "attack": "attack",
    "slab.ko": "ko",
    "turn.pass": "move",
    "turn.timeout": "warn",
    "forfeit": "end",
    "surrender": "end",
    "turn_limit": "end",
    "match.end": "end",
}


def narrate(events: Iterable[Event]) -> list[Line]:
    """The events in words, in order."""
    lines = []
    for event in events:
        phrase = EVENTS[event.code]
        side = event.params.get("side")
        lines.append(
            Line(
                phrase.say(event.params, None),
                _KINDS.get(event.code, "move"),
                side if isinstance(side, str) else None,
                leagues_url(phrase.section),
            )
        )
    return lines


# ---------------------------------------------------------------------------
# Refusals and the site's own notices


REFUSALS.fixed("bad_action", text=gettext_lazy("That is not a move of the arena."), section="match")
REFUSALS.fixed(
    "bad_side", text=gettext_lazy("There is no such side in this match."), section="match"
)
REFUSALS.fixed("match_over", text=gettext_lazy("The match is over."), section="winning")
REFUSALS.fixed("not_your_turn", text=gettext_lazy("It is not your turn."), section="energy")
REFUSALS.fixed(
    "replace_first",
    text=gettext_lazy("Your slab was knocked out: put a slab from the bench on the field first."),
    section="ko",
)
REFUSALS.fixed(
    "nothing_to_replace", text=gettext_lazy("You already have a slab on the field."), section="ko"
)
REFUSALS.fixed("unknown_slab", text=gettext_lazy("Your team has no such slab."), section="teams")


@REFUSALS.register("slab_knocked_out", section="ko")
def _r_ko(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s has been knocked out and cannot come back.") % {"name": p["name"]}


@REFUSALS.register("already_on_field", section="swap")
def _r_field(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s is already on the field.") % {"name": p["name"]}


@REFUSALS.register("swap_used", section="swap")
def _r_swap(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "You may swap only %(n)s time a turn.", "You may swap only %(n)s times a turn.", p["limit"]
    ) % {"n": p["limit"]}


REFUSALS.fixed("unknown_move", text=gettext_lazy("There is no such move."), section="attacks")


@REFUSALS.register("no_power_move", section="tier")
def _r_power(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s is %(tier)s: that tier has no power move.") % {
        "name": p["name"],
        "tier": tier(p["tier"]),
    }


@REFUSALS.register("not_enough_energy", section="energy")
def _r_energy(p: Mapping[str, Any], v: Any) -> str:
    return _("That costs %(needed)s energy and you have %(energy)s.") % {
        "needed": p["needed"],
        "energy": p["energy"],
    }


def refusal(code: str, params: Mapping[str, Any]) -> str:
    """A refused move in words."""
    return REFUSALS.say(code, params)


NOTICES = {
    "stale": lambda p: _(
        "That move was already made, or the page was out of date: here is the match as it "
        "stands now."
    ),
    "late": lambda p: (
        _("Too late: the turn's %(seconds)s seconds had run out, so it counted as a pass.") % p
    ),
    "timed_out": lambda p: (
        ngettext(
            "Your time ran out: %(n)s turn counted as a pass.",
            "Your time ran out: %(n)s turns counted as passes.",
            p["n"],
        )
        % p
    ),
}


def notice(code: str, **params: Any) -> str:
    """A notice of the site (not of the engine) in words."""
    return NOTICES[code](params)
