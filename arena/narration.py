"""The arena's codes in words: the stat book's steps, the match's events and refusals, the
team rules the engine enforces, and the site's own team errors and notices.

``core.narration.Registry`` families, one registration per code the engine (or the site)
can emit (``engine.arena.slabs.SLAB_CODES``, ``engine.arena.match.EVENT_CODES``,
``engine.arena.ILLEGAL_CODES``, the ``InvalidTeamError`` codes in ``TEAM_RULE_CODES``,
``arena.services.TEAM_ERROR_CODES``, ``NOTICE_CODES``), each with its sentence, the
Leagues section that explains it (an ``arena.anchors.Section``) and how a page shows it (a
``Display``). Tests prove none is missing in English and Russian, and that every code the
engine's source passes to an event or an error is registered (tests/core/test_narration.py).
In a match the player is side ``a`` ("you"), the bot side ``b``. Slab names are proper
names: the sentences put them where no grammatical case is needed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core.labels import label_of
from core.narration import Registry
from engine.arena.match import EVENT_CODES, ILLEGAL_CODES, ArenaEnd, Event
from engine.arena.slabs import (
    ELEMENT_BEATS,
    ELEMENT_BONUS,
    ENERGY_BANK_MAX,
    MIN_DAMAGE,
    SLAB_CODES,
    USD_CENT,
    Bracket,
    Element,
    SlabMove,
    SlabTier,
)

from .anchors import Section, leagues_url
from .formatting import money, percent
from .services import TEAM_ERROR_CODES, TeamError

__all__ = [
    "EVENTS",
    "NOTICES",
    "REFUSALS",
    "STAT_BOOK",
    "TEAM_ERRORS",
    "TEAM_RULES",
    "Display",
    "Line",
    "narrate",
    "notice",
    "refusal",
    "step_sentence",
    "team_error",
]


class Display(StrEnum):
    """How a page shows a code's sentence: the CSS kind of a log line or a message."""

    START = "start"
    TURN = "turn"
    MOVE = "move"
    ATTACK = "attack"
    KO = "ko"
    WARN = "warn"
    END = "end"
    ERROR = "error"
    INFO = "info"


#: The codes of ``engine.arena.slabs.InvalidTeamError`` (``validate_team``, and ``bracket`` from
#: ``engine.arena.Lineup``); a test finds them in the engine's source.
TEAM_RULE_CODES = ("not_stats", "size", "duplicate", "too_many_limited", "bracket")
#: The site's own notices about a match (not the engine's).
NOTICE_CODES = (
    "stale",
    "late",
    "timed_out",
    "given_up",
    "bad_start",
    "team_filled",
    "team_used",
)

STAT_BOOK = Registry("slab stat book", SLAB_CODES)
EVENTS = Registry("arena events", EVENT_CODES, kind=Display.MOVE)
REFUSALS = Registry("arena refusals", ILLEGAL_CODES, kind=Display.ERROR)
TEAM_RULES = Registry("arena team rules", TEAM_RULE_CODES, kind=Display.ERROR)
TEAM_ERRORS = Registry("arena team errors", TEAM_ERROR_CODES, kind=Display.ERROR)
NOTICES = Registry("arena notices", NOTICE_CODES, kind=Display.WARN)


def tier(value: object) -> str:
    return label_of(SlabTier, value)


def element(value: object) -> str:
    return label_of(Element, value)


def bracket(value: object) -> str:
    return label_of(Bracket, value)


def _below(bound: str | None) -> str:
    """The last cent of a band that ends below ``bound``."""
    return money(Decimal(bound) - USD_CENT) if bound is not None else ""


# ---------------------------------------------------------------------------
# The stat book


@STAT_BOOK.register("slab.hp", section=Section.HP)
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


@STAT_BOOK.register("slab.tier", section=Section.TIER)
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


@STAT_BOOK.register("slab.power", section=Section.TIER)
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


@STAT_BOOK.register("slab.ko_points", section=Section.KO)
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


@STAT_BOOK.register("slab.next_band", section=Section.DAILY_VALUES)
def _next(p: Mapping[str, Any], v: Any) -> str:
    if p["at"] is None:
        return next_band_text(p)
    return _("Next band at %(at)s: %(text)s.") % {"at": money(p["at"]), "text": next_band_text(p)}


@STAT_BOOK.register("slab.attack", section=Section.ATTACK)
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


@STAT_BOOK.register("slab.armor", section=Section.ARMOR)
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


@STAT_BOOK.register("slab.element", section=Section.ELEMENT)
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


@EVENTS.register("match.start", kind=Display.START, section=Section.MATCH)
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


@EVENTS.register("team", kind=Display.START, section=Section.TEAMS)
def _team(p: Mapping[str, Any], v: Any) -> str:
    return _("%(team)s: %(names)s — worth %(value)s, %(hp)s HP in all. On the field: %(lead)s.") % {
        "team": _team_of(p["side"]),
        "names": ", ".join(p["names"]),
        "value": money(p["value"]),
        "hp": p["hp"],
        "lead": p["names"][0] if p["names"] else p["lead"],
    }


