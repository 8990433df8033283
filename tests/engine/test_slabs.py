"""engine.arena.slabs: the slab arena's stat book, damage, teams and brackets (docs/rules.md §8)."""

from __future__ import annotations

import ast
import hashlib
import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.arena import slabs
from engine.arena.slabs import (
    Bracket,
    Element,
    InvalidMoveError,
    InvalidSlabError,
    InvalidTeamError,
    PowerMove,
    Slab,
    SlabMove,
    SlabStats,
    SlabTier,
    armor_for,
    attack_for,
    brackets_for,
    damage,
    element_bonus,
    element_of,
    hit,
    hp_for,
    move_cost,
    move_damage,
    slab_stats,
    stat_book,
    team_brackets,
    team_value,
    tier_for,
    validate_team,
)

D = Decimal


def stats(asset_id: str = "a-1", value: str | int = "10", grade=9, year: int = 2010) -> SlabStats:
    return slab_stats(Slab(asset_id, f"Card {asset_id}", grade, year), D(value))


# ---------------------------------------------------------------------------
# Golden tables: at and next to every threshold


@pytest.mark.parametrize(
    ("value", "hp"),
    [
        ("0", 60),
        ("49.99", 60),
        ("50", 80),
        ("50.00", 80),
        ("149.99", 80),
        ("150", 100),
        ("499.99", 100),
        ("500", 120),
        ("1999.99", 120),
        ("2000", 140),
        ("250000", 140),
    ],
)
def test_hp_from_value(value: str, hp: int) -> None:
    assert hp_for(D(value)) == hp
    assert stats(value=value).hp == hp


@pytest.mark.parametrize(
    ("value", "tier", "power", "points"),
    [
        ("0", SlabTier.COMMON, None, 1),
        ("24.99", SlabTier.COMMON, None, 1),
        ("25", SlabTier.UNCOMMON, PowerMove(20, 2), 1),
        ("74.99", SlabTier.UNCOMMON, PowerMove(20, 2), 1),
        ("75", SlabTier.RARE, PowerMove(30, 2), 2),
        ("249.99", SlabTier.RARE, PowerMove(30, 2), 2),
        ("250", SlabTier.EPIC, PowerMove(40, 3), 2),
        ("99999", SlabTier.EPIC, PowerMove(40, 3), 2),
    ],
)
def test_tier_from_value(value: str, tier: SlabTier, power, points: int) -> None:  # type: ignore[no-untyped-def]
    assert tier_for(D(value)) is tier
    s = stats(value=value)
    assert (s.tier, s.power, s.ko_points) == (tier, power, points)


@pytest.mark.parametrize(
    ("grade", "attack"),
    [
        (10, 30),
        ("10.0", 30),
        (9.5, 25),
        ("9.5", 25),
        (9, 25),
        (8.5, 20),
        (8, 20),
        (7.5, 15),
        (7, 15),
        (1, 15),
        (1.5, 15),
    ],
)
def test_attack_from_grade_half_grades_round_down(grade, attack: int) -> None:  # type: ignore[no-untyped-def]
    value = D(grade) if isinstance(grade, str) else grade
    assert attack_for(value) == attack
    assert stats(grade=value).attack == attack


@pytest.mark.parametrize(
    ("year", "armor"),
    [(1996, 10), (2003, 10), (2004, 5), (2015, 5), (2016, 0), (2026, 0)],
)
def test_armor_from_year(year: int, armor: int) -> None:
    assert armor_for(year) == armor
    assert stats(year=year).armor == armor


ASSET_IDS = ["a-1", "cc-1", "cc-2", "cc-3", "0x5f3a…e1", "Слаб №7", "CC-1", "x" * 200]


@pytest.mark.parametrize("asset_id", ASSET_IDS)
def test_element_is_the_first_hash_byte_mod_3(asset_id: str) -> None:
    byte = hashlib.sha256(asset_id.encode("utf-8")).digest()[0]
    expected = {0: Element.SUN, 1: Element.MOON, 2: Element.STAR}[byte % 3]
    assert element_of(asset_id) is expected
    assert stats(asset_id=asset_id).element is expected


