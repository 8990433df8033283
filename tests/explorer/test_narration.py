"""Every trace code and next-tier need the engine can emit has a sentence in English and
Russian, registered once with the wiki section that explains it."""

import re

import pytest
from django.utils import translation

from cards.models import Card
from cards.specs import card_specs
from engine.card.derive import derive
from engine.card.rarity import paths_to
from engine.card.trace import CODES, NEEDS
from engine.types import Rarity
from explorer import narration

pytestmark = pytest.mark.django_db

# A code, an enum value or a parameter name left in a sentence: "hero_defeated",
# "rarity.supply_count", "%(rarity)s".
RAW = re.compile(r"\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z_.]+\b|%\(")


def test_every_code_and_need_is_registered_once():
    assert narration.TRACE.missing() == [] and narration.TRACE.unknown() == []
    assert narration.NEEDS_SAID.missing() == [] and narration.NEEDS_SAID.unknown() == []


def test_every_phrase_links_to_a_known_wiki_section():
    from core.anchors import RULE_SECTIONS, TOPIC_SECTIONS

    for phrase in [*narration.TRACE, *narration.NEEDS_SAID]:
        assert phrase.section in {*RULE_SECTIONS, *TOPIC_SECTIONS}, phrase.code


def test_every_rarity_rule_has_its_steps():
    from engine.data import RULE_KEYS

    for key in (*RULE_KEYS, "starter"):
        assert narration.TRACE.codes_of_rule(key), key


@pytest.fixture
def samples(demo):
    """One real step per trace code and one requirement per need, from the demo
    collection (and a temporary derivation, which rolls its active skill)."""
    steps, needs = {}, {}
    for spec in card_specs(Card.objects.all()):
        for breakdown in (derive(spec), derive(spec, temporary_id=f"bot-{spec.token}")):
            for step in breakdown.trace:
                steps.setdefault(step.code, step)
        for towards in (derive(spec).next_tier, paths_to(spec, Rarity.LEGENDARY)):
            for req in towards.paths if towards else ():
                needs.setdefault(req.need, req)
    assert set(steps) == set(CODES), sorted(set(CODES) - set(steps))
    assert set(needs) == set(NEEDS), sorted(set(NEEDS) - set(needs))
    return steps, needs


def test_every_code_and_need_reads_in_english_and_russian(samples):
    steps, needs = samples
    said = [(code, lambda s=step: narration.sentence(s)) for code, step in steps.items()]
    said += [(need, lambda r=req: narration.requirement_sentence(r)) for need, req in needs.items()]
    for code, say in said:
        with translation.override("en"):
            english = say()
        with translation.override("ru"):
            russian = say()
        assert english and russian, code
        assert russian != english, (code, russian)
        assert re.search("[а-яё]", russian, re.IGNORECASE), (code, russian)
        for text in (english, russian):
            assert not RAW.search(text), (code, text)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_step_of_the_collection_reads_in_both_languages(demo, lang):
    with translation.override(lang):
        for spec in card_specs(Card.objects.all()):
            breakdown = derive(spec)
            for step in breakdown.trace:
                text = narration.sentence(step)
                assert text and "%(" not in text, (step, text)
            if breakdown.next_tier:
                for req in breakdown.next_tier.paths:
                    assert "%(" not in narration.requirement_sentence(req)
            assert narration.one_line_answer(breakdown)


def test_russian_sentences_are_russian(demo):
    spec = card_specs([Card.objects.filter(rarity="legendary").first().token])[0]
    breakdown = derive(spec)
    with translation.override("ru"):
        answer = narration.one_line_answer(breakdown)
        decided = narration.sentence(next(s for s in breakdown.trace if s.code == "rarity.decided"))
    assert answer.startswith("Legendary благодаря")
    assert decided.startswith("Побеждает наибольший результат")


# --- The Russian breakdown: one number format, one rank form, the case after «благодаря» ---


def _spec(**changes):
    from engine.types import AttributeSpec, CardSpec, Slot

    supplies = changes.pop("supplies", {})
    equipped = tuple(AttributeSpec(s, f"Plain {s.value}", supplies.get(s, 900)) for s in Slot)
    return CardSpec(7, "Pup", equipped, **changes)


@pytest.mark.parametrize(
    ("changes", "english", "russian"),
    [
        (
            {"getgems_rank": 66},
            "Epic because of GetGems rank #66.",
            "Epic благодаря рангу GetGems №66.",
        ),
        (
            {"burned_stickers": 12},
            "because of 12 burned stickers",
            "благодаря 12 сожжённым стикерам",
        ),
        (
            {"burned_stickers": 21},
            "because of 21 burned stickers",
            "благодаря 21 сожжённому стикеру",
        ),
    ],
)
def test_the_one_line_answer_reads_in_russian_with_the_dative(changes, english, russian):
    breakdown = derive(_spec(**changes))
    with translation.override("en"):
        assert english in narration.one_line_answer(breakdown)
    with translation.override("ru"):
        line = narration.one_line_answer(breakdown)
    assert russian in line and "благодаря:" not in line, line


def test_the_one_line_answer_for_slots_takes_the_dative_plural():
    from engine.types import Slot

    rare = {Slot.HEAD: 3, Slot.BODY: 3, Slot.PAW: 3}
    breakdown = derive(_spec(supplies=rare))
    with translation.override("ru"):
        line = narration.one_line_answer(breakdown)
    assert "благодаря 3 слотам с тиражом ≤ " in line, line


def test_scores_are_written_the_russian_way_in_every_sentence():
    from engine.types import AttributeSpec, Slot

    wardrobe = tuple(AttributeSpec(Slot.HEAD, f"Hat {n}", 7) for n in range(3))
    breakdown = derive(_spec(wardrobe=wardrobe))
    with translation.override("ru"):
        said = [narration.sentence(step) for step in breakdown.trace]
        said += [narration.requirement_sentence(r) for r in breakdown.next_tier.paths]
    scores = [line for line in said if "счёт" in line.lower()]
    assert scores, said
    decimals = [line for line in scores if re.search(r"[0-9]\.[0-9]", line)]
    assert not decimals, decimals  # "счёт 163.2" beside "1 500" and commas elsewhere
    assert any(re.search(r"[0-9],[0-9]", line) for line in scores), scores
    assert narration.decimal("1508.3") == "1,508.3"
    with translation.override("ru"):
        assert narration.decimal("1508.3") == "1\xa0508,3"
        assert narration.rank_number(66) == "№66"
