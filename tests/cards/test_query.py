"""The card search language: the golden table (query → the cards found, or the refusal
and its position), the query in words, and the bounds on the work a query asks for."""

from __future__ import annotations

import tomllib
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.query import (
    MAX_WORDS,
    And,
    Not,
    Or,
    Query,
    QueryError,
    Term,
    Word,
    describe,
    describe_sort,
    is_card_syntax,
    parse,
    with_sort,
)

DATA = Path(__file__).parent / "data"
CASES = tomllib.loads((DATA / "query_cases.toml").read_text(encoding="utf-8"))["case"]


def _text(case: dict) -> str:
    if "repeat" in case:
        word, times = case["repeat"]
        return " ".join([word] * times)
    return case["query"]


FOUND = [c for c in CASES if "tokens" in c]
REFUSED = [c for c in CASES if "error" in c]


@pytest.fixture
def collection(db):
    from cards.services import clear_collection
    from cards.transfer import import_collection

    clear_collection()
    import_collection((DATA / "query_collection.json").read_text(encoding="utf-8"))


def test_the_golden_table_finds_exactly_its_cards(collection):
    from cards.search import search_cards

    wrong = {}
    for case in FOUND:
        text = _text(case)
        found = sorted(search_cards(text).values_list("token", flat=True))
        if found != sorted(case["tokens"]):
            wrong[text] = {"expected": case["tokens"], "found": found}
    assert not wrong, wrong


@pytest.mark.parametrize("case", REFUSED, ids=[_text(c)[:40] for c in REFUSED])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_golden_table_refusals_name_their_position(case, lang):
    text = _text(case)
    with translation.override(lang), pytest.raises(QueryError) as caught:
        parse(text)
    error = caught.value
    assert (error.code, error.position) == (case["error"], case["position"]), error.message
    if error.code != "too_long":
        # People count from 1: the message says where, in the visitor's language.
        where = "at character" if lang == "en" else "символ"
        assert f"{where} {error.position + 1}" in error.message, error.message


def test_every_refusal_suggests_what_to_do():
    # Each message says how to fix it: a verb of advice or a suggestion.
    advice = (
        "add",
        "remove",
        "put",
        "write",
        "use",
        "move",
        "shorten",
        "did you mean",
        "takes",
        "as in",
    )
    for case in REFUSED:
        with translation.override("en"), pytest.raises(QueryError) as caught:
            parse(_text(case))
        message = caught.value.message.lower()
        assert any(word in message for word in advice), (case, message)


def test_the_golden_table_is_described_in_both_languages():
    for case in FOUND:
        query = parse(_text(case))
        for lang in ("en", "ru"):
            with translation.override(lang):
                assert all(part.strip() for part in describe(query)), case
                assert describe_sort(query)


# --- the tree ------------------------------------------------------------------------


def test_precedence_and_binds_tighter_than_or():
    root = parse("r:epic s:arcane or r:legendary").root
    assert root == Or(
        (
            And((Term("rarity", "=", "epic"), Term("skill", "=", "arcane"))),
            Term("rarity", "=", "legendary"),
        )
    )
    grouped = parse("r:epic (s:arcane or r:legendary)").root
    assert grouped == And(
        (
            Term("rarity", "=", "epic"),
            Or((Term("skill", "=", "arcane"), Term("rarity", "=", "legendary"))),
        )
    )


@pytest.mark.parametrize(
    ("text", "root"),
    [
        ("-r:common", Not(Term("rarity", "=", "common"))),
        ("not:god", Not(Term("is", "=", "god"))),
        ("is:legendary-skill", Term("is", "=", "legendary-skill")),
        ("is:skilled", Term("is", "=", "legendary-skill")),
        ("has:rank", Term("has", "=", "rank")),
        ("undercharged:2", Term("undercharged", "=", 2)),
        ("head:crown", Term("head", ":", "crown")),
        ('paw="Qx Mitten"', Term("paw", "=", "Qx Mitten")),
        ('"qx mitten"', Word("qx mitten", phrase=True)),
        ("Mitten", Word("Mitten")),
        ("score>=1500.5", Term("score", ">=", Decimal("1500.5"))),
        ("def<=1", Term("def", "<=", 1)),
        ("ability>2", Term("ability", ">", 2)),
        ("bg_supply<=3", Term("background_supply", "<=", 3)),
        ("#17", Term("token", "=", 17)),
        ("rank:none", Term("rank", "=", None)),
        ("--r:epic", Not(Not(Term("rarity", "=", "epic")))),
    ],
)
def test_terms_parse(text, root):
    assert parse(text).root == root