def test_elements_known_values() -> None:
    # Worked out by hand from hashlib: cc-7 → 51 (Sun), cc-3 → 85 (Moon), cc-1 → 212 (Star).
    assert [element_of(a) for a in ("cc-7", "cc-3", "cc-1")] == [
        Element.SUN,
        Element.MOON,
        Element.STAR,
    ]


def test_who_beats_whom() -> None:
    assert dict(slabs.ELEMENT_BEATS) == {
        Element.SUN: Element.STAR,
        Element.STAR: Element.MOON,
        Element.MOON: Element.SUN,
    }
    for a in Element:
        for b in Element:
            expected = 10 if (a, b) in {("sun", "star"), ("star", "moon"), ("moon", "sun")} else 0
            assert element_bonus(a, b) == expected, (a, b)


# ---------------------------------------------------------------------------
# Damage

# Asset ids per element (hashlib above): Sun, Moon, Star.
SUN, MOON, STAR = "cc-7", "cc-3", "cc-1"


def test_damage_golden_cases() -> None:
    """The leagues page's example, then the minimum, then element advantage."""
    old = slab_stats(Slab(STAR, "Old", D("9.5"), 2001), D(300))
    assert (old.hp, old.tier, old.attack, old.armor) == (100, SlabTier.EPIC, 25, 10)
    five = slab_stats(Slab("cc-2", "Five", 8, 2010), D(10))  # Star too: no bonus
    assert five.element is Element.STAR and five.armor == 5
    assert damage(old, SlabMove.BASIC, five) == 20  # 25 − 5
    assert damage(old, SlabMove.POWER, five) == 60  # 25 + 40 − 5
    moon = slab_stats(Slab(MOON, "Moon", 8, 2010), D(10))
    assert damage(old, SlabMove.POWER, moon) == 70  # Star beats Moon: +10
    weak = slab_stats(Slab("a", "Weak", 7, 2020), D(5))  # "a" is Moon: no bonus on Star
    assert weak.element is Element.MOON
    assert damage(weak, SlabMove.BASIC, old) == 10  # 15 − 10 = 5 → the minimum 10
    assert damage(weak, "basic", moon) == 10  # 15 − 5
    new_sun = slab_stats(Slab(SUN, "New", 9, 2020), D(10))
    assert damage(weak, "basic", new_sun) == 25  # Moon beats Sun: 15 + 10 − 0
    assert damage(new_sun, "basic", weak) == 25  # Sun does not beat Moon: 25 − 0


def test_minimum_damage_and_the_parts_of_a_hit() -> None:
    tough = slab_stats(Slab(SUN, "Tough", 10, 1999), D(3000))
    weak = slab_stats(Slab(STAR, "Weak", 1, 2024), D(1))
    h = hit(weak, SlabMove.BASIC, tough)
    assert (h.move_damage, h.element_bonus, h.armor, h.damage) == (15, 0, 10, 10)
    h = hit(tough, SlabMove.POWER, weak)  # Sun beats Star
    assert (h.move_damage, h.element_bonus, h.armor, h.damage) == (70, 10, 0, 80)


def test_move_costs_and_damage() -> None:
    epic = stats(value=250, grade=10)
    assert (move_damage(epic, SlabMove.BASIC), move_damage(epic, SlabMove.POWER)) == (30, 70)
    assert (move_cost(epic, SlabMove.BASIC), move_cost(epic, SlabMove.POWER)) == (1, 3)
    uncommon = stats(value=25)
    assert move_cost(uncommon, "power") == 2


def test_a_common_slab_has_no_power_move() -> None:
    common = stats(value="24.99")
    with pytest.raises(InvalidMoveError) as info:
        damage(common, SlabMove.POWER, stats("b-2"))
    assert info.value.code == "no_power_move" and "no power move" in str(info.value)
    with pytest.raises(InvalidMoveError):
        move_cost(common, "power")
    with pytest.raises(InvalidMoveError) as info:
        damage(common, "kick", stats("b-2"))
    assert info.value.code == "unknown_move"


