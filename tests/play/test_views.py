"""The match demo's pages: deck builder, start, play, refusals, sessions, replay."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from engine.match import legal_actions
from play import services
from play.models import Match, MatchStatus

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def start(client: Client, tokens=(1, 2)) -> Match:
    response = client.post(reverse("play:index"), {"card": [str(t) for t in tokens]})
    assert response.status_code == 302, response.content[:500]
    match = Match.objects.latest("created_at")
    assert response["Location"] == reverse("play:match", args=[match.public_id])
    return match


def act(client: Client, match: Match, move: str, turn: int | None = None, **extra):
    if turn is None:
        turn = services.load(Match.objects.get(pk=match.pk)).state.actions
    return client.post(
        reverse("play:act", args=[match.public_id]), {"turn": str(turn), "move": move}, **extra
    )


def current(match: Match):
    return services.load(Match.objects.get(pk=match.pk)).state


# ---------------------------------------------------------------------------
# Deck builder


def test_index_lists_cards_and_builds_a_deck_in_the_url(client, collection):
    html = client.get(reverse("play:index")).content.decode()
    assert "Axe Pup" in html and "Suggested deck" in html
    assert 'href="/en/play/?deck=1"' in html
    html = client.get(reverse("play:index"), {"deck": "1,2", "q": "pup"}).content.decode()
    assert "Your deck (2 of 4)" in html
    assert 'name="card" value="1"' in html and 'name="card" value="2"' in html
    # Remove keeps the query and the other card.
    assert 'href="/en/play/?q=pup&amp;deck=2"' in html


def test_index_search_and_junk_deck_parameters(client, collection):
    html = client.get(reverse("play:index"), {"q": "legend"}).content.decode()
    assert "Swift Legend" in html and "Axe Pup" not in html.split("results-title")[1]
    html = client.get(reverse("play:index"), {"deck": "x,1,1,999,-3,2,3,4,5"}).content.decode()
    assert "Your deck (4 of 4)" in html and "Deck full" in html


def test_index_htmx_gets_the_partial_and_history_restore_the_page(client, collection):
    response = client.get(reverse("play:index"), {"q": "axe"}, headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="builder"') and "<html" not in html
    assert "HX-Request" in response["Vary"]
    restore = client.get(
        reverse("play:index"), headers={**HX, "HX-History-Restore-Request": "true"}
    )
    assert "<html" in restore.content.decode()


def test_index_with_an_empty_collection(client, empty_collection):
    html = client.get("/ru/play/").content.decode()
    assert "Играть" in html and "Коллекция пуста." in html


# ---------------------------------------------------------------------------
# Starting


def test_start_creates_a_match_bound_to_the_session_and_the_bot_moves_first(client, collection):
    match = start(client, (1, 10))
    assert match.owner_session_key == client.session.session_key
    assert [c["id"] for c in match.deck_a] == ["1", "10"]
    assert len(match.deck_b) == 2 and all(c["id"].startswith("bot-") for c in match.deck_b)
    # A similar deck: the same rarities.
    assert sorted(c["rarity"] for c in match.deck_b) == sorted(c["rarity"] for c in match.deck_a)
    state = current(match)
    assert state.players[1].committed and not state.players[0].committed
    assert match.status == MatchStatus.ACTIVE


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([], "Pick at least 1 card"),  # the engine's numbers (DECK_MIN, DECK_MAX)
        (["1", "2", "3", "4", "5"], "at most 4 cards"),
        (["1", "1"], "only once"),
        (["999"], "not in the collection"),
        (["1", "abc"], "not in the collection"),
    ],
)
def test_bad_decks_are_refused_with_a_message(client, collection, cards, message):
    response = client.post(reverse("play:index"), {"card": cards}, follow=True)
    assert message in response.content.decode()
    assert not Match.objects.exists()


def test_the_builder_takes_get_and_post_only(client, collection):
    assert client.put(reverse("play:index")).status_code == 405
    assert (
        client.get(reverse("play:act", args=["00000000-0000-0000-0000-000000000000"])).status_code
        == 405
    )


# ---------------------------------------------------------------------------
# Playing


def test_a_round_pick_commit_then_the_bot_prepares_again(client, collection):
    match = start(client, (1, 2))
    assert act(client, match, "pick:1").status_code == 302
    state = current(match)
    assert state.players[0].pick == 1
    response = act(client, match, "commit", follow=True)
    html = response.content.decode()
    state = current(match)
    assert state.round == 2
    assert state.players[1].committed  # the bot prepared round 2 already
    assert "Round 1" in html and "enters the field" in html


def test_illegal_action_changes_nothing_and_says_why(client, collection):
    match = start(client)
    before = Match.objects.get(pk=match.pk).actions
    response = act(client, match, "commit", follow=True)
    assert "Pick a card to deploy before you commit." in response.content.decode()
    assert Match.objects.get(pk=match.pk).actions == before


@pytest.mark.parametrize(
    "move", ["pick:99", "fly", "pick:-1", "boost:switch:x", "boost:nap", "pick:١", "", "commit:1"]
)
def test_tampered_moves_are_refused(client, collection, move):
    match = start(client)
    before = Match.objects.get(pk=match.pk).actions
    response = act(client, match, move, follow=True)
    assert response.status_code == 200
    assert 'class="message message-error"' in response.content.decode()
    assert Match.objects.get(pk=match.pk).actions == before


# Hostile turns (other digits, a sign, a huge number) are stale too.
@pytest.mark.parametrize("turn", ["0", "999", "", "abc", "²", "１", "-1", "1" * 30])
def test_stale_turn_numbers_are_refused(client, collection, turn):
    match = start(client)
    before = Match.objects.get(pk=match.pk).actions
    response = client.post(
        reverse("play:act", args=[match.public_id]), {"turn": turn, "move": "pick:0"}, follow=True
    )
    assert "out of date" in response.content.decode()
    assert Match.objects.get(pk=match.pk).actions == before


def test_a_double_submit_applies_once(client, collection):
    match = start(client)
    turn = current(match).actions
    act(client, match, "pick:0", turn=turn)
    once = Match.objects.get(pk=match.pk).actions
    response = act(client, match, "pick:0", turn=turn, follow=True)
    assert "out of date" in response.content.decode()
    assert Match.objects.get(pk=match.pk).actions == once


def test_htmx_posts_get_the_board_partial_with_the_notice(client, collection):
    match = start(client)
    response = act(client, match, "commit", headers=HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="match"') and "<html" not in html
    assert "Pick a card to deploy before you commit." in html
    assert "HX-Request" in response["Vary"]
    response = act(client, match, "pick:0", headers=HX)
    assert 'aria-pressed="true"' in response.content.decode()


def test_another_session_gets_404_everywhere_while_the_match_runs(client, collection):
    match = start(client)
    other = Client()
    other.get(reverse("play:index"))
    before = Match.objects.get(pk=match.pk).actions
    assert other.get(reverse("play:match", args=[match.public_id])).status_code == 404
    assert act(other, match, "pick:0").status_code == 404
    assert other.get(reverse("play:replay", args=[match.public_id])).status_code == 404
    assert Match.objects.get(pk=match.pk).actions == before
    assert Client().get(reverse("play:match", args=[match.public_id])).status_code == 404


def test_unknown_match_is_404(client, collection):
    start(client)
    missing = "00000000-0000-0000-0000-000000000000"
    assert client.get(f"/en/play/m/{missing}/").status_code == 404
    assert (
        client.post(f"/en/play/m/{missing}/act/", {"turn": "0", "move": "commit"}).status_code
        == 404
    )


def play_to_the_end(client: Client, match: Match, prefer_surrender: bool = False) -> None:
    for _ in range(2000):
        state = current(match)
        if state.over:
            return
        if prefer_surrender:
            act(client, match, "surrender")
            continue
        legal = legal_actions(state, 0)
        picks = [a for a in legal if type(a).__name__ == "Pick"]
        move = f"pick:{picks[0].card}" if picks and state.players[0].pick is None else "commit"
        assert act(client, match, move).status_code == 302
    raise AssertionError("the match did not end")


def test_a_whole_match_ends_with_a_result_and_a_shareable_replay(client, collection):
    match = start(client, (9, 10, 11, 12))
    play_to_the_end(client, match)
    match.refresh_from_db()
    assert match.status in (MatchStatus.WON, MatchStatus.LOST, MatchStatus.DRAW)
    html = client.get(reverse("play:match", args=[match.public_id])).content.decode()
    assert 'class="panel result-panel' in html and "Replay the match" in html
    assert 'class="panel prepare"' not in html
    # Acting after the end is refused.
    response = act(client, match, "commit", follow=True)
    assert "The match is over." in response.content.decode()
    # The replay permalink works for anyone once the match is over, step by step.
    other = Client()
    url = reverse("play:replay", args=[match.public_id])
    opened = other.get(url)  # it opened at the last step, with no step in the address
    assert opened.status_code == 302 and opened["Location"] == f"{url}?step=0"
    first = other.get(opened["Location"]).content.decode()
    assert "at the start" in first and 'aria-current="step">Start<' in first
    last = other.get(url, {"step": "9999"}).content.decode()
    assert "match.end" not in last and "Hero HP: you" in last
    step1 = other.get(url, {"step": "1"}, headers=HX).content.decode()
    assert step1.lstrip().startswith('<div id="replay"') and "enters the field" in step1
    assert other.get(url, {"step": "9999"}).status_code == 200


def test_surrender_is_a_loss(client, collection):
    match = start(client)
    act(client, match, "surrender")
    match.refresh_from_db()
    assert match.status == MatchStatus.LOST and match.end_reason == "surrender"


def test_match_survives_a_restart_of_everything_but_the_database(client, collection):
    match = start(client)
    act(client, match, "pick:0")
    act(client, match, "commit")
    stored = Match.objects.get(pk=match.pk)
    rebuilt = services.load(stored).state
    assert rebuilt.round == 2 and rebuilt.actions == len(stored.actions)


def test_russian_match_page(client, collection):
    match = start(client)
    html = client.get(f"/ru/play/m/{match.public_id}/").content.decode()
    assert 'lang="ru"' in html and "Подготовка" in html and "Раунд 1" in html


def test_query_counts(client, collection, django_assert_num_queries):
    match = start(client)
    url = reverse("play:match", args=[match.public_id])
    # The session key comes from the cookie; the match is the one query.
    with django_assert_num_queries(1):
        client.get(url)
    turn = current(match).actions
    # Inside the test's transaction the atomic block is a savepoint: savepoint, the match
    # locked (SELECT … FOR UPDATE where the database has it), one UPDATE, release.
    with django_assert_num_queries(4):
        client.post(reverse("play:act", args=[match.public_id]), {"turn": turn, "move": "pick:0"})
    # Search results, the suggestion (two), the session's matches, the session's binder.
    with django_assert_num_queries(5):
        client.get(reverse("play:index"))


def test_pages_have_no_inline_styles_or_scripts(client, collection):
    match = start(client)
    pages = [
        client.get(reverse("play:index")).content.decode(),
        client.get(reverse("play:match", args=[match.public_id])).content.decode(),
        client.get(reverse("play:replay", args=[match.public_id]), follow=True).content.decode(),
    ]
    for html in pages:
        assert " style=" not in html
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


# ---------------------------------------------------------------------------
# Hostile input: a 400 or a message in the visitor's language, never a 500

HOSTILE_NUMBERS = ["²", "٣", "１", "①", "1.5", "-1", "1e3", "9" * 30, " ", "x"]


@pytest.mark.parametrize("value", HOSTILE_NUMBERS)
def test_hostile_replay_steps_answer_400_with_the_last_step(client, collection, value):
    match = start(client)
    url = reverse("play:replay", args=[match.public_id])
    response = client.get(url, {"step": value})
    if value == " ":  # a blank step is no step: the start
        assert response.status_code == 200
        return
    assert response.status_code == 400
    html = response.content.decode()
    assert "The step must be a whole number" in html and 'id="replay"' in html
    ru = client.get(url.replace("/en/", "/ru/"), {"step": value})
    assert ru.status_code == 400 and "Шаг — целое число" in ru.content.decode()


@pytest.mark.parametrize("value", HOSTILE_NUMBERS)
def test_hostile_builder_pages_answer_400_with_a_message(client, collection, value):
    response = client.get(reverse("play:index"), {"page": value, "q": "pup"})
    if value == " ":
        assert response.status_code == 200
        return
    assert response.status_code == 400
    assert "The page must be a whole number" in response.content.decode()


@pytest.mark.parametrize("query", ["²", "#²", "#٣", "１", "#" * 5, "x" * 501, "\ud7ff", 'r:"x'])
def test_hostile_search_text_never_breaks_the_builder(client, collection, query):
    response = client.get(reverse("play:index"), {"q": query})
    assert response.status_code in (200, 400)
    if len(query) > 500:
        assert response.status_code == 400
        assert "at most 500 characters" in response.content.decode()


def test_search_by_number_and_result_pages(client, collection):
    html = client.get(reverse("play:index"), {"q": "#7"}).content.decode()
    assert "Epic Hood" in html.split("results-title")[-1]
    html = client.get(reverse("play:index"), {"q": "7"}).content.decode()
    assert "Epic Hood" in html.split("results-title")[-1]
    from cards.query import parse
    from play import selectors

    first, more = selectors.search_cards(parse(""), page=1, per_page=5)
    second, _ = selectors.search_cards(parse(""), page=2, per_page=5)
    assert more and len(first) == 5 and not {c.token for c in first} & {c.token for c in second}
    # The builder pages its results; past the last page it says so, with a way back.
    html = client.get(reverse("play:index"), {"page": "99", "deck": "1"}).content.decode()
    assert "No more cards on this page." in html and 'rel="prev"' in html
    assert "deck=1" in html.split('rel="prev"')[1].split(">")[0]


@pytest.mark.parametrize("cards", [["²"], ["1", "٣"], ["１"], ["-1"], ["1" * 40]])
def test_hostile_card_choices_are_refused_with_a_message(client, collection, cards):
    response = client.post(reverse("play:index"), {"card": cards}, follow=True)
    assert response.status_code == 200
    assert "not in the collection" in response.content.decode()
    assert not Match.objects.exists()


def test_the_last_line_of_the_log_reads_as_a_sentence_in_both_languages(client, collection):
    match = start(client)
    act(client, match, "surrender")
    for lang, needle in (("en", "The bot wins. Surrender."), ("ru", "Победил бот. Сдача.")):
        html = client.get(f"/{lang}/play/m/{match.public_id}/").content.decode()
        last = re.findall(r'<li class="log-line log-end">([^<]*)</li>', html)[-1]
        assert last.startswith(needle) and "surrender" not in last.split(". ", 2)[-1], last


def test_the_surrender_button_carries_its_token_as_a_header(collection):
    """Without JavaScript the surrender form is a GET (the confirmation page), so with htmx
    its POST carries the CSRF token in hx-headers, not as a field in an address; the
    token passes the check."""
    import re

    client = Client(enforce_csrf_checks=True)
    client.get(reverse("play:index"))
    token = client.cookies["csrftoken"].value
    response = client.post(
        reverse("play:index"), {"card": ["1", "2"], "csrfmiddlewaretoken": token}
    )
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    form = re.search(r'<form class="surrender-form"[^>]*>', html).group(0)
    assert 'method="get"' in form
    header = re.search(r"hx-headers='\{\"X-CSRFToken\": \"([^\"]+)\"\}'", form).group(1)
    match = Match.objects.latest("created_at")
    surrendered = client.post(
        reverse("play:surrender", args=[match.public_id]),
        {"turn": str(services.load(match).state.actions)},
        headers={**HX, "X-CSRFToken": header},
    )
    assert surrendered.status_code == 200
    assert services.load(Match.objects.get(pk=match.pk)).state.winner is not None


def test_the_owners_replay_of_a_match_in_progress_stops_at_the_last_finished_round(
    client, collection
):
    """Issue 26, M3: the replay never shows the round in progress (the bot's hidden pick)."""
    match = start(client)
    loaded = services.load(Match.objects.get(pk=match.pk))
    state, record = loaded.state, loaded.record
    bot = state.players[1]
    assert not state.over and bot.pick is not None  # the bot has picked, in secret
    hidden = f"{state.decks[1][bot.pick].name} will enter at Commit"
    for params in ({}, {"step": str(len(record.rounds) - 1)}, {"step": "99"}):
        response = client.get(reverse("play:replay", args=[match.public_id]), params)
        html = response.content.decode()
        assert hidden not in html
        assert "will enter at Commit" not in html
    # Step 0 is there (the start); the round in progress is not a step yet.
    html = client.get(reverse("play:replay", args=[match.public_id])).content.decode()
    assert f"?step={len(record.rounds) - 1}" not in html
