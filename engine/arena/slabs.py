"""The slab arena (docs/rules.md §8, seed 004): slabs, their stat book, damage, teams, brackets.

A second, separate game: graded, insured trading cards ("slabs") fight. A
``Slab`` holds the facts that never change (asset ID, card name, grade, year);
``slab_stats(slab, value)`` turns a slab and its insured value in US dollars
into its ``SlabStats`` (HP, tier, attack, armor, element, power move, KO points).

**Daily values.** Insured values lock daily at 00:00 UTC, so a slab's stats
can change from one day to the next. The engine keeps no history and reads no
clock: the caller keeps the dated values and passes the value of the match
day (the day the match starts, in UTC), as a ``Decimal`` (or an ``int``;
floats are refused, they cannot hold cents exactly).

Every rule number is in the "Data tables" section below, once; the wiki's
``slab_stat_book`` and ``slab_brackets`` tables are rendered from it. The
tables live here rather than in ``engine.data`` because they key on this
game's own enums (``SlabTier``, ``Element``, ``Bracket``).

The match constants (energy, swaps, KO points, timeouts, the turn limit) are here too;
the match itself is ``engine.arena.match``.

**The stat book as a trace.** ``stat_book(slab, value)`` returns the stats and a
``Trace``: one ``TraceStep(code, params, value)`` per stat, in this order, so the
site can show every stat with its band, its evidence and how far the next band is.
Money is a decimal string (``"49.99"``); enum values are their lowercase strings;
a bound that does not exist (the top band) is null.

- ``slab.hp`` — params: ``value`` (the day's value), ``low`` and ``below`` (the
  band: ``low`` ≤ value < ``below``), ``next_at`` (the value where the next HP
  band starts), ``next_hp``, ``missing`` (``next_at`` − value). value: HP.
- ``slab.tier`` — params: ``value``, ``low``, ``below``, ``next_at``,
  ``next_tier``, ``missing``. value: the tier.
- ``slab.power`` — params: ``tier``, ``bonus``, ``cost`` (null for a common
  slab). value: ``{"bonus", "cost"}`` or null.
- ``slab.ko_points`` — params: ``tier``. value: the points a KO of it scores.
- ``slab.next_band`` — the nearest value edge above the day's value, of HP or
  tier: params ``value``, ``at``, ``missing``, ``hp`` (the HP there, null when HP
  stays), ``tier`` (the tier there, null when it stays). value: ``missing``
  (null at the very top: every param but ``value`` is null then).
- ``slab.attack`` — params: ``grade`` (decimal string), ``counted`` (the grade
  rounded down to a whole number), ``min_grade`` (the band's lowest grade, null
  for the bottom band), ``next_grade`` and ``next_attack`` (the band above, null
  at the top). value: attack.
- ``slab.armor`` — params: ``year``, ``first_year`` and ``last_year`` (the
  band's years, null when open-ended). value: armor.
- ``slab.element`` — params: ``asset_id``, ``sha256`` (the hex digest of the
  asset ID in UTF-8), ``byte`` (its first byte), ``modulo`` (3), ``index``
  (byte mod 3). value: the element.

``SLAB_CODES`` lists every code with its parameter names.

>>> from decimal import Decimal
>>> old = slab_stats(Slab("cc-1", "Charizard", Decimal("9.5"), 2001), Decimal("300"))
>>> old.hp, old.tier.value, old.attack, old.armor, old.ko_points, old.power
(100, 'epic', 25, 10, 2, PowerMove(bonus=40, cost=3))
>>> young = slab_stats(Slab("cc-2", "Pikachu", 7, 2019), Decimal("12.50"))
>>> damage(young, SlabMove.BASIC, old)
10
>>> brackets_for(Decimal("140"))
(<Bracket.ROOKIE: 'rookie'>, <Bracket.PRO: 'pro'>, <Bracket.ELITE: 'elite'>, <Bracket.OPEN: 'open'>)
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from types import MappingProxyType
from typing import Any, Final

from engine.errors import InvalidMoveError, InvalidSlabError, InvalidTeamError
from engine.types import Trace, TraceStep

__all__ = [
    "ARMOR_BY_YEAR",
    "ATTACK_BY_GRADE",
    "BASIC_ATTACK_COST",
    "BRACKETS",
    "ELEMENT_BEATS",
    "ELEMENT_BONUS",
    "ELEMENT_BY_HASH",
    "ENERGY_AT_START",
    "ENERGY_BANK_MAX",
    "ENERGY_PER_TURN",
    "FIELD_SLABS",
    "FIRST_PLAYER_SKIPS_FIRST_GAIN",
    "GRADE_MAX",
    "GRADE_MIN",
    "GRADE_STEP",
    "HP_BY_VALUE",
    "KO_REPLACEMENT_COST",
    "MIN_DAMAGE",
    "POINTS_TO_WIN",
    "SLAB_CODES",
    "SWAPS_PER_TURN",
    "SWAP_COST",
    "TEAM_LIMITED_MAX",
    "TEAM_LIMITED_TIERS",
    "TEAM_SIZE",
    "TIER_BY_VALUE",
    "TIE_BREAKS",
    "TIMEOUTS_TO_FORFEIT",
    "TURN_LIMIT",
    "TURN_SECONDS",
    "USD_CENT",
    "ArmorBand",
    "AttackBand",
    "Bracket",
    "BracketCap",
    "Element",
    "Hit",
    "HpBand",
    "InvalidMoveError",
    "InvalidSlabError",
    "InvalidTeamError",
    "PowerMove",
    "Slab",
    "SlabMove",
    "SlabStats",
    "SlabTier",
    "SlabTierBand",
    "StatBook",
    "TeamCheck",
    "armor_for",
    "attack_for",
    "brackets_for",
    "damage",
    "element_bonus",
    "element_of",
    "hit",
    "hp_for",
    "move_cost",
    "move_damage",
    "slab_stats",
    "stat_book",
    "team_brackets",
    "team_checks",
    "team_value",
    "tier_for",
    "validate_team",
]


class SlabTier(enum.StrEnum):
    """A slab's tier, from its daily value (not the paw game's ``Rarity``)."""

    COMMON = "common"
    UNCOMMON = "uncommon"
    RARE = "rare"
    EPIC = "epic"


class Element(enum.StrEnum):
    """A slab's element, fixed by its asset ID: Sun beats Star, Star beats Moon, Moon beats Sun."""

    SUN = "sun"
    MOON = "moon"
    STAR = "star"