# ---------------------------------------------------------------------------
# Input


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"asset_id": ""}, "asset_id"),
        ({"asset_id": 7}, "asset_id"),
        ({"name": " "}, "name"),
        ({"grade": 9.25}, "grade"),
        ({"grade": 0.5}, "grade"),
        ({"grade": 10.5}, "grade"),
        ({"grade": "9"}, "grade"),
        ({"grade": True}, "grade"),
        ({"grade": float("nan")}, "grade"),
        ({"year": 2010.0}, "year"),
        ({"year": 0}, "year"),
    ],
)
def test_bad_slabs_are_refused(kwargs: dict, code: str) -> None:
    fields = {"asset_id": "a-1", "name": "Card", "grade": 9, "year": 2010, **kwargs}
    with pytest.raises(InvalidSlabError) as info:
        Slab(**fields)
    assert info.value.code == code


@pytest.mark.parametrize("value", [12.5, "12.50", D("-0.01"), D("NaN"), D("Infinity"), None, True])
def test_bad_daily_values_are_refused(value: object) -> None:
    with pytest.raises(InvalidSlabError) as info:
        slab_stats(Slab("a-1", "Card", 9, 2010), value)  # type: ignore[arg-type]
    assert info.value.code == "value"


def test_grades_are_stored_as_decimals() -> None:
    assert Slab("a", "b", 9.5, 2000).grade == D("9.5")
    assert Slab("a", "b", D("8.50"), 2000).grade == D("8.5")
    assert str(Slab("a", "b", 10, 2000).grade) == "10"
    assert Slab("a", "b", 9.5, 2000) == Slab("a", "b", D("9.5"), 2000)


def test_an_int_value_is_taken_as_dollars() -> None:
    assert stats(value=25).value == D(25)
    assert slab_stats(Slab("a", "b", 9, 2000), 25).tier is SlabTier.UNCOMMON


# ---------------------------------------------------------------------------
# Teams and brackets


def team(*values: str | int, ids: tuple[str, ...] = ("t1", "t2", "t3", "t4")) -> list[SlabStats]:
    return [stats(asset_id=i, value=v) for i, v in zip(ids, values, strict=True)]


def test_a_valid_team() -> None:
    members = team(300, 80, 10, 10)  # one epic, one rare
    assert validate_team(members) == tuple(members)
    assert team_value(members) == D(400)


def test_a_team_needs_four_slabs() -> None:
    with pytest.raises(InvalidTeamError) as info:
        validate_team(team(1, 1, 1, ids=("a", "b", "c")))
    assert info.value.code == "size" and "exactly 4" in str(info.value)
    with pytest.raises(InvalidTeamError):
        validate_team(team(1, 1, 1, 1, 1, ids=("a", "b", "c", "d", "e")))


def test_a_team_holds_different_slabs() -> None:
    with pytest.raises(InvalidTeamError) as info:
        validate_team(team(1, 1, 1, 1, ids=("a", "b", "a", "c")))
    assert info.value.code == "duplicate" and "a (Card a) is there twice" in str(info.value)
    # The same card name in two slabs is fine: they are different slabs.
    twins = [slab_stats(Slab(i, "Pikachu", 9, 2000), D(5)) for i in "wxyz"]
    assert validate_team(twins)


@pytest.mark.parametrize(
    ("values", "ok"),
    [
        ((250, 75, 74, 74), True),  # epic + rare + two uncommon
        ((250, 75, "74.99", 10), True),
        ((250, 75, 75, 10), False),  # three rare or epic
        ((250, 250, 250, 250), False),
    ],
)
def test_at_most_two_rare_or_epic(values: tuple, ok: bool) -> None:
    members = team(*values)
    if ok:
        validate_team(members)
    else:
        with pytest.raises(InvalidTeamError) as info:
            validate_team(members)
        assert info.value.code == "too_many_limited"
        assert "at most 2 rare or epic slabs" in str(info.value)


