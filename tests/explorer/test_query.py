"""The card search language: parsing, errors in the visitor's language, descriptions."""

from decimal import Decimal

import pytest
from django.utils import translation

from explorer.query import Query, QueryError, Term, describe, describe_sort, parse


@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ("r:legendary", [Term("rarity", "=", "legendary")]),
        ("rarity>=epic", [Term("rarity", ">=", "epic")]),
        ("R:Legendary", [Term("rarity", "=", "legendary")]),
        ("s:arcane role:tank", [Term("skill", "=", "arcane"), Term("role", "=", "tank")]),
        ("rank<=80", [Term("rank", "<=", 80)]),
        ("rank:none", [Term("rank", "=", None)]),
        ("a:none", [Term("active", "=", None)]),
        ("active!=none", [Term("active", "!=", None)]),
        ("head:crown supply<=3", [Term("head", "=", "crown"), Term("supply", "<=", 3)]),
        ('paw:"Qx Mitten"', [Term("paw", "=", "Qx Mitten")]),
        ("burned>=1 nrg=4", [Term("burned", ">=", 1), Term("energy", "=", 4)]),
        ("score>=1500.5", [Term("score", ">=", Decimal("1500.5"))]),
        ("#17", [Term("token", "=", 17)]),
        ("starter:yes", [Term("starter", "=", True)]),
        ("kind:god", [Term("kind", "=", "god")]),
        ("bg:sunset", [Term("background", "=", "sunset")]),
    ],
)
def test_terms_parse(text, terms):
    assert list(parse(text).terms) == terms


def test_free_words_and_sort():
    query = parse("fox 12 sort:-rank")
    assert query.words == ("fox", "12")
    assert query.sort == "-rank"
    assert parse("") == Query((), (), "-rarity")


@pytest.mark.parametrize(
    ("text", "code", "fragment"),
    [
        ("rarty:legendary", "unknown_field", "did you mean “rarity”"),
        ("zzzz:1", "unknown_field", "search help"),
        ("r:legendery", "bad_choice", "Did you mean “legendary”"),
        ("role:healer", "bad_choice", "tank, striker, support, control"),
        ("rank<=eighty", "bad_number", "not a whole number"),
        ("role>=tank", "bad_operator", "cannot be used"),
        ("rank<none", "bad_operator", "none"),
        ("r:", "missing_value", "needs a value"),
        ('head:"crown', "unclosed_quote", "not closed"),
        ("sort:colour", "bad_sort", "sorted by"),
        ("starter:maybe", "bad_bool", "yes or no"),
        ("x" * 600, "too_long", "too long"),
    ],
)
def test_mistakes_are_explained(text, code, fragment):
    with pytest.raises(QueryError) as caught:
        parse(text)
    assert caught.value.code == code
    assert fragment in caught.value.message


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


def test_the_ascii_digits_rule_is_said_in_russian():
    with translation.override("ru"), pytest.raises(QueryError) as caught:
        parse("rank<=²")
    assert "0–9" in caught.value.message and "целое" in caught.value.message


def test_mistakes_are_explained_in_russian():
    with translation.override("ru"), pytest.raises(QueryError) as caught:
        parse("rarty:legendary")
    assert "Неизвестное поле «rarty»" in caught.value.message
    assert "rarity" in caught.value.message


def test_describe_in_both_languages():
    query = parse("r>=epic s:arcane rank<=80 head:crown supply<=3 fox")
    with translation.override("en"):
        assert describe(query) == [
            "Rarity is at least Epic",
            "Skill affinity is Arcane",
            "GetGems rank is at most 80",
            "Head attribute contains “crown”",
            "an equipped attribute has supply that is at most 3",
            "name or token matches “fox”",
        ]
        assert describe_sort(query) == "sorted by rarity, highest first"
    with translation.override("ru"):
        described = describe(query)
        assert described[0] == "Редкость не ниже Epic"
        assert described[2] == "Ранг GetGems не больше 80"


def test_free_cards_only_when_asked():
    assert not parse("r:legendary").wants_free_cards
    assert parse("starter:yes").wants_free_cards
    assert parse("r:free").wants_free_cards
    assert parse("#5").wants_free_cards