@EVENTS.register("turn.start", kind=Display.TURN, section=Section.ENERGY)
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


@EVENTS.register("slab.replace", kind=Display.MOVE, section=Section.KO)
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


@EVENTS.register("slab.swap", kind=Display.MOVE, section=Section.SWAP)
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


@EVENTS.register("attack", kind=Display.ATTACK, section=Section.ATTACKS)
def _attack_event(p: Mapping[str, Any], v: Any) -> str:
    move = label_of(SlabMove, p["move"])
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


@EVENTS.register("slab.ko", kind=Display.KO, section=Section.KO)
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


@EVENTS.register("turn.pass", kind=Display.MOVE, section=Section.ENERGY)
def _pass(p: Mapping[str, Any], v: Any) -> str:
    return _("%(who)s: pass.") % {"who": _who(p["side"])}


@EVENTS.register("turn.timeout", kind=Display.WARN, section=Section.CLOCK)
def _timeout(p: Mapping[str, Any], v: Any) -> str:
    return _("%(who)s: time ran out — the turn counts as a pass (timeout %(n)s of %(limit)s).") % {
        "who": _who(p["side"]),
        "n": p["timeouts"],
        "limit": p["limit"],
    }


@EVENTS.register("forfeit", kind=Display.END, section=Section.CLOCK)
def _forfeit(p: Mapping[str, Any], v: Any) -> str:
    if p["side"] == "a":
        return _("%(n)s timeouts: you forfeit the match.") % {"n": p["timeouts"]}
    return _("%(n)s timeouts: the bot forfeits the match.") % {"n": p["timeouts"]}


@EVENTS.register("surrender", kind=Display.END, section=Section.WINNING)
def _surrender(p: Mapping[str, Any], v: Any) -> str:
    return _("You surrender.") if p["side"] == "a" else _("The bot surrenders.")


@EVENTS.register("turn_limit", kind=Display.END, section=Section.TURN_LIMIT)
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