class Bracket(enum.StrEnum):
    """A league bracket, capped by the team's total value."""

    ROOKIE = "rookie"
    PRO = "pro"
    ELITE = "elite"
    OPEN = "open"


class SlabMove(enum.StrEnum):
    """An attack: the basic attack, or the tier's power move."""

    BASIC = "basic"
    POWER = "power"


# ---------------------------------------------------------------------------
# Data tables (docs/rules.md §8, "the stat book · v1"), every number once
#
# Value bands are read top to bottom; a band holds the values below its ``below``
# bound (None: no bound), so $49.99 is under $50 and $50 is not.

USD_CENT: Final = Decimal(
    "0.01"
)  # §8: values are dollars and cents; "$0 – $49.99" ends a cent below 50


@dataclass(frozen=True, slots=True)
class HpBand:
    """Daily values below ``below`` (None: any value left) give ``hp``."""

    below: Decimal | None
    hp: int


# §8: HP from the daily value.
HP_BY_VALUE: Final = (
    HpBand(Decimal(50), 60),
    HpBand(Decimal(150), 80),
    HpBand(Decimal(500), 100),
    HpBand(Decimal(2000), 120),
    HpBand(None, 140),
)


@dataclass(frozen=True, slots=True)
class PowerMove:
    """A tier's power move: ``bonus`` attack on top of the slab's attack, for ``cost`` energy."""

    bonus: int
    cost: int


@dataclass(frozen=True, slots=True)
class SlabTierBand:
    """Daily values below ``below`` (None: any value left) give ``tier``.

    ``power`` is the tier's power move (None: it has none); a KO of a slab of
    this tier scores ``ko_points``.
    """

    tier: SlabTier
    below: Decimal | None
    power: PowerMove | None
    ko_points: int


# §8: tier, power move and KO points from the daily value.
TIER_BY_VALUE: Final = (
    SlabTierBand(SlabTier.COMMON, Decimal(25), None, 1),
    SlabTierBand(SlabTier.UNCOMMON, Decimal(75), PowerMove(20, 2), 1),
    SlabTierBand(SlabTier.RARE, Decimal(250), PowerMove(30, 2), 2),
    SlabTierBand(SlabTier.EPIC, None, PowerMove(40, 3), 2),
)

