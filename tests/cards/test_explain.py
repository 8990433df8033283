"""Why a card matched (cards.explain) against what the search finds (cards.search), and
the predicates over the engine's answers: decided:, near:, effect:, template:, owns:.

The property tests run generated queries over the golden collection of test_query (ten
cards, every stored field the engine's own) and over a generated demo collection."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.explain import checks, leaves, matches, stored_facts
from cards.models import Card
from cards.query import And, Node, Not, Or, QueryError, parse
from cards.search import search_cards
from cards.specs import card_specs

DATA = Path(__file__).parent / "data"

LEAVES = [
    "r:epic",
    "r>=rare",
    "r<legendary",
    "is:combo",
    "is:god",
    "is:premium",
    "is:legendary-skill",
    "is:starter",
    "has:rank",
    "has:stickers",
    "rank<=100",
    "burned>=1",
    "mitten",
    '"qx mitten"',
    "crown",
    "tango",
    "7",
    "#3",
    "name:smitten",
    'name="Sage #5"',
    "head:crown",
    'paw="Qx Mitten"',
    "attr:sword",
    "owns:crown",
    "owns:vest",
    'owns="Ruby Vest"',
    "supply<=10",
    "bg_supply>=300",
    "kind:premium",
    "a:none",
    "s:pierce",
    "role:tank",
    "undercharged:2",
    "score>=40",
    "atk>=9",
    "starter:yes",
    "decided:supply",
    "decided:getgems",
    "decided:combo",
    "decided:wardrobe",
    "decided:starter",
    "near:rare",
    "near:epic",
    "near:legendary",
    "effect:burn",
    "effect:shield",
    "-effect:heal_hero",
    "template:iron_pup",
    "template!=claw_dancer",
]

QUERIES = st.recursive(
    st.sampled_from(LEAVES),
    lambda inner: st.one_of(
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(" + " ".join(xs) + ")"),
        st.lists(inner, min_size=2, max_size=3).map(lambda xs: "(" + " or ".join(xs) + ")"),
        inner.map(lambda x: x if x.startswith("-") else "-" + x),
    ),
    max_leaves=7,
)


def combine(node: Node | None, flags: list[bool]) -> bool:
    """The query's and/or/not over the API's ``ok`` flags, taken in query order."""
    if node is None:
        return True
    if isinstance(node, Not):
        return not combine(node.child, flags)
    if isinstance(node, And | Or):
        values = [combine(child, flags) for child in node.children]  # consume every leaf
        return all(values) if isinstance(node, And) else any(values)
    return flags.pop(0)


@pytest.fixture(scope="module")
def golden(django_db_setup, django_db_blocker):
    from cards.services import clear_collection
    from cards.transfer import import_collection

    with django_db_blocker.unblock():
        clear_collection()
        import_collection((DATA / "query_collection.json").read_text(encoding="utf-8"))
        facts = stored_facts(card_specs(Card.objects.all()))
    yield facts
    with django_db_blocker.unblock():
        clear_collection()


@settings(max_examples=120, deadline=None, derandomize=True, database=None)
@given(text=QUERIES)
@pytest.mark.django_db
def test_the_clause_flags_combine_into_what_the_search_finds(golden, text):
    """For every result the flags combined by the query's and/or/not are true; for every
    other card false (a starter card left out only because the query does not ask)."""
    try:
        query = parse(text)
    except QueryError:
        return  # the parser's own tests cover refusals
    found = set(search_cards(query).values_list("token", flat=True))
    for token, facts in golden.items():
        flags = [c.ok for c in checks(query, facts, text)]
        assert len(flags) == len(list(leaves(query.root)))
        combined = combine(query.root, flags)
        left_out = facts.starter and not query.wants_free_cards
        assert (combined and not left_out) == (token in found), (text, token, flags)
        assert matches(query, facts) == (token in found), (text, token)


def test_each_clause_is_written_as_typed_without_its_minus_or_not(golden):
    text = 'r:legendary -mitten not:god ("qx mitten" or rank<=50)'
    query = parse(text)
    found = checks(query, golden[3], text)
    assert [c.clause for c in found] == [
        "r:legendary",
        "mitten",
        "is:god",
        '"qx mitten"',
        "rank<=50",
    ]
    assert [(c.ok, c.value) for c in found] == [
        (True, "legendary"),
        (True, "Qx Mitten"),
        (True, "Sun God Halo"),
        (True, "Qx Mitten"),
        (False, None),
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("decided:supply", "supply_count"),
        ("decided:getgems", "getgems_rank"),
        ("rule:stickers", "burned_stickers"),
        ("decided:tier_badge", "tier_badge"),
        ("near:Epic", "epic"),
        ("effect:burn", "burn"),
        ("template:iron_pup", "iron_pup"),
    ],
)
def test_the_new_fields_parse(text, value):
    assert parse(text).terms[0].value == value


@pytest.mark.parametrize("text", ["decided:luck", "near:free", "effect:fly", "template:x"])
def test_the_new_fields_refuse_unknown_values_with_a_position(text):
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert caught.value.code == "bad_choice" and caught.value.position == 0


# ---------------------------------------------------------------------------
# Warnings


def test_ignored_words_and_sorts_are_warned_about_not_silent():
    query = parse("mitten ? sort:name — sort:-atk")
    assert query.words == ("mitten",)
    assert query.sort == "-atk"
    assert [(w.code, w.position) for w in query.warnings] == [
        ("ignored_word", 7),
        ("ignored_sort", 9),
        ("ignored_word", 19),
    ]
    assert "?" in query.warnings[0].message


@pytest.mark.django_db
def test_an_ignored_word_does_not_empty_the_results(golden):
    """A word of punctuation alone found nothing, so "mitten ?" found no card."""
    assert search_cards("mitten ?").count() == search_cards("mitten").count() > 0
    assert parse("? or mitten").words == ("mitten",)