def test_a_team_is_slab_stats() -> None:
    with pytest.raises(InvalidTeamError) as info:
        validate_team([Slab("a", "b", 9, 2000)] * 4)  # type: ignore[list-item]
    assert info.value.code == "not_stats"


@pytest.mark.parametrize(
    ("total", "brackets"),
    [
        ("0", "rookie pro elite open"),
        ("140", "rookie pro elite open"),
        ("150", "rookie pro elite open"),
        ("150.01", "pro elite open"),
        ("600", "pro elite open"),
        ("600.01", "elite open"),
        ("1000", "elite open"),
        ("2500", "elite open"),
        ("2500.01", "open"),
        ("1000000", "open"),
    ],
)
def test_brackets_by_total_value(total: str, brackets: str) -> None:
    assert brackets_for(D(total)) == tuple(Bracket(b) for b in brackets.split())


def test_team_brackets_validate_first() -> None:
    assert team_brackets(team("37.50", "37.50", "37.50", "37.50")) == tuple(Bracket)
    assert team_brackets(team(60, 60, 60, 300)) == (Bracket.PRO, Bracket.ELITE, Bracket.OPEN)
    with pytest.raises(InvalidTeamError):
        team_brackets(team(100, 100, 100, ids=("a", "b", "c")))


# ---------------------------------------------------------------------------
# Match constants and module hygiene


def test_match_constants_are_the_rules() -> None:
    assert slabs.TEAM_SIZE == 4 and slabs.FIELD_SLABS == 1
    assert (slabs.ENERGY_PER_TURN, slabs.ENERGY_BANK_MAX) == (1, 5)
    assert slabs.FIRST_PLAYER_SKIPS_FIRST_GAIN is True
    assert (slabs.SWAP_COST, slabs.SWAPS_PER_TURN, slabs.BASIC_ATTACK_COST) == (1, 1, 1)
    assert slabs.KO_REPLACEMENT_COST == 0
    assert (slabs.POINTS_TO_WIN, slabs.TURN_SECONDS, slabs.TIMEOUTS_TO_FORFEIT) == (3, 20, 3)
    assert slabs.TURN_LIMIT == 30 and slabs.TIE_BREAKS == ("points", "hp_share")
    assert (slabs.ELEMENT_BONUS, slabs.MIN_DAMAGE) == (10, 10)
    assert {SlabTier.RARE, SlabTier.EPIC} == slabs.TEAM_LIMITED_TIERS
    assert slabs.TEAM_LIMITED_MAX == 2


def test_tables_run_in_order() -> None:
    """Band tables are read top to bottom: bounds rise (fall, for grades), the last is open."""
    for table, key in ((slabs.HP_BY_VALUE, "below"), (slabs.TIER_BY_VALUE, "below")):
        bounds = [getattr(row, key) for row in table]
        assert bounds[-1] is None and bounds[:-1] == sorted(bounds[:-1])
    grades = [b.min_grade for b in slabs.ATTACK_BY_GRADE]
    assert grades[-1] is None and grades[:-1] == sorted(grades[:-1], reverse=True)
    years = [b.max_year for b in slabs.ARMOR_BY_YEAR]
    assert years[-1] is None and years[:-1] == sorted(years[:-1])
    caps = [b.cap for b in slabs.BRACKETS]
    assert caps[-1] is None and caps[:-1] == sorted(caps[:-1])


def test_slabs_module_does_no_io() -> None:
    tree = ast.parse(Path(slabs.__file__).read_text(encoding="utf-8"))
    calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and hasattr(n.func, "id")}
    assert not calls & {"open", "print", "input", "breakpoint"}


# ---------------------------------------------------------------------------
# Properties

cents = st.integers(0, 500_000_00).map(lambda c: D(c) / 100)
grades = st.integers(2, 20).map(lambda h: D(h) / 2)
years = st.integers(1950, 2030)
ids = st.text(min_size=1, max_size=20).filter(str.strip)