GRADE_MIN: Final = 1  # §8: the lowest grade
GRADE_MAX: Final = 10  # §8: the highest grade
GRADE_STEP: Final = Decimal("0.5")  # §8: grades come in half steps


@dataclass(frozen=True, slots=True)
class AttackBand:
    """Grades at or above ``min_grade`` (None: any grade left) give ``attack``.

    Read top to bottom, so half grades round down (9.5 reads as 9).
    """

    min_grade: int | None
    attack: int


# §8: attack from the grade.
ATTACK_BY_GRADE: Final = (
    AttackBand(10, 30),
    AttackBand(9, 25),
    AttackBand(8, 20),
    AttackBand(None, 15),
)


@dataclass(frozen=True, slots=True)
class ArmorBand:
    """Years up to ``max_year`` (None: any year left) give ``armor`` (damage removed per hit)."""

    max_year: int | None
    armor: int


# §8: armor from the year.
ARMOR_BY_YEAR: Final = (
    ArmorBand(2003, 10),
    ArmorBand(2015, 5),
    ArmorBand(None, 0),
)

# §8: the first byte of SHA-256 of the asset ID (UTF-8), modulo the length, indexes this.
ELEMENT_BY_HASH: Final = (Element.SUN, Element.MOON, Element.STAR)

# §8: who beats whom.
ELEMENT_BEATS: Final = MappingProxyType(
    {Element.SUN: Element.STAR, Element.STAR: Element.MOON, Element.MOON: Element.SUN}
)

ELEMENT_BONUS: Final = 10  # §8: extra damage when the attacker's element beats the target's
MIN_DAMAGE: Final = 10  # §8: a hit deals at least this, whatever the armor

# --- Teams and brackets

TEAM_SIZE: Final = 4  # §8: slabs in a team, all different
TEAM_LIMITED_TIERS: Final = frozenset({SlabTier.RARE, SlabTier.EPIC})  # §8: tiers a team limits
TEAM_LIMITED_MAX: Final = 2  # §8: at most this many slabs of the limited tiers in a team


@dataclass(frozen=True, slots=True)
class BracketCap:
    """A bracket takes teams whose total value is at most ``cap`` (None: no cap)."""

    bracket: Bracket
    cap: Decimal | None


# §8: brackets by total team value; a team may enter every bracket it fits.
BRACKETS: Final = (
    BracketCap(Bracket.ROOKIE, Decimal(150)),
    BracketCap(Bracket.PRO, Decimal(600)),
    BracketCap(Bracket.ELITE, Decimal(2500)),
    BracketCap(Bracket.OPEN, None),
)

# --- The match (engine.arena.match plays it on these)

FIELD_SLABS: Final = 1  # §8: slabs on the field; the rest of the team waits on the bench
ENERGY_AT_START: Final = 0  # §8, settled: both players start with no energy
ENERGY_PER_TURN: Final = 1  # §8: energy a player gains at the start of each of their turns
ENERGY_BANK_MAX: Final = 5  # §8: most energy a player can bank
FIRST_PLAYER_SKIPS_FIRST_GAIN: Final = True  # §8: the first player gains nothing on turn 1
SWAP_COST: Final = 1  # §8: energy to swap the fighter for a bench slab
SWAPS_PER_TURN: Final = 1  # §8: most swaps in one turn
BASIC_ATTACK_COST: Final = 1  # §8: energy of a basic attack (a power move costs its tier's cost)
KO_REPLACEMENT_COST: Final = 0  # §8: a KO'd slab is replaced from the bench for free
POINTS_TO_WIN: Final = 3  # §8: the first team to this many KO points wins
TURN_SECONDS: Final = 20  # §8: a turn's time limit; a timeout is a pass
TIMEOUTS_TO_FORFEIT: Final = 3  # §8: this many timeouts forfeit the match
TURN_LIMIT: Final = 30  # §8: after this many turns the tie-breaks decide
# §8: after the turn limit, in order: more points wins, then more HP left as a share of
# the team's total HP.
TIE_BREAKS: Final = ("points", "hp_share")

# ---------------------------------------------------------------------------
# Values


