"""Every code the arena's engine can emit has a sentence, in English and in Russian; every
Leagues anchor the site links to exists on the shipped pages, in both languages."""

from __future__ import annotations

import itertools
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import translation

from arena import narration
from arena.anchors import SECTIONS, Section
from arena.services import TEAM_ERROR_CODES, TeamError
from engine.arena.bots import play_match
from engine.arena.match import (
    EVENT_CODES,
    ILLEGAL_CODES,
    Attack,
    Pass,
    apply,
    new_match,
    opening_events,
)
from engine.arena.slabs import (
    SLAB_CODES,
    Bracket,
    InvalidTeamError,
    Slab,
    SlabMove,
    slab_stats,
    stat_book,
    validate_team,
)
from wiki import rendering
from wiki.importing import CONTENT_DIR, read_sources

LANGS = ("en", "ru")
LEFTOVER = re.compile(r"%\(|\{\w*\}|\bNone\b")
CYRILLIC = re.compile("[а-яё]", re.IGNORECASE)


REGISTRIES = (
    narration.STAT_BOOK,
    narration.EVENTS,
    narration.REFUSALS,
    narration.TEAM_RULES,
    narration.TEAM_ERRORS,
    narration.NOTICES,
)


def test_every_code_is_registered_once() -> None:
    for registry in REGISTRIES:
        assert registry.missing() == [], registry.name
        assert registry.unknown() == [], registry.name
    assert set(narration.STAT_BOOK.codes) == set(SLAB_CODES)
    assert set(narration.EVENTS.codes) == set(EVENT_CODES)
    assert set(narration.REFUSALS.codes) == set(ILLEGAL_CODES)
    assert set(narration.TEAM_ERRORS.codes) == set(TEAM_ERROR_CODES)


def test_every_code_has_a_leagues_section_and_a_display_kind() -> None:
    for registry in REGISTRIES:
        for phrase in registry:
            assert isinstance(phrase.section, Section), (registry.name, phrase.code)
            assert phrase.section in SECTIONS, (registry.name, phrase.code)
            if registry is not narration.STAT_BOOK:
                assert phrase.kind in set(narration.Display), (registry.name, phrase.code)
    assert narration.EVENTS["slab.ko"].kind is narration.Display.KO
    assert narration.REFUSALS["swap_used"].kind is narration.Display.ERROR


def _team_errors() -> list:
    """Each team refusal the site words: the site's own and the engine's rules."""
    samples = {"size": 4, "asset_id": "cc-7", "day": "2026-01-02", "bracket": "rookie"}
    errors = [
        TeamError(code, **{k: v for k, v in samples.items() if k != "bracket"})
        for code in TEAM_ERROR_CODES
    ]
    day = Decimal
    stats = [slab_stats(Slab(f"cc-{i}", "Pup", 9, 2010), day(100)) for i in range(4)]
    for team in (stats[:3], [stats[0]] * 4, stats, [object()] * 4):
        with pytest.raises(InvalidTeamError) as info:
            validate_team(team)
        errors.append(info.value)
    cheap = [slab_stats(Slab(f"cc-{i}", "Pup", 9, 2010), day(20)) for i in range(4)]
    dear = [slab_stats(Slab(f"x-{i}", "X", 9, 2010), day(9000)) for i in range(2)]
    with pytest.raises(InvalidTeamError) as info:
        new_match([*dear, *cheap[:2]], cheap, 0, bracket=Bracket.ROOKIE)
    errors.append(info.value)
    return errors


@pytest.mark.parametrize("lang", LANGS)
def test_every_team_error_reads_in_both_languages(lang: str) -> None:
    errors = _team_errors()
    assert {e.code for e in errors if isinstance(e, InvalidTeamError)} == set(
        narration.TEAM_RULE_CODES
    )
    with translation.override(lang):
        texts = [narration.team_error(error) for error in errors]
    for text in texts:
        assert text and not LEFTOVER.search(text), text
        if lang == "ru":
            assert CYRILLIC.search(text), text
    if lang == "en":
        assert texts[-1] == "Your team is worth $18,040, over the rookie cap of $150."
        assert texts[-2] == "That team breaks a rule of the arena."


def test_an_unknown_team_code_reads_as_the_generic_refusal() -> None:
    with translation.override("en"):
        assert narration.team_error(TeamError("nonsense")) == "That is not a change to a team."


def _stat_book_steps() -> list:
    """Steps that reach every branch: each band, half and whole grades, open year bands."""
    steps = []
    for value, grade, year in itertools.product(
        ("0", "24.99", "62.60", "150", "2000", "99999"), ("7.5", "9", "10"), (1999, 2010, 2024)
    ):
        steps.extend(stat_book(Slab("cc-1", "Card", Decimal(grade), year), Decimal(value)).trace)
    return steps


