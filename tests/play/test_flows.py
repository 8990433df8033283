"""The match demo's flows added for issue 14 and issue 12 item 10: surrender with a
confirmation, finishing a match once the player has no card left, the whole log, rematch,
boosts that explain themselves, Hero HP against the ceiling, the deck builder on the
explorer's query language (with the binder and the energy curve), the bot choice, the
cap on matches in progress, the rate limit on starts, and ``manage.py cleanup``."""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import cache
from django.core.management import call_command
from django.test import Client
from django.urls import reverse as django_reverse
from django.utils import timezone, translation

from core import limits as core_limits
from engine.match import A, MatchCard, Pick, out_of_cards
from engine.types import BotKind, Rarity, Role
from play import limits, presenters, services
from play.models import Match, MatchStatus

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
WISP = MatchCard("1", "Wisp", Rarity.COMMON, Role.SUPPORT, atk=1, hp=3)
FANG = MatchCard("bot-2", "Fang", Rarity.EPIC, Role.STRIKER, atk=14, hp=40)
GLASS = MatchCard("3", "Glass", Rarity.COMMON, Role.STRIKER, atk=5, hp=3)
GLASS_BOT = MatchCard("bot-3", "Glass", Rarity.COMMON, Role.STRIKER, atk=5, hp=3)


def reverse(name: str, args=None) -> str:
    """English addresses (a request to /ru/ leaves Russian active in the test thread)."""
    with translation.override("en"):
        return django_reverse(name, args=args)


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()  # the rate limit counts in the cache
    yield
    cache.clear()


def session_of(client: Client) -> str:
    """Give the test client a session (as a first match start would) and return its key."""
    session = client.session
    session["play"] = True
    session.save()
    client.cookies["sessionid"] = session.session_key
    return session.session_key


def custom_match(client: Client, player, bot, bot_name: str = "greedy", seed: int = 3) -> Match:
    """A match with decks the builder could not make (the service's own constructor)."""
    return services._create(session_of(client), player, bot, seed, bot_name).match


def state_of(match: Match):
    return services.load(Match.objects.get(pk=match.pk)).state


def post(client: Client, name: str, match: Match, data=None, **extra):
    return client.post(reverse(name, args=[match.public_id]), data or {}, **extra)


def act(client: Client, match: Match, move: str, **extra):
    turn = state_of(match).actions
    return post(client, "play:act", match, {"turn": turn, "move": move}, **extra)


def start(client: Client, tokens=(1, 2), **data):
    return client.post(reverse("play:index"), {"card": [str(t) for t in tokens], **data})


# ---------------------------------------------------------------------------
# Surrender asks first


def test_surrender_is_its_own_form_that_asks_before_it_posts(client, collection):
    start(client)
    match = Match.objects.get()
    html = client.get(reverse("play:match", args=[match.public_id])).content.decode()
    form = re.search(r'<form class="surrender-form"[^>]*>', html)[0]
    url = reverse("play:surrender", args=[match.public_id])
    # With htmx the form's own request asks (hx-confirm on the form, not on a button of
    # the move form, where it never fired); without JavaScript it is a GET to the question.
    assert 'method="get"' in form and f'action="{url}"' in form and f'hx-post="{url}"' in form
    assert 'hx-confirm="Surrender this match?' in form
    prepare = html.split('<form class="panel prepare"')[1].split("</form>")[0]
    assert 'value="surrender"' not in prepare and "hx-confirm" not in prepare


def test_surrender_without_javascript_is_a_question_then_a_post(client, collection):
    start(client)
    match = Match.objects.get()
    url = reverse("play:surrender", args=[match.public_id])
    page = client.get(url, {"turn": "3"})
    html = page.content.decode()
    assert page.status_code == 200 and "Surrender this match?" in html
    assert "Yes, surrender" in html and "No, back to the match" in html
    assert state_of(match).over is False  # asking changes nothing
    ru = client.get(url.replace("/en/", "/ru/")).content.decode()
    assert "Да, сдаться" in ru and "Нет, вернуться к матчу" in ru
    turn = re.search(r'name="turn" value="(\d+)"', html)[1]
    response = client.post(url, {"turn": turn})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.LOST and match.end_reason == "surrender"
    # Asking again after the end goes back to the match; a second POST is stale.
    assert client.get(url).status_code == 302
    again = client.post(url, {"turn": turn}, follow=True).content.decode()
    assert "out of date" in again or "The match is over." in again