def _grade(value: object) -> Decimal:
    if type(value) not in (int, float, Decimal) or not isinstance(value, int | float | Decimal):
        raise InvalidSlabError("grade", f"A grade must be a number (got {value!r}).", grade=value)
    grade = Decimal(value)  # exact: halves are exact floats
    if not grade.is_finite() or not GRADE_MIN <= grade <= GRADE_MAX or grade % GRADE_STEP != 0:
        raise InvalidSlabError(
            "grade",
            f"A grade goes from {GRADE_MIN} to {GRADE_MAX} in steps of {GRADE_STEP} (got {value}).",
            grade=str(value),
        )
    return grade.normalize() if grade != grade.to_integral() else grade.quantize(Decimal(1))


@dataclass(frozen=True, slots=True)
class Slab:
    """A slab's lasting facts: asset ID, card name, grade (1–10 in half steps) and year.

    The insured value is not here: it changes daily, so ``slab_stats`` takes
    the value of the match day. ``grade`` may be given as an int, a float or a
    ``Decimal``; it is stored as a ``Decimal`` (``9.5`` → ``Decimal('9.5')``).

    >>> Slab("cc-7", "Mewtwo", 9.5, 1999).grade
    Decimal('9.5')
    """

    asset_id: str
    name: str
    grade: Decimal
    year: int

    def __post_init__(self) -> None:
        if not isinstance(self.asset_id, str) or not self.asset_id.strip():
            raise InvalidSlabError("asset_id", "A slab needs an asset ID (a non-empty text).")
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidSlabError(
                "name", f"Slab {self.asset_id} needs a card name.", asset_id=self.asset_id
            )
        object.__setattr__(self, "grade", _grade(self.grade))
        if type(self.year) is not int or self.year < 1:
            raise InvalidSlabError(
                "year",
                f"Slab {self.asset_id}: the year must be a positive whole number "
                f"(got {self.year!r}).",
                asset_id=self.asset_id,
                year=self.year,
            )


def _value(value: object) -> Decimal:
    if type(value) is int:
        value = Decimal(value)
    if type(value) is not Decimal:
        raise InvalidSlabError(
            "value",
            f"A daily value is a Decimal amount of US dollars (got {value!r}).",
            value=repr(value),
        )
    if not value.is_finite() or value < 0:
        raise InvalidSlabError(
            "value",
            f"A daily value is a number of US dollars, 0 or more (got {value}).",
            value=str(value),
        )
    return value


@dataclass(frozen=True, slots=True)
class SlabStats:
    """A slab on a match day: its stats, from the slab and that day's insured ``value``.

    ``power`` is None for a common slab (no power move). ``value`` is the
    daily value the stats were computed from (teams add these up for brackets).
    """

    slab: Slab
    value: Decimal
    hp: int
    tier: SlabTier
    attack: int
    armor: int
    element: Element
    power: PowerMove | None
    ko_points: int

    @property
    def asset_id(self) -> str:
        return self.slab.asset_id


@dataclass(frozen=True, slots=True)
class Hit:
    """How one hit's damage came about: ``max(MIN_DAMAGE, move + bonus − armor)``."""

    move: SlabMove
    move_damage: int
    element_bonus: int
    armor: int
    damage: int


# ---------------------------------------------------------------------------
# The stat book


def hp_for(value: Decimal | int) -> int:
    """HP from a daily value.

    >>> [hp_for(Decimal(v)) for v in ("49.99", "50", "149.99", "150", "1999.99", "2000")]
    [60, 80, 80, 100, 120, 140]
    """
    amount = _value(value)
    return next(band.hp for band in HP_BY_VALUE if band.below is None or amount < band.below)


def _tier_band(value: Decimal | int) -> SlabTierBand:
    amount = _value(value)
    return next(band for band in TIER_BY_VALUE if band.below is None or amount < band.below)


def tier_for(value: Decimal | int) -> SlabTier:
    """The tier from a daily value.

    >>> [tier_for(Decimal(v)).value for v in ("24.99", "25", "74.99", "75", "249.99", "250")]
    ['common', 'uncommon', 'uncommon', 'rare', 'rare', 'epic']
    """
    return _tier_band(value).tier