def _events() -> list:
    """Events from bot matches of every kind (KOs, swaps, replacements, the turn limit),
    plus timeouts, a forfeit, a surrender and an automatic replacement."""
    rng = random.Random(4)
    pool = [
        slab_stats(Slab(f"s-{i}", f"Slab {i}", Decimal(rng.randint(2, 20)) / 2,
                        rng.randint(1995, 2025)), Decimal(v))
        for i, v in enumerate(("3", "10", "30", "60", "80", "200", "300", "2500"))
    ]  # fmt: skip
    events = []
    team_a = [pool[i] for i in (0, 1, 2, 5)]
    team_b = [pool[i] for i in (3, 4, 7, 0)]
    for seed in range(40):
        bots = (("planner", "greedy"), ("random", "random"))[seed % 2]
        events.extend(play_match(team_a, team_b, bots, seed, log=True).events)
    state = new_match(team_a, team_b, 1)
    events.extend(opening_events(state))
    from engine.arena.match import Surrender, Timeout

    for action in (Timeout(0), Timeout(1), Pass(0), Timeout(1), Pass(0), Timeout(1)):
        state, ev = apply(state, action)
        events.extend(ev)
    state = new_match(team_a, team_b, 0)
    state, ev = apply(state, Surrender(0))
    events.extend(ev)
    # A knock-out, then a timeout with no slab on the field.
    big = [
        slab_stats(Slab(f"b-{i}", "Big", 10, 2020), Decimal(300 if i == 0 else 10))
        for i in range(4)
    ]
    weak = [slab_stats(Slab(f"w-{i}", "Weak", 1, 2020), Decimal(1)) for i in range(4)]
    state = new_match(big, weak, 1)
    for action in (Pass(0), Pass(1), Pass(0), Pass(1), Pass(0), Pass(1),
                   Attack(0, SlabMove.POWER), Timeout(1)):  # fmt: skip
        state, ev = apply(state, action)
        events.extend(ev)
    return events


def _refusals() -> list[tuple[str, dict]]:
    samples = {"side": "a", "to_move": "b", "slab": 2, "name": "Slab 2", "limit": 1,
               "move": "kick", "tier": "common", "action": "power", "needed": 3, "energy": 1}  # fmt: skip
    return [(code, {k: samples[k] for k in params}) for code, (params, _m) in ILLEGAL_CODES.items()]


@pytest.mark.parametrize("lang", LANGS)
def test_every_stat_book_step_reads_in_both_languages(lang: str) -> None:
    steps = _stat_book_steps()
    assert {s.code for s in steps} == set(SLAB_CODES)
    with translation.override(lang):
        for step in steps:
            text = narration.step_sentence(step)
            assert text and not LEFTOVER.search(text), (step.code, text)
            if lang == "ru":
                assert CYRILLIC.search(text), (step.code, text)


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_reads_in_both_languages(lang: str) -> None:
    events = _events()
    assert {e.code for e in events} == set(EVENT_CODES), set(EVENT_CODES) - {e.code for e in events}
    with translation.override(lang):
        for line in narration.narrate(events):
            assert line.text and not LEFTOVER.search(line.text), line.text
            if lang == "ru":
                assert CYRILLIC.search(line.text), line.text


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_and_notice_reads_in_both_languages(lang: str) -> None:
    with translation.override(lang):
        for code, params in _refusals():
            text = narration.refusal(code, params)
            assert text and not LEFTOVER.search(text), (code, text)
            if lang == "ru":
                assert CYRILLIC.search(text), (code, text)
        for code, params in (("stale", {}), ("late", {"seconds": 20}), ("timed_out", {"n": 2})):
            text = narration.notice(code, **params)
            assert text and not LEFTOVER.search(text)
            if lang == "ru":
                assert CYRILLIC.search(text)


def test_the_next_band_reads_as_the_issue_asks() -> None:
    with translation.override("en"):
        book = stat_book(Slab("cc-1", "Card", 9, 2010), Decimal("137.60"))
        assert (
            narration.next_band_text(book.step("slab.next_band").params) == "$12.40 more → 100 HP"
        )
        book = stat_book(Slab("cc-1", "Card", 9, 2010), Decimal("62.60"))
        assert narration.next_band_text(book.step("slab.next_band").params) == (
            "$12.40 more → the rare tier"
        )
    with translation.override("ru"):
        assert (
            narration.next_band_text(book.step("slab.next_band").params) == "ещё $12,40 → тир rare"
        )


def test_the_damage_formula_in_words() -> None:
    assert (
        narration.damage_formula({"move_damage": 25, "element_bonus": 10, "armor": 5, "damage": 30})
        == "25 + 10 − 5 = 30"
    )
    with translation.override("en"):
        text = narration.damage_formula({"move_damage": 15, "element_bonus": 0, "armor": 10,
                                         "damage": 10})  # fmt: skip
    assert text == "15 − 10 = 5, raised to the minimum 10"


@pytest.mark.parametrize("lang", LANGS)
def test_every_leagues_anchor_exists(lang: str) -> None:
    sources = {s.slug: s for s in read_sources(Path(CONTENT_DIR))}
    page = sources["leagues"]
    english = rendering.render_markdown(
        page.bodies["en"], lang="en", resolver=rendering.StaticResolver({})
    ).headings
    ids = rendering.anchor_ids(page.bodies[lang], alias_source=english if lang == "ru" else ())
    missing = sorted(set(SECTIONS.values()) - ids)
    assert not missing, missing