@st.composite
def slab_days(draw: st.DrawFn) -> SlabStats:
    return slab_stats(Slab(draw(ids), "Card", draw(grades), draw(years)), draw(cents))


@settings(max_examples=200, deadline=None)
@given(attacker=slab_days(), defender=slab_days(), power=st.booleans())
def test_damage_is_the_formula_and_never_below_the_minimum(attacker, defender, power) -> None:  # type: ignore[no-untyped-def]
    move = SlabMove.POWER if power and attacker.power else SlabMove.BASIC
    dealt = damage(attacker, move, defender)
    assert dealt >= slabs.MIN_DAMAGE
    bonus = slabs.ELEMENT_BONUS if slabs.ELEMENT_BEATS[attacker.element] is defender.element else 0
    base = attacker.attack + (attacker.power.bonus if move is SlabMove.POWER else 0)
    assert dealt == max(slabs.MIN_DAMAGE, base + bonus - defender.armor)


@settings(max_examples=200, deadline=None)
@given(low=cents, high=cents)
def test_more_value_never_means_fewer_stats(low: Decimal, high: Decimal) -> None:
    low, high = min(low, high), max(low, high)
    tiers = list(SlabTier)
    assert hp_for(low) <= hp_for(high)
    assert tiers.index(tier_for(low)) <= tiers.index(tier_for(high))
    assert len(brackets_for(low)) >= len(brackets_for(high)) >= 1


# ---------------------------------------------------------------------------
# The stat book as a trace: golden table (tests/engine/arena_cases/stat_book.toml)

BOOK = tomllib.loads((Path(__file__).parent / "arena_cases" / "stat_book.toml").read_text("utf-8"))


def _null(value: object) -> object:
    return None if value in ("", 0) else value


def _book(slab: Slab, value: str = "10") -> dict[str, tuple[dict, object]]:
    book = stat_book(slab, D(value))
    return {step.code: (dict(step.params), step.value) for step in book.trace}


@pytest.mark.parametrize("row", BOOK["value"], ids=[r[0] for r in BOOK["value"]])
def test_stat_book_by_value(row: list) -> None:
    value, hp, tier, bonus, cost, points, at, missing, hp_at, tier_at = row
    steps = _book(Slab("cc-1", "Card", 9, 2010), value)
    trace = "\n".join(f"{code}: {p} → {v}" for code, (p, v) in steps.items())
    assert steps["slab.hp"][1] == hp, trace
    assert steps["slab.tier"][1] == tier, trace
    power = steps["slab.power"]
    assert (power[0]["bonus"], power[0]["cost"]) == (_null(bonus), _null(cost)), trace
    assert (power[1] is None) == (bonus == 0), trace
    assert steps["slab.ko_points"][1] == points, trace
    nxt = steps["slab.next_band"][0]
    assert nxt["value"] == value
    assert (nxt["at"], nxt["missing"]) == (_null(at), _null(missing)), trace
    assert (nxt["hp"], nxt["tier"]) == (_null(hp_at), _null(tier_at)), trace
    assert steps["slab.next_band"][1] == _null(missing)
    # Each band's own edges, and the step agrees with slab_stats.
    hp_step, tier_step = steps["slab.hp"][0], steps["slab.tier"][0]
    assert D(hp_step["low"]) <= D(value) and (
        hp_step["below"] is None or D(value) < D(hp_step["below"])
    )
    assert D(tier_step["low"]) <= D(value) and (
        tier_step["below"] is None or D(value) < D(tier_step["below"])
    )
    stats = slab_stats(Slab("cc-1", "Card", 9, 2010), D(value))
    assert (stats.hp, str(stats.tier), stats.ko_points) == (hp, tier, points)


@pytest.mark.parametrize("row", BOOK["grade"], ids=[r[0] for r in BOOK["grade"]])
def test_stat_book_by_grade(row: list) -> None:
    grade, attack, counted, next_grade, next_attack = row
    params, value = _book(Slab("cc-1", "Card", D(grade), 2010))["slab.attack"]
    assert value == attack
    assert params["grade"] == grade and params["counted"] == counted
    assert (params["next_grade"], params["next_attack"]) == (_null(next_grade), _null(next_attack))