def attack_for(grade: Decimal | int | float) -> int:
    """Attack from a grade; half grades round down.

    >>> [attack_for(g) for g in (10, 9.5, 9, 8.5, 8, 7.5, 1)]
    [30, 25, 25, 20, 20, 15, 15]
    """
    value = _grade(grade)
    return next(b.attack for b in ATTACK_BY_GRADE if b.min_grade is None or value >= b.min_grade)


def armor_for(year: int) -> int:
    """Armor (damage removed per hit) from the year.

    >>> [armor_for(y) for y in (1999, 2003, 2004, 2015, 2016, 2025)]
    [10, 10, 5, 5, 0, 0]
    """
    return next(b.armor for b in ARMOR_BY_YEAR if b.max_year is None or year <= b.max_year)


def element_of(asset_id: str) -> Element:
    """The element: first byte of SHA-256 of the asset ID (UTF-8), modulo 3 → Sun, Moon, Star.

    It depends on the asset ID only, so it is the same in every match and
    whoever owns the slab.

    >>> hashlib.sha256(b"cc-1").digest()[0] % 3, element_of("cc-1").value
    (2, 'star')
    """
    byte = hashlib.sha256(asset_id.encode("utf-8")).digest()[0]
    return ELEMENT_BY_HASH[byte % len(ELEMENT_BY_HASH)]


def slab_stats(slab: Slab, value: Decimal | int) -> SlabStats:
    """A slab's stats on the day its insured value is ``value`` (US dollars).

    Values lock daily at 00:00 UTC: pass the value of the match day (the
    engine keeps no history). Raises ``InvalidSlabError`` for a negative or
    non-Decimal value.

    >>> s = slab_stats(Slab("cc-9", "Blastoise", 8.5, 2010), Decimal("60"))
    >>> s.hp, s.tier.value, s.power, s.ko_points, s.attack, s.armor
    (80, 'uncommon', PowerMove(bonus=20, cost=2), 1, 20, 5)
    >>> slab_stats(Slab("cc-9", "Blastoise", 8.5, 2010), 12.5)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidSlabError: A daily value is a Decimal amount of US dollars (got 12.5).
    """
    if not isinstance(slab, Slab):
        raise InvalidSlabError("slab", f"Not a slab: {slab!r}.")
    amount = _value(value)
    band = _tier_band(amount)
    return SlabStats(
        slab=slab,
        value=amount,
        hp=hp_for(amount),
        tier=band.tier,
        attack=attack_for(slab.grade),
        armor=armor_for(slab.year),
        element=element_of(slab.asset_id),
        power=band.power,
        ko_points=band.ko_points,
    )


# ---------------------------------------------------------------------------
# The stat book as a coded trace (codes and params: see the module docstring)

SLAB_CODES: Final = MappingProxyType(
    {
        "slab.hp": ("value", "low", "below", "next_at", "next_hp", "missing"),
        "slab.tier": ("value", "low", "below", "next_at", "next_tier", "missing"),
        "slab.power": ("tier", "bonus", "cost"),
        "slab.ko_points": ("tier",),
        "slab.next_band": ("value", "at", "missing", "hp", "tier"),
        "slab.attack": ("grade", "counted", "min_grade", "next_grade", "next_attack"),
        "slab.armor": ("year", "first_year", "last_year"),
        "slab.element": ("asset_id", "sha256", "byte", "modulo", "index"),
    }
)
"""Every stat book trace code, in emission order, with its parameter names."""


@dataclass(frozen=True, slots=True)
class StatBook:
    """A slab's stats on a day and the trace that explains each of them."""

    stats: SlabStats
    trace: Trace

    def step(self, code: str) -> TraceStep:
        """The step with ``code`` (each code appears once)."""
        return next(step for step in self.trace if step.code == code)


def _money(amount: Decimal | None) -> str | None:
    return None if amount is None else str(amount)


def _band_edges(bands: tuple[Any, ...], amount: Decimal) -> tuple[int, Decimal, Decimal | None]:
    """(index, low, below) of the value band holding ``amount``."""
    low = Decimal(0)
    for index, band in enumerate(bands):
        if band.below is None or amount < band.below:
            return index, low, band.below
        low = band.below
    raise AssertionError("the last band is open")  # pragma: no cover