def test_surrender_with_htmx_answers_the_board(client, collection):
    start(client)
    match = Match.objects.get()
    turn = state_of(match).actions
    response = post(client, "play:surrender", match, {"turn": turn}, headers=HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="match"') and "The bot wins." in html
    assert post(client, "play:surrender", match, {"turn": "x"}).status_code == 302
    other = Client()
    assert other.get(reverse("play:surrender", args=[match.public_id])).status_code == 404


# ---------------------------------------------------------------------------
# Nothing more can be done: finish the match at once


def test_finish_now_once_the_last_card_is_gone(client, collection, django_assert_num_queries):
    match = custom_match(client, (WISP,), (FANG,))
    url = reverse("play:match", args=[match.public_id])
    html = client.get(url).content.decode()
    assert "Nothing more can be done" not in html  # the Wisp is still in play
    refused = post(client, "play:finish", match, {"turn": state_of(match).actions}, follow=True)
    assert "You still have a card to play" in refused.content.decode()
    act(client, match, "pick:0")
    act(client, match, "commit")  # Fang kills the Wisp
    state = state_of(match)
    assert out_of_cards(state, A) and not state.over
    html = client.get(url).content.decode()
    assert "Nothing more can be done" in html and "Finish the match now" in html
    ru = client.get(url.replace("/en/", "/ru/")).content.decode()
    assert "Больше ничего не сделать" in ru and "Доиграть матч сразу" in ru
    # One savepoint, the match locked, one UPDATE, the release: however many rounds.
    with django_assert_num_queries(4):
        response = post(client, "play:finish", match, {"turn": state.actions})
    assert response.status_code == 302
    match.refresh_from_db()
    final = state_of(match)
    assert final.over and match.status == MatchStatus.LOST and match.rounds == final.round
    assert match.end_reason == "hero_defeated" and final.round > 2
    # The rounds played for the player are in the log as usual, patch first.
    log = client.get(reverse("play:log", args=[match.public_id])).content.decode()
    assert "Hero Patch: +3 Hero HP" in log and f"Round {final.round}" in log
    # A second press (the page left open) is stale, not a second play-out.
    again = post(client, "play:finish", match, {"turn": state.actions}, follow=True)
    assert "out of date" in again.content.decode()


def test_finish_now_with_htmx_and_refusals(client, collection):
    match = custom_match(client, (WISP,), (FANG,))
    act(client, match, "pick:0")
    act(client, match, "commit")
    turn = state_of(match).actions
    response = post(client, "play:finish", match, {"turn": turn}, headers=HX)
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="match"') and "The bot wins." in html
    assert post(client, "play:finish", match, {"turn": "²"}).status_code == 302
    assert (
        Client().post(reverse("play:finish", args=[match.public_id]), {"turn": turn}).status_code
        == 404
    )


def test_the_counted_hero_patch_reads_clearly_at_the_end(client, collection):
    """docs/rules.md §6 end: both decks spent, each unused Hero Patch counts +3, then Hero HP."""
    match = custom_match(client, (GLASS,), (GLASS_BOT,), bot_name="random")
    act(client, match, "pick:0")
    act(client, match, "commit")
    state = state_of(match)
    assert state.over and state.end_reason == "decks_exhausted"
    html = client.get(reverse("play:match", args=[match.public_id])).content.decode()
    lines = re.findall(r'<li class="log-line[^"]*">([^<]*)</li>', html)
    counted = [t for t in lines if "from the unused Hero Patch" in t]
    assert len(counted) == 2  # one for each side, the player's first
    assert all("counted because no card is left on either side" in t for t in counted)
    assert counted[0].startswith("Your Hero: +3 HP") and counted[1].startswith("Bot&#x27;s Hero")
    assert "No card was left on either side" in lines[-1]
    ru = client.get(f"/ru/play/m/{match.public_id}/").content.decode()
    assert "Hero Patch" in ru and "ни у одной стороны" in ru


# ---------------------------------------------------------------------------
# The whole log


def test_the_whole_log_by_round_and_beat_with_a_link_per_line(
    client, collection, django_assert_num_queries
):
    start(client, (9, 10))
    match = Match.objects.get()
    for move in ("pick:0", "commit", "commit"):
        act(client, match, move)
    url = reverse("play:log", args=[match.public_id])
    with django_assert_num_queries(1):
        response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 200
    for beat in ("Before round 1", "Prepare", "Commit", "Resolve", "Advance"):
        assert f">{beat}</h3>" in html, beat
    assert 'id="round-1"' in html and 'id="round-2"' in html
    ids = re.findall(r'<li id="(r\d+-\d+)"', html)
    assert ids and len(ids) == len(set(ids))
    assert f'href="{url}#{ids[0]}"' in html  # every line links to itself
    # The ids do not move when the bot's hidden picks are revealed at the end.
    while not state_of(match).over:
        act(client, match, "surrender")
    after = re.findall(r'<li id="(r\d+-\d+)"', client.get(url).content.decode())
    assert set(ids) <= set(after)
    # The match page and the replay link to the log; anyone may read a finished one.
    board = client.get(reverse("play:match", args=[match.public_id])).content.decode()
    assert f'href="{url}"' in board
    assert Client().get(url).status_code == 200
    ru = client.get(url.replace("/en/", "/ru/")).content.decode()
    assert "Весь журнал" in ru and ">Подготовка</h3>" in ru and ">Разрешение</h3>" in ru


def test_the_log_of_a_running_match_is_its_owners_only(client, collection):
    start(client)
    match = Match.objects.get()
    assert client.get(reverse("play:log", args=[match.public_id])).status_code == 200
    assert Client().get(reverse("play:log", args=[match.public_id])).status_code == 404


# ---------------------------------------------------------------------------
# Rematch and the bot choice


def test_the_bot_is_chosen_in_the_builder_and_stored_on_the_match(client, collection):
    html = client.get(reverse("play:index"), {"deck": "1,2", "bot": "lookahead"}).content.decode()
    assert "Start the match against the Lookahead bot" in html
    assert 'name="bot" value="lookahead"' in html
    for kind in BotKind:
        assert f">{kind.value.title()}</strong>" in html
    # The choice survives the builder's own links (add, remove, pages).
    assert 'href="/en/play/?deck=2&amp;bot=lookahead"' in html
    assert start(client, (1, 2), bot="lookahead").status_code == 302
    match = Match.objects.get()
    assert match.bot == "lookahead"
    page = client.get(reverse("play:match", args=[match.public_id])).content.decode()
    assert "Bot: Lookahead" in page
    # The lookahead bot plays its turns (and answers the player's) through the engine.
    act(client, match, "pick:0")
    assert act(client, match, "commit").status_code == 302
    assert state_of(match).round == 2 and state_of(match).players[1].committed


@pytest.mark.parametrize("bot", ["nope", "GREEDY", "random "])
def test_a_bot_that_does_not_exist_is_refused(client, collection, bot):
    response = start(client, (1,), bot=bot)
    assert response.status_code == 302
    assert "There is no such bot." in client.get(response["Location"]).content.decode()
    assert not Match.objects.exists()
    assert client.get(reverse("play:index"), {"bot": bot}).status_code == 400


def test_rematch_plays_the_same_decks_against_the_same_bot(client, collection):
    start(client, (1, 10), bot="random")
    first = Match.objects.get()
    act(client, first, "surrender")
    html = client.get(reverse("play:match", args=[first.public_id])).content.decode()
    assert "Rematch: the same decks against the Random bot" in html
    response = post(client, "play:rematch", first)
    second = Match.objects.exclude(pk=first.pk).get()
    assert response["Location"] == reverse("play:match", args=[second.public_id])
    assert second.deck_a == first.deck_a and second.deck_b == first.deck_b
    assert second.bot == "random" and second.status == MatchStatus.ACTIVE
    assert second.owner_session_key == first.owner_session_key
    assert Client().post(reverse("play:rematch", args=[first.public_id])).status_code == 404
    assert client.get(reverse("play:rematch", args=[first.public_id])).status_code == 405


# ---------------------------------------------------------------------------
# Boosts and Hero HP


def test_every_boost_says_what_it_does_costs_and_whether_it_is_available(client, collection):
    start(client, (1, 2))
    match = Match.objects.get()
    url = reverse("play:match", args=[match.public_id])
    html = client.get(url).content.decode()
    boosts = re.findall(r'<li class="boost boost-(\w+)" id="boost-(\w+)">', html)
    assert [key for _, key in boosts] == ["charge", "switch", "rage", "guard_up", "hero_patch"]
    # Round 1, nothing picked, 3 NRG: Charge and Hero Patch can be used; the others say why.
    assert {key: state for state, key in boosts} == {
        "charge": "ready",
        "switch": "blocked",
        "rage": "blocked",
        "guard_up": "blocked",
        "hero_patch": "ready",
    }
    assert "+1 NRG at once (up to the cap of 4)." in html
    assert "Cost: one of this round&#x27;s 2 boosts; the card coming in pays its NRG." in html
    assert "Switch needs a card on the field." in html
    assert "Rage needs a card on the field or a picked card." in html
    page = reverse("wiki:page", args=["how-a-match-works"])
    for anchor in ("charge", "switch", "rage", "guard-up", "hero-patch"):
        assert html.count(f'href="{page}#{anchor}"') == 1, anchor
    # Used: Hero Patch now says so, and its Hero is healed above the start.
    act(client, match, "boost:hero_patch")
    html = client.get(url).content.decode()
    assert re.search(r'boost-used" id="boost-hero_patch"', html)
    assert "Used in this match" in html
    assert "+3 healed above the start" in html and "ceiling 90" in html
    # The round's limit: after a second boost the others wait for the next round.
    act(client, match, "pick:0")
    act(client, match, "boost:rage")
    html = client.get(url).content.decode()
    assert re.search(r'boost-limit" id="boost-guard_up"', html)
    assert "You may use at most 2 boosts per round." in html
    assert "Rage +2 ATK on" in html
    ru = client.get(url.replace("/en/", "/ru/")).content.decode()
    assert "Уже использован в матче" in ru and "Не в этом раунде" in ru


def test_the_hero_bar_is_drawn_against_the_ceiling():
    from engine.match import Boost, apply, new_match
    from engine.types import BoostKind

    state = new_match((WISP,), (FANG,))
    state, _ = apply(state, Boost(A, BoostKind.HERO_PATCH))
    side = presenters.board(state).player
    assert (side.hero_hp, side.hero_start, side.hero_ceiling) == (34, 31, 90)
    assert side.hero_above == 3
    assert side.hero_pct == round(100 * 31 / 90) and side.hero_start_pct == side.hero_pct
    assert side.hero_pct + side.hero_above_pct == round(100 * 34 / 90)
    bot = presenters.board(state).bot
    assert bot.hero_above == 0 and bot.hero_above_pct == 0


# ---------------------------------------------------------------------------
# The deck builder


def test_the_builder_reads_the_explorer_query_language(client, collection):
    response = client.get(reverse("play:index"), {"q": "r:epic"})
    html = response.content.decode()
    assert response.status_code == 200
    results = html.split('id="results-title"')[1]
    names = re.findall(r'<strong>([^<]+)</strong><span class="visually-hidden">', results)
    assert names and all(n.startswith("Epic ") for n in names), names
    assert 'href="/en/cards/7/"' in results  # names link to their breakdowns
    bad = client.get(reverse("play:index"), {"q": "rarty:epic", "deck": "1"})
    text = bad.content.decode()
    assert bad.status_code == 400 and "Unknown field" in text and "did you mean" in text
    assert "Your deck (1 of 4)" in text  # the deck is kept
    assert client.get("/ru/play/", {"q": "r:epci"}).status_code == 400


def test_four_four_nrg_cards_warn_that_they_all_start_undercharged(client, collection):
    legends = ",".join(str(t) for t in (9, 10, 11, 12))
    html = client.get(reverse("play:index"), {"deck": legends}).content.decode()
    assert "Energy curve" in html
    assert "whichever card you deploy first enters Undercharged" in html
    assert "is fully charged only from round 5" in html
    ru = client.get("/ru/play/", {"deck": legends}).content.decode()
    assert "Кривая NRG" in ru and "Undercharged" in ru
    cheap = client.get(reverse("play:index"), {"deck": "1,2"}).content.decode()
    assert "Energy curve" in cheap and "whichever card you deploy first" not in cheap


def test_play_with_my_binder(client, collection, monkeypatch):
    from cards import binders

    monkeypatch.setattr(binders, "_sources", [lambda key: [1, 7]])
    html = client.get(reverse("play:index")).content.decode()
    assert "Play with my binder" not in html  # no session, no binder
    session_of(client)
    html = client.get(reverse("play:index")).content.decode()
    assert "Play with my binder (2 cards)" in html
    page = client.get(reverse("play:index"), {"source": "binder"}).content.decode()
    results = page.split('id="results-title"')[1]
    assert "Cards of your binder" in page
    assert set(re.findall(r"/en/cards/(\d+)/", results)) == {"1", "7"}
    assert "Search the whole collection" in page
    only_epic = client.get(reverse("play:index"), {"source": "binder", "q": "r:epic"})
    assert re.findall(
        r"/en/cards/(\d+)/", only_epic.content.decode().split('id="results-title"')[1]
    ) == ["7"]
    assert client.get(reverse("play:index"), {"source": "attic"}).status_code == 400


def test_an_empty_binder_says_where_cards_come_from(client, collection, monkeypatch):
    session_of(client)
    html = client.get(reverse("play:index"), {"source": "binder"}).content.decode()
    assert "Your binder is empty" in html and 'href="/en/packs/"' in html


# ---------------------------------------------------------------------------
# A cap on matches in progress, a rate limit on starts


def test_a_new_match_sets_the_oldest_aside_past_the_cap(client, collection):
    for _ in range(limits.ACTIVE_MATCHES_PER_SESSION):
        assert start(client).status_code == 302
    oldest = Match.objects.order_by("created_at", "id").first()
    response = start(client)
    assert Match.objects.filter(status=MatchStatus.ACTIVE).count() == (
        limits.ACTIVE_MATCHES_PER_SESSION
    )
    oldest.refresh_from_db()
    assert oldest.status == MatchStatus.ABANDONED and oldest.over
    page = client.get(response["Location"]).content.decode()
    assert "your oldest one (round 1) was set aside" in page
    # The match set aside takes no more moves, says why, and keeps its log.
    before = oldest.actions
    html = act(client, oldest, "pick:0", follow=True).content.decode()
    assert "The match is over." in html and "This match was set aside" in html
    assert Match.objects.get(pk=oldest.pk).actions == before
    assert client.get(reverse("play:log", args=[oldest.public_id])).status_code == 200
    index = client.get(reverse("play:index")).content.decode()
    assert "Set aside" in index


@pytest.fixture
def one_window(monkeypatch):
    """Every start in one counting window: on a slow machine a test's starts can
    straddle a window's end, and the new window rightly counts afresh."""
    now = [1_000_000.0]
    monkeypatch.setattr(core_limits, "clock", lambda: now[0])
    return now


def test_match_starts_are_rate_limited_per_session(client, collection, monkeypatch, one_window):
    monkeypatch.setattr(limits, "STARTS", replace(limits.STARTS, per_session=3))
    for _ in range(3):
        assert start(client).status_code == 302
    refused = start(client)
    assert refused.status_code == 429 and int(refused["Retry-After"]) >= 1
    html = refused.content.decode()
    assert "Too many matches at once" in html and "Nothing was started." in html
    assert Match.objects.count() == 3
    ru = client.post("/ru/play/", {"card": ["1"]})
    assert ru.status_code == 429 and "Слишком много матчей сразу" in ru.content.decode()
    # A rematch is a start too.
    match = Match.objects.first()
    assert post(client, "play:rematch", match).status_code == 429


def test_match_starts_are_rate_limited_per_address(collection, monkeypatch, one_window):
    monkeypatch.setattr(limits, "STARTS", replace(limits.STARTS, per_address=4))
    codes = [start(Client(REMOTE_ADDR="10.0.0.7")).status_code for _ in range(6)]
    assert codes == [302] * 4 + [429] * 2
    assert start(Client(REMOTE_ADDR="10.0.0.8")).status_code == 302  # another address


def test_a_refused_start_creates_no_session(collection, monkeypatch, one_window):
    monkeypatch.setattr(limits, "STARTS", replace(limits.STARTS, per_new_visitor=2))
    codes = [start(Client(REMOTE_ADDR="10.0.0.9")).status_code for _ in range(5)]
    assert codes == [302, 302, 429, 429, 429]
    assert Session.objects.count() == 2


def test_one_session_cannot_spend_its_address_budget(collection, monkeypatch, one_window):
    monkeypatch.setattr(limits, "STARTS", replace(limits.STARTS, per_session=3, per_address=6))
    greedy = Client(REMOTE_ADDR="10.0.0.7")
    codes = [start(greedy).status_code for _ in range(30)]
    assert codes.count(302) == 3
    # Its 27 refused starts spent nothing of the address's budget: a neighbour starts.
    assert start(Client(REMOTE_ADDR="10.0.0.7")).status_code == 302


def test_seventy_quick_starts_from_one_session_are_held_back(client, collection, one_window):
    codes = [start(client).status_code for _ in range(70)]
    assert codes.count(302) == limits.STARTS.per_session
    assert set(codes[limits.STARTS.per_session :]) == {429}
    assert Match.objects.filter(status=MatchStatus.ACTIVE).count() == (
        limits.ACTIVE_MATCHES_PER_SESSION
    )


def test_the_counter_window_ends(collection, monkeypatch, one_window):
    now = one_window
    budget = replace(limits.STARTS, per_session=1)
    core_limits.count(budget, "k", None)
    with pytest.raises(limits.RateLimited) as info:
        core_limits.count(budget, "k", None)
    assert 1 <= info.value.retry_after <= budget.window + 1
    now[0] += budget.window
    core_limits.count(budget, "k", None)


# ---------------------------------------------------------------------------
# manage.py cleanup


def test_cleanup_removes_expired_sessions_and_matches_left_unfinished(client, collection):
    start(client)
    start(client)
    stale, recent = Match.objects.order_by("id")
    finished = custom_match(client, (GLASS,), (GLASS_BOT,))
    act(client, finished, "pick:0")
    act(client, finished, "commit")
    aside = custom_match(client, (WISP,), (FANG,))
    Match.objects.filter(pk=aside.pk).update(status=MatchStatus.ABANDONED)
    old = timezone.now() - limits.ABANDONED_AFTER - timedelta(hours=1)
    Match.objects.filter(pk__in=[stale.pk, finished.pk, aside.pk]).update(updated_at=old)
    Session.objects.create(
        session_key="x" * 32, session_data="", expire_date=timezone.now() - timedelta(days=1)
    )
    out = StringIO()
    call_command("cleanup", stdout=out)
    assert "1 expired session(s)" in out.getvalue()
    assert "2 unfinished match(es)" in out.getvalue()
    left = set(Match.objects.values_list("pk", flat=True))
    assert left == {recent.pk, finished.pk}  # finished replays stay shareable
    assert not Session.objects.filter(session_key="x" * 32).exists()
    assert Session.objects.filter(session_key=client.session.session_key).exists()
    call_command("cleanup", stdout=out)  # nothing left to do: no error


# ---------------------------------------------------------------------------
# Query counts of the new pages


def test_query_counts_of_the_new_pages(client, collection, django_assert_num_queries):
    start(client)
    match = Match.objects.get()
    with django_assert_num_queries(1):  # the match (the session key is the cookie's)
        client.get(reverse("play:surrender", args=[match.public_id]))
    # A query-language search: results, suggestion (two), matches, binder.
    with django_assert_num_queries(5):
        client.get(reverse("play:index"), {"q": "r:epic role:tank", "bot": "random"})
    # A rematch: the match read, then the room check, the insert (in a savepoint).
    with django_assert_num_queries(5):
        post(client, "play:rematch", match)


def test_a_picked_card_can_take_rage_and_guard_up(client, collection):
    start(client, (1, 2))
    match = Match.objects.get()
    act(client, match, "pick:1")
    assert state_of(match).players[0].pick == Pick(A, 1).card
    html = client.get(reverse("play:match", args=[match.public_id])).content.decode()
    assert re.search(r'boost-ready" id="boost-rage"', html)
    assert 'value="boost:rage"' in html and 'value="boost:guard_up"' in html
