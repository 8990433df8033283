"""balance_report: the command, its stored result and the wiki macro."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from play.models import BalanceReport
from play.reports import balance_report_html
from play.services import run_balance_report

pytestmark = pytest.mark.django_db


def test_the_macro_is_registered_and_says_when_there_is_no_report(empty_collection):
    from wiki.macros import get_macro, render_macro

    macro = get_macro("balance_report")
    assert macro is not None and macro.live
    # No public page tells a visitor to run a command (make install computes a report).
    with translation.override("en"):
        html = render_macro(macro, None)
        assert "being prepared" in html
    with translation.override("ru"):
        ru = render_macro(macro, None)
        assert "готовится" in ru
    for text in (html, ru):
        assert "manage.py" not in text and "python" not in text and "<table" not in text


def test_load_demo_computes_a_bounded_report_when_none_is_stored(collection, monkeypatch):
    """``make install`` (load_demo) leaves the demo with its balance report."""
    from core.management.commands import load_demo
    from play.models import BalanceReport

    step = next(s for s in load_demo.DEMO_STEPS if s[2] == "balance_report")
    options = step[3]
    assert step[1] == "play.BalanceReport"
    assert options["matches"] <= 5000 and "seed" in options  # bounded and seeded
    monkeypatch.setattr(load_demo, "DEMO_STEPS", [step])  # the other steps are slow
    assert not BalanceReport.objects.exists()
    call_command("load_demo", stdout=StringIO())
    report = BalanceReport.objects.get()
    assert report.matches == options["matches"] and report.seed == options["seed"]
    call_command("load_demo", stdout=StringIO())  # stored: left alone
    assert BalanceReport.objects.count() == 1


def test_command_stores_a_report_and_the_macro_shows_it(collection):
    out = StringIO()
    call_command("balance_report", matches=300, seed=3, verbosity=2, stdout=out)
    text = out.getvalue()
    assert "300 matches" in text and "Stored as balance report" in text
    report = BalanceReport.objects.get()
    data = report.data
    assert report.cards == 12 and report.deck_size == 4
    # Each match counts both decks, and every card of them.
    assert sum(row[0] for row in data["by_mix"].values()) == 600
    assert sum(row[0] for row in data["by_rarity"].values()) == 2400
    assert sum(row[0] for row in data["by_role"].values()) == 2400
    assert set(data["by_rarity"]) <= {"common", "rare", "epic", "legendary"}
    assert sum(data["end_reasons"].values()) == 300
    from wiki.macros import get_macro, render_macro

    with translation.override("en"):
        html = render_macro(get_macro("balance_report"), None)
    assert "300" in html and "Win rate" in html and "Legendary" in html and "Tank" in html
    with translation.override("ru"):
        html = render_macro(get_macro("balance_report"), None)
    assert "Доля побед" in html


def test_same_seed_same_report(collection):
    one = run_balance_report(120, seed=9, deck_size=2).data
    two = run_balance_report(120, seed=9, deck_size=2).data
    assert one == two
    assert balance_report_html(BalanceReport.objects.latest())


@pytest.mark.parametrize(
    "options", [{"matches": 0}, {"deck_size": 5}, {"bots": "greedy"}, {"bots": "greedy,smart"}]
)
def test_bad_options(collection, options):
    with pytest.raises(CommandError):
        call_command("balance_report", **options, stdout=StringIO())


def test_an_empty_collection_is_an_error(empty_collection):
    with pytest.raises(CommandError):
        call_command("balance_report", matches=10, stdout=StringIO())