def stat_book(slab: Slab, value: Decimal | int) -> StatBook:
    """``slab_stats`` with its trace: each stat, its band, its evidence, the next band.

    >>> book = stat_book(Slab("cc-1", "Charizard", Decimal("9.5"), 2001), Decimal("62.60"))
    >>> [step.code for step in book.trace][:5]
    ['slab.hp', 'slab.tier', 'slab.power', 'slab.ko_points', 'slab.next_band']
    >>> dict(book.step("slab.next_band").params)
    {'value': '62.60', 'at': '75', 'missing': '12.40', 'hp': None, 'tier': 'rare'}
    >>> dict(book.step("slab.element").params)["byte"], book.step("slab.element").value
    (212, 'star')
    """
    stats = slab_stats(slab, value)
    amount = stats.value
    shown = str(amount)
    hp_index, hp_low, hp_below = _band_edges(HP_BY_VALUE, amount)
    tier_index, tier_low, tier_below = _band_edges(TIER_BY_VALUE, amount)
    next_hp = HP_BY_VALUE[hp_index + 1].hp if hp_below is not None else None
    next_tier = TIER_BY_VALUE[tier_index + 1].tier.value if tier_below is not None else None
    steps = [
        TraceStep(
            "slab.hp",
            MappingProxyType(
                {
                    "value": shown,
                    "low": str(hp_low),
                    "below": _money(hp_below),
                    "next_at": _money(hp_below),
                    "next_hp": next_hp,
                    "missing": _money(None if hp_below is None else hp_below - amount),
                }
            ),
            stats.hp,
        ),
        TraceStep(
            "slab.tier",
            MappingProxyType(
                {
                    "value": shown,
                    "low": str(tier_low),
                    "below": _money(tier_below),
                    "next_at": _money(tier_below),
                    "next_tier": next_tier,
                    "missing": _money(None if tier_below is None else tier_below - amount),
                }
            ),
            stats.tier.value,
        ),
        TraceStep(
            "slab.power",
            MappingProxyType(
                {
                    "tier": stats.tier.value,
                    "bonus": stats.power.bonus if stats.power else None,
                    "cost": stats.power.cost if stats.power else None,
                }
            ),
            MappingProxyType({"bonus": stats.power.bonus, "cost": stats.power.cost})
            if stats.power
            else None,
        ),
        TraceStep("slab.ko_points", MappingProxyType({"tier": stats.tier.value}), stats.ko_points),
    ]
    edges = [edge for edge in (hp_below, tier_below) if edge is not None]
    at = min(edges) if edges else None
    steps.append(
        TraceStep(
            "slab.next_band",
            MappingProxyType(
                {
                    "value": shown,
                    "at": _money(at),
                    "missing": _money(None if at is None else at - amount),
                    "hp": next_hp if at is not None and at == hp_below else None,
                    "tier": next_tier if at is not None and at == tier_below else None,
                }
            ),
            _money(None if at is None else at - amount),
        )
    )
    bands = ATTACK_BY_GRADE
    attack_index = next(
        i for i, b in enumerate(bands) if b.min_grade is None or slab.grade >= b.min_grade
    )
    above = bands[attack_index - 1] if attack_index > 0 else None
    steps.append(
        TraceStep(
            "slab.attack",
            MappingProxyType(
                {
                    "grade": str(slab.grade),
                    "counted": int(slab.grade),
                    "min_grade": bands[attack_index].min_grade,
                    "next_grade": above.min_grade if above else None,
                    "next_attack": above.attack if above else None,
                }
            ),
            stats.attack,
        )
    )
    first_year = None
    for band in ARMOR_BY_YEAR:
        if band.max_year is None or slab.year <= band.max_year:
            break
        first_year = band.max_year + 1
    steps.append(
        TraceStep(
            "slab.armor",
            MappingProxyType(
                {"year": slab.year, "first_year": first_year, "last_year": band.max_year}
            ),
            stats.armor,
        )
    )
    digest = hashlib.sha256(slab.asset_id.encode("utf-8")).digest()
    modulo = len(ELEMENT_BY_HASH)
    steps.append(
        TraceStep(
            "slab.element",
            MappingProxyType(
                {
                    "asset_id": slab.asset_id,
                    "sha256": digest.hex(),
                    "byte": digest[0],
                    "modulo": modulo,
                    "index": digest[0] % modulo,
                }
            ),
            stats.element.value,
        )
    )
    return StatBook(stats, tuple(steps))