def test_sort_is_read_wherever_it_stands_outside_groups():
    assert parse("sort:-rank r:epic").sort == "-rank"
    assert parse("r:epic sort:nrg").sort == "energy"
    assert parse("").sort == "-rarity"
    assert parse("") == Query(None, "-rarity")


def test_free_cards_only_when_asked():
    assert not parse("r:legendary").wants_free_cards
    assert parse("is:starter").wants_free_cards
    assert parse("r:free or r:epic").wants_free_cards
    assert parse("#5").wants_free_cards
    assert not parse("-is:starter").wants_free_cards
    assert not parse("not:starter").wants_free_cards


@pytest.mark.parametrize("text", ["rank<=²", "rank<=٣", "atk>=１０", "#²", "#①", "#٣", "score>=٣"])
def test_numbers_are_ascii_digits_only(text):
    # "²".isdigit() is True and int("²") raises; "٣" and "１" are digits int() reads.
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert caught.value.code == "bad_number"
    assert "0–9" in caught.value.message


def test_unicode_digits_in_a_free_word_search_names_only():
    assert parse("²").words == ("²",)
    assert parse("٣ fox").words == ("٣", "fox")


@pytest.mark.parametrize(
    "text",
    ["(((", ")))", "or", "OR OR OR", "-", "--", "- -", '"', '""', "()", "(-)", "((a) or)", "a:b:c"],
)
def test_hostile_queries_are_refused_with_a_reason_never_a_crash(text):
    try:
        parse(text)
    except QueryError as error:
        assert error.message and error.code
        assert error.position is None or 0 <= error.position <= len(text)


# --- the query in words --------------------------------------------------------------


def test_describe_in_english_says_the_boolean_structure():
    with translation.override("en"):
        assert describe(parse("r>=epic s:arcane rank<=80 head:crown supply<=3")) == [
            "Rarity is at least Epic",
            "Skill affinity is Arcane",
            "GetGems rank is at most 80",
            "Head attribute contains “crown”",
            "an equipped attribute has supply that is at most 3",
        ]
        assert describe(parse("r:legendary or r:epic")) == ["Rarity is Legendary or Rarity is Epic"]
        assert describe(parse("(r:epic or r:legendary) -is:combo -rank<=80")) == [
            "(Rarity is Epic or Rarity is Legendary)",
            "wears no complete combo",
            "not (GetGems rank is at most 80)",
        ]
        assert describe(parse("-r:common")) == ["Rarity is not Common"]
        assert describe(parse("Mitten")) == ["name or an equipped attribute matches “Mitten”"]
        assert describe(parse("undercharged:2")) == [
            "would enter undercharged with 2 NRG (costs more than 2)"
        ]
        assert describe_sort(parse("sort:-atk")) == "sorted by ATK, highest first"


def test_describe_in_russian():
    with translation.override("ru"):
        described = describe(parse("r>=epic or rank<=80 has:rank"))
        assert described == [
            "Редкость не ниже Epic или (Ранг GetGems не больше 80 и есть ранг GetGems)"
        ]
        assert describe(parse("-r:common")) == ["Редкость не Common"]


def test_mistakes_are_explained_in_russian():
    with translation.override("ru"), pytest.raises(QueryError) as caught:
        parse("rarty:legendary")
    assert "Неизвестное поле «rarty»" in caught.value.message
    assert "rarity" in caught.value.message


# --- helpers for the pages ---------------------------------------------------------------