@EVENTS.register("match.end", kind=Display.END, section=Section.WINNING)
def _end(p: Mapping[str, Any], v: Any) -> str:
    values = {
        "reason": label_of(ArenaEnd, p["reason"]),
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


def narrate(events: Iterable[Event]) -> list[Line]:
    """The events in words, in order."""
    lines = []
    for event in events:
        phrase = EVENTS[event.code]
        side = event.params.get("side")
        lines.append(
            Line(
                phrase.say(event.params, None),
                phrase.kind or Display.MOVE,
                side if isinstance(side, str) else None,
                leagues_url(phrase.section),
            )
        )
    return lines


# ---------------------------------------------------------------------------
# Refusals and the site's own notices


REFUSALS.fixed(
    "bad_action", text=gettext_lazy("That is not a move of the arena."), section=Section.MATCH
)
REFUSALS.fixed(
    "bad_side", text=gettext_lazy("There is no such side in this match."), section=Section.MATCH
)
REFUSALS.fixed("match_over", text=gettext_lazy("The match is over."), section=Section.WINNING)
REFUSALS.fixed("not_your_turn", text=gettext_lazy("It is not your turn."), section=Section.ENERGY)
REFUSALS.fixed(
    "replace_first",
    text=gettext_lazy("Your slab was knocked out: put a slab from the bench on the field first."),
    section=Section.KO,
)
REFUSALS.fixed(
    "nothing_to_replace",
    text=gettext_lazy("You already have a slab on the field."),
    section=Section.KO,
)
REFUSALS.fixed(
    "unknown_slab", text=gettext_lazy("Your team has no such slab."), section=Section.TEAMS
)


@REFUSALS.register("slab_knocked_out", section=Section.KO)
def _r_ko(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s has been knocked out and cannot come back.") % {"name": p["name"]}


@REFUSALS.register("already_on_field", section=Section.SWAP)
def _r_field(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s is already on the field.") % {"name": p["name"]}


@REFUSALS.register("swap_used", section=Section.SWAP)
def _r_swap(p: Mapping[str, Any], v: Any) -> str:
    return ngettext(
        "You may swap only %(n)s time a turn.", "You may swap only %(n)s times a turn.", p["limit"]
    ) % {"n": p["limit"]}


REFUSALS.fixed("unknown_move", text=gettext_lazy("There is no such move."), section=Section.ATTACKS)


@REFUSALS.register("no_power_move", section=Section.TIER)
def _r_power(p: Mapping[str, Any], v: Any) -> str:
    return _("%(name)s is %(tier)s: that tier has no power move.") % {
        "name": p["name"],
        "tier": tier(p["tier"]),
    }


@REFUSALS.register("not_enough_energy", section=Section.ENERGY)
def _r_energy(p: Mapping[str, Any], v: Any) -> str:
    return _("That costs %(needed)s energy and you have %(energy)s.") % {
        "needed": p["needed"],
        "energy": p["energy"],
    }


def refusal(code: str, params: Mapping[str, Any]) -> str:
    """A refused move in words."""
    return REFUSALS.say(code, params)


# ---------------------------------------------------------------------------
# Teams: the engine's team rules, the site's own team errors


@TEAM_RULES.register("size", section=Section.TEAMS)
def _t_size(p: Mapping[str, Any], v: Any) -> str:
    return _("A team needs exactly %(needed)s slabs; yours has %(size)s.") % p


@TEAM_RULES.register("duplicate", section=Section.TEAMS)
def _t_duplicate(p: Mapping[str, Any], v: Any) -> str:
    return _("Each slab may be in a team once; %(asset_id)s is there twice.") % p


@TEAM_RULES.register("too_many_limited", section=Section.TEAMS)
def _t_limited(p: Mapping[str, Any], v: Any) -> str:
    return _("A team may hold at most %(most)s rare or epic slabs; yours has %(count)s.") % {
        "most": p.get("most"),
        "count": len(p.get("slabs", ())),
    }


@TEAM_RULES.register("bracket", section=Section.BRACKETS)
def _t_bracket(p: Mapping[str, Any], v: Any) -> str:
    return _("Your team is worth %(value)s, over the %(bracket)s cap of %(cap)s.") % {
        "value": money(p.get("value")),
        "bracket": bracket(p["bracket"]),
        "cap": money(p.get("cap")),
    }


# A team of things that are not slab stats: the site never builds one (a bug, not a player's).
TEAM_RULES.fixed(
    "not_stats", text=gettext_lazy("That team breaks a rule of the arena."), section=Section.TEAMS
)


@TEAM_ERRORS.register("full", section=Section.TEAMS)
def _e_full(p: Mapping[str, Any], v: Any) -> str:
    return _("Your team already has %(size)s slabs: remove one first.") % p


@TEAM_ERRORS.register("unknown_slab", section=Section.TEAMS)
def _e_unknown(p: Mapping[str, Any], v: Any) -> str:
    return _("There is no slab with the asset ID %(asset_id)s.") % p


@TEAM_ERRORS.register("no_value", section=Section.DAILY_VALUES)
def _e_no_value(p: Mapping[str, Any], v: Any) -> str:
    return _("%(asset_id)s has no value on %(day)s, so it cannot play.") % p


TEAM_ERRORS.fixed(
    "already_in", text=gettext_lazy("That slab is already in your team."), section=Section.TEAMS
)
TEAM_ERRORS.fixed(
    "no_bot_team",
    text=gettext_lazy("There are not enough slabs for a bot team in this bracket."),
    section=Section.BRACKETS,
)
TEAM_ERRORS.fixed(
    "no_team",
    text=gettext_lazy("No legal team fits that bracket today."),
    section=Section.BRACKETS,
)
TEAM_ERRORS.fixed(
    "bad_op", text=gettext_lazy("That is not a change to a team."), section=Section.TEAMS
)


def team_error(error: Any) -> str:
    """A team the site (``arena.services.TeamError``) or a rule of the engine
    (``engine.arena.slabs.InvalidTeamError``) refused, in words; by its ``code`` and ``params``."""
    if isinstance(error, TeamError):
        return TEAM_ERRORS.say(error.code if error.code in TEAM_ERRORS else "bad_op", error.params)
    return TEAM_RULES.say(error.code if error.code in TEAM_RULES else "not_stats", error.params)


# ---------------------------------------------------------------------------
# The site's own notices


NOTICES.fixed(
    "stale",
    text=gettext_lazy(
        "That move was already made, or the page was out of date: here is the match as it "
        "stands now."
    ),
    section=Section.MATCH,
)


@NOTICES.register("late", section=Section.CLOCK)
def _n_late(p: Mapping[str, Any], v: Any) -> str:
    return _("Too late: the turn's %(seconds)s seconds had run out, so it counted as a pass.") % p


@NOTICES.register("timed_out", section=Section.CLOCK)
def _n_timed_out(p: Mapping[str, Any], v: Any) -> str:
    return (
        ngettext(
            "Your time ran out: %(n)s turn counted as a pass.",
            "Your time ran out: %(n)s turns counted as passes.",
            p["n"],
        )
        % p
    )


@NOTICES.register("given_up", section=Section.MATCH, kind=Display.INFO)
def _n_given_up(p: Mapping[str, Any], v: Any) -> str:
    return _(
        "You can keep %(max)s arena matches in progress: the oldest was given up "
        "to make room. Its replay stays in your matches."
    ) % {"max": p["max"]}


NOTICES.fixed(
    "bad_start",
    text=gettext_lazy("Choose a bracket and an opponent."),
    section=Section.BRACKETS,
    kind=Display.ERROR,
)


@NOTICES.register("team_filled", section=Section.TEAMS, kind=Display.INFO)
def _n_filled(p: Mapping[str, Any], v: Any) -> str:
    return _("A random team for the %(bracket)s bracket: change any slab you like.") % {
        "bracket": bracket(p["bracket"])
    }


NOTICES.fixed(
    "team_used",
    text=gettext_lazy("This is your team now."),
    section=Section.TEAMS,
    kind=Display.INFO,
)


def notice(code: str, **params: Any) -> str:
    """A notice of the site (not of the engine) in words."""
    return NOTICES.say(code, params)