# ---------------------------------------------------------------------------
# Damage


def element_bonus(attacker: Element, defender: Element) -> int:
    """``ELEMENT_BONUS`` when the attacker's element beats the defender's, else 0.

    >>> element_bonus(Element.SUN, Element.STAR), element_bonus(Element.STAR, Element.SUN)
    (10, 0)
    """
    return ELEMENT_BONUS if ELEMENT_BEATS[attacker] is defender else 0


def _move(stats: SlabStats, move: SlabMove | str) -> tuple[SlabMove, PowerMove | None]:
    try:
        chosen = SlabMove(move)
    except ValueError:
        raise InvalidMoveError("unknown_move", f"No such move: {move!r}.", move=str(move)) from None
    if chosen is SlabMove.POWER and stats.power is None:
        raise InvalidMoveError(
            "no_power_move",
            f"{stats.slab.name} ({stats.asset_id}) is {stats.tier.value} and has no power move.",
            asset_id=stats.asset_id,
            tier=stats.tier.value,
        )
    return chosen, stats.power if chosen is SlabMove.POWER else None


def move_damage(stats: SlabStats, move: SlabMove | str) -> int:
    """A move's damage before element and armor: the attack, plus the power bonus.

    >>> s = slab_stats(Slab("cc-1", "Charizard", 9.5, 2001), Decimal(300))
    >>> move_damage(s, SlabMove.BASIC), move_damage(s, SlabMove.POWER)
    (25, 65)
    """
    _, power = _move(stats, move)
    return stats.attack + (power.bonus if power else 0)


def move_cost(stats: SlabStats, move: SlabMove | str) -> int:
    """A move's energy cost: ``BASIC_ATTACK_COST``, or the tier's power move cost.

    >>> s = slab_stats(Slab("cc-1", "Charizard", 9.5, 2001), Decimal(300))
    >>> move_cost(s, SlabMove.BASIC), move_cost(s, SlabMove.POWER)
    (1, 3)
    """
    _, power = _move(stats, move)
    return power.cost if power else BASIC_ATTACK_COST


def hit(attacker: SlabStats, move: SlabMove | str, defender: SlabStats) -> Hit:
    """One hit, with its parts: ``max(MIN_DAMAGE, move damage + element bonus − armor)``.

    Raises ``InvalidMoveError`` for the power move of a common slab.
    """
    chosen, _ = _move(attacker, move)
    base = move_damage(attacker, chosen)
    bonus = element_bonus(attacker.element, defender.element)
    total = max(MIN_DAMAGE, base + bonus - defender.armor)
    return Hit(chosen, base, bonus, defender.armor, total)


def damage(attacker: SlabStats, move: SlabMove | str, defender: SlabStats) -> int:
    """The damage ``attacker``'s ``move`` deals to ``defender`` (docs/rules.md §8).

    ``max(10, move damage + element bonus − target armor)``.

    >>> old = slab_stats(Slab("cc-1", "Charizard", 9.5, 2001), Decimal(300))
    >>> mid = slab_stats(Slab("cc-3", "Onix", 8, 2010), Decimal(30))
    >>> old.element.value, mid.element.value  # Star beats Moon: +10 one way only
    ('star', 'moon')
    >>> damage(old, SlabMove.BASIC, mid), damage(old, SlabMove.POWER, mid)
    (30, 70)
    >>> damage(mid, SlabMove.POWER, old), damage(mid, SlabMove.BASIC, old)
    (30, 10)
    """
    return hit(attacker, move, defender).damage


# ---------------------------------------------------------------------------
# Teams and brackets


