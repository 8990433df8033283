"""The Leagues page: the arena's tables from engine data and the latest balance report."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import translation

from arena import macros, services
from wiki.macros import get_macro

pytestmark = pytest.mark.django_db


def test_the_arena_macros_are_registered() -> None:
    for name in ("arena_match_rules", "arena_bots", "arena_balance"):
        assert get_macro(name) is not None, name
    assert get_macro("arena_balance").live


def test_the_match_rules_table_reads_the_engine() -> None:
    from engine.arena import slabs

    html = macros.arena_match_rules(None)
    for number in (
        slabs.ENERGY_BANK_MAX,
        slabs.TURN_LIMIT,
        slabs.TIMEOUTS_TO_FORFEIT,
        slabs.TURN_SECONDS,
    ):
        assert f">{number}" in html or f"{number} " in html


def test_the_balance_report_without_and_with_a_run(slabs) -> None:
    assert "No balance report" in macros.arena_balance(None)
    services.run_balance_report(40, seed=1)
    with translation.override("en"):
        html = macros.arena_balance(None)
    assert "First against second player" in html and "95 % interval" in html
    assert any(v in html for v in ("a handicap", "an advantage", "no clear effect"))
    assert "Tactician" in html and "rookie" in html and "vs Sun" in html
    with translation.override("ru"):
        assert "Первый игрок против второго" in macros.arena_balance(None)


def test_the_verdict() -> None:
    assert macros.first_player_verdict(400, 600)[0] == "a handicap for the first player"
    assert macros.first_player_verdict(600, 400)[0] == "an advantage for the first player"
    assert macros.first_player_verdict(50, 52)[0] == "no clear effect"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_leagues_page_links_into_the_arena(client, slabs, lang) -> None:
    call_command("load_wiki", verbosity=0)
    services.run_balance_report(20, seed=1)
    body = client.get(f"/{lang}/wiki/leagues/").content.decode()
    assert f'href="/{lang}/arena/"' in body and f'href="/{lang}/arena/team/"' in body
    assert 'title="arena_balance first"' in body and 'title="arena_match_rules"' in body
    assert 'title="slab_stat_book hp"' in body