def test_with_sort_rewrites_only_the_sort():
    assert with_sort("r:epic sort:name (a or b)", "-atk") == "r:epic (a or b) sort:-atk"
    assert with_sort("", "name") == "sort:name"
    assert with_sort("sort:name", "-rarity") == ""
    assert with_sort('head:"x y" order:atk', "hp") == 'head:"x y" sort:hp'


def test_card_syntax_is_told_from_plain_words():
    assert is_card_syntax("r:epic") and is_card_syntax("-fox") and is_card_syntax("a or b")
    assert is_card_syntax('"qx mitten"') and is_card_syntax("(fox)")
    assert not is_card_syntax("how rarity works") and not is_card_syntax("Mitten")


# --- bounded work ----------------------------------------------------------------------------


def test_each_word_is_one_look_up_and_words_are_capped(collection):
    from cards.search import search_cards

    words = " ".join(["tango"] * MAX_WORDS)
    with CaptureQueriesContext(connection) as queries:
        assert list(search_cards(words).values_list("token", flat=True))
    assert len(queries) == 1
    sql = queries[0]["sql"]
    if connection.vendor == "sqlite":
        # Each word: one MATCH in the card-name index, one in the attribute-name index.
        assert sql.count("explorer_card_name MATCH") == MAX_WORDS
        assert " LIKE " not in sql
    with pytest.raises(QueryError) as caught:
        search_cards(f"{words} extra")
    assert caught.value.code == "too_many_words"


def test_words_under_or_share_one_look_up(collection):
    from cards.search import search_cards

    with CaptureQueriesContext(connection) as queries:
        found = set(search_cards("mochi or widget or tango").values_list("token", flat=True))
    assert found == {1, 2, 3, 6}
    if connection.vendor == "sqlite":
        assert queries[0]["sql"].count("explorer_card_name MATCH") == 1


def test_the_index_follows_every_write(collection):
    from cards.models import Attribute, Card
    from cards.search import search_cards

    card = Card.objects.get(token=1)
    card.name = "Zebulon #1"
    card.save()
    assert list(search_cards("zebulon").values_list("token", flat=True)) == [1]
    assert not search_cards("tango -two").exists()
    Card.objects.filter(token=2).update(name="Quokka #2")  # a bulk UPDATE, no signals
    assert list(search_cards("quokka").values_list("token", flat=True)) == [2]
    Attribute.objects.filter(name="Qx Mitten").update(name="Qx Glove")
    assert set(search_cards("glove").values_list("token", flat=True)) == {1, 3}
    assert not search_cards("mitten").exists()
    Card.objects.filter(token=3).delete()
    assert set(search_cards("glove").values_list("token", flat=True)) == {1}


def test_other_apps_may_ask_for_starter_cards_too(collection):
    from cards.search import search_cards

    assert 7 not in set(search_cards("mitten").values_list("token", flat=True))
    with_starters = set(search_cards("mitten", starters=True).values_list("token", flat=True))
    assert with_starters == {1, 3, 7}
    assert set(search_cards("-is:starter", starters=True).values_list("token", flat=True)) == {
        1,
        2,
        3,
        4,
        5,
        6,
        8,
        9,
        10,
    }


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    text=st.one_of(
        st.text(max_size=60),
        st.lists(
            st.sampled_from(
                [
                    "or",
                    "OR",
                    "and",
                    "-",
                    "(",
                    ")",
                    '"',
                    "r:epic",
                    "is:god",
                    "*",
                    "^",
                    "NEAR",
                    "a",
                    "Mitten",
                    "#1",
                    "²",
                    ":",
                    "rank<=",
                    "'",
                    "\\",
                    "%",
                    "_",
                    "—",
                    "ё",
                ]
            ),
            max_size=12,
        ).map(" ".join),
    )
)
@pytest.mark.django_db
def test_any_text_is_refused_with_a_reason_or_searched(text):
    """Whatever is typed, the parser refuses it with a position, or the database answers:
    never an error from the word index's query syntax."""
    from cards.search import search_cards

    try:
        query = parse(text)
    except QueryError as error:
        assert error.message
        assert error.position is None or 0 <= error.position <= len(text)
        return
    search_cards(query).count()