def validate_team(team: Iterable[SlabStats]) -> tuple[SlabStats, ...]:
    """Check a team: ``TEAM_SIZE`` different slabs (by asset ID), at most 2 rare or epic.

    Returns the team as a tuple; raises ``InvalidTeamError`` with a readable
    reason. Two slabs of the same card are different slabs (their asset IDs
    differ).

    >>> team = [slab_stats(Slab(f"cc-{i}", "Pup", 9, 2010), Decimal(100)) for i in range(4)]
    >>> validate_team(team)
    Traceback (most recent call last):
    ...
    engine.errors.InvalidTeamError: A team may hold at most 2 rare or epic slabs; this one has 4: cc-0, cc-1, cc-2, cc-3.
    """
    members = tuple(team)
    for member in members:
        if not isinstance(member, SlabStats):
            raise InvalidTeamError(
                "not_stats", f"A team is made of slab stats (got {member!r}).", member=repr(member)
            )
    if len(members) != TEAM_SIZE:
        raise InvalidTeamError(
            "size",
            f"A team needs exactly {TEAM_SIZE} slabs; this one has {len(members)}.",
            size=len(members),
            needed=TEAM_SIZE,
        )
    seen: set[str] = set()
    for member in members:
        if member.asset_id in seen:
            raise InvalidTeamError(
                "duplicate",
                f"Each slab may be in a team once; {member.asset_id} ({member.slab.name}) "
                "is there twice.",
                asset_id=member.asset_id,
            )
        seen.add(member.asset_id)
    limited = [m.asset_id for m in members if m.tier in TEAM_LIMITED_TIERS]
    if len(limited) > TEAM_LIMITED_MAX:
        tiers = " or ".join(t.value for t in SlabTier if t in TEAM_LIMITED_TIERS)
        raise InvalidTeamError(
            "too_many_limited",
            f"A team may hold at most {TEAM_LIMITED_MAX} {tiers} slabs; this one has "
            f"{len(limited)}: {', '.join(limited)}.",
            slabs=tuple(limited),
            most=TEAM_LIMITED_MAX,
        )
    return members


@dataclass(frozen=True, slots=True)
class TeamCheck:
    """One team rule, checked: its stable ``code`` (the ``InvalidTeamError`` code it would
    raise), whether the team passes it, and ``params`` for a sentence."""

    code: str
    ok: bool
    params: Mapping[str, Any]


def team_checks(team: Iterable[SlabStats]) -> tuple[TeamCheck, ...]:
    """Every team rule with its verdict, in order (``validate_team`` stops at the first).

    >>> team = [slab_stats(Slab(f"cc-{i}", "Pup", 9, 2010), Decimal(v))
    ...         for i, v in enumerate((100, 300, 80, 10))]
    >>> [(c.code, c.ok) for c in team_checks(team)]
    [('size', True), ('duplicate', True), ('too_many_limited', False)]
    >>> dict(team_checks(team[:2])[0].params)
    {'size': 2, 'needed': 4}
    """
    members = tuple(team)
    ids = [m.asset_id for m in members]
    twice = sorted({i for i in ids if ids.count(i) > 1})
    limited = [m.asset_id for m in members if m.tier in TEAM_LIMITED_TIERS]
    return (
        TeamCheck(
            "size",
            len(members) == TEAM_SIZE,
            MappingProxyType({"size": len(members), "needed": TEAM_SIZE}),
        ),
        TeamCheck("duplicate", not twice, MappingProxyType({"slabs": tuple(twice)})),
        TeamCheck(
            "too_many_limited",
            len(limited) <= TEAM_LIMITED_MAX,
            MappingProxyType(
                {
                    "slabs": tuple(limited),
                    "count": len(limited),
                    "most": TEAM_LIMITED_MAX,
                    "tiers": tuple(t.value for t in SlabTier if t in TEAM_LIMITED_TIERS),
                }
            ),
        ),
    )


def team_value(team: Iterable[SlabStats]) -> Decimal:
    """The total daily value of the slabs.

    >>> team_value([slab_stats(Slab(f"cc-{i}", "Pup", 9, 2010), Decimal("37.50")) for i in range(4)])
    Decimal('150.00')
    """
    return sum((member.value for member in team), Decimal(0))


def brackets_for(total: Decimal | int) -> tuple[Bracket, ...]:
    """Every bracket a team of this total value may enter (caps are inclusive).

    >>> [b.value for b in brackets_for(Decimal("150"))]
    ['rookie', 'pro', 'elite', 'open']
    >>> [b.value for b in brackets_for(Decimal("150.01"))]
    ['pro', 'elite', 'open']
    >>> [b.value for b in brackets_for(Decimal(1000))]
    ['elite', 'open']
    """
    amount = _value(total)
    return tuple(b.bracket for b in BRACKETS if b.cap is None or amount <= b.cap)


def team_brackets(team: Iterable[SlabStats]) -> tuple[Bracket, ...]:
    """Validate the team, then give every bracket its total value fits."""
    return brackets_for(team_value(validate_team(team)))