@pytest.mark.parametrize("row", BOOK["year"], ids=[str(r[0]) for r in BOOK["year"]])
def test_stat_book_by_year(row: list) -> None:
    year, armor, first, last = row
    params, value = _book(Slab("cc-1", "Card", 9, year))["slab.armor"]
    assert value == armor
    assert (params["year"], params["first_year"], params["last_year"]) == (
        year,
        _null(first),
        _null(last),
    )


@pytest.mark.parametrize("row", BOOK["element"], ids=[r[0] for r in BOOK["element"]])
def test_stat_book_element(row: list) -> None:
    asset_id, byte, index, element = row
    params, value = _book(Slab(asset_id, "Card", 9, 2010))["slab.element"]
    assert value == element
    assert (params["byte"], params["modulo"], params["index"]) == (byte, 3, index)
    assert params["sha256"] == hashlib.sha256(asset_id.encode("utf-8")).hexdigest()
    assert int(params["sha256"][:2], 16) == byte


def test_stat_book_emits_every_code_once_in_order() -> None:
    book = stat_book(Slab("cc-1", "Card", D("9.5"), 2001), D("62.60"))
    assert tuple(step.code for step in book.trace) == tuple(slabs.SLAB_CODES)
    for step in book.trace:
        assert tuple(step.params) == slabs.SLAB_CODES[step.code], step.code
    assert book.stats == slab_stats(Slab("cc-1", "Card", D("9.5"), 2001), D("62.60"))


@settings(max_examples=200, deadline=None)
@given(day=slab_days())
def test_the_stat_book_agrees_with_the_stats(day: SlabStats) -> None:
    book = stat_book(day.slab, day.value)
    assert book.stats == day
    steps = {s.code: s for s in book.trace}
    assert steps["slab.hp"].value == day.hp
    assert steps["slab.tier"].value == day.tier
    assert steps["slab.attack"].value == day.attack
    assert steps["slab.armor"].value == day.armor
    assert steps["slab.element"].value == day.element
    nxt = steps["slab.next_band"].params
    if nxt["at"] is not None:
        # One cent short of the edge is still this band; the edge is the next one.
        at = D(nxt["at"])
        assert D(nxt["missing"]) == at - day.value > 0
        below, there = slab_stats(day.slab, at - slabs.USD_CENT), slab_stats(day.slab, at)
        assert (below.hp, below.tier) == (day.hp, day.tier)
        assert (there.hp, there.tier) != (day.hp, day.tier)
        assert nxt["hp"] == (there.hp if there.hp != day.hp else None)
        assert nxt["tier"] == (there.tier if there.tier != day.tier else None)
    else:
        assert (day.hp, day.tier) == (slabs.HP_BY_VALUE[-1].hp, slabs.TIER_BY_VALUE[-1].tier)


def test_team_checks_report_every_rule_at_once() -> None:
    checks = {c.code: c for c in slabs.team_checks(team(300, 100, 80, ids=("a", "a", "b")))}
    assert list(checks) == ["size", "duplicate", "too_many_limited"]
    assert not checks["size"].ok and dict(checks["size"].params) == {"size": 3, "needed": 4}
    assert not checks["duplicate"].ok and checks["duplicate"].params["slabs"] == ("a",)
    assert not checks["too_many_limited"].ok and checks["too_many_limited"].params["count"] == 3
    good = slabs.team_checks(team(300, 80, 10, 10))
    assert all(c.ok for c in good)
    # The checks agree with validate_team: it raises the first failing one's code.
    for members in (team(1, 1, 1, ids=("a", "b", "c")), team(300, 300, 300, 1)):
        first = next(c for c in slabs.team_checks(members) if not c.ok)
        with pytest.raises(InvalidTeamError) as info:
            validate_team(members)
        assert info.value.code == first.code
