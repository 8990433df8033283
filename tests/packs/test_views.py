"""The booster pages in both languages: pools, the open form and its no-leak rule,
openings and their reveal, the binder, checking the odds, bad input."""

from __future__ import annotations

import re
from uuid import uuid4

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core import versions
from packs import selectors
from packs.models import Opening, Pool

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
TOKEN = re.compile(r"[A-Za-z0-9]{64}")


def url(name: str, lang: str = "en", **kwargs) -> str:
    with translation.override(lang):
        return reverse(f"packs:{name}", kwargs=kwargs)


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
    assert match, "no CSRF token in the open form"
    return match.group(1)


def open_form(client: Client, slug: str = "whole-collection", lang: str = "en") -> str:
    """The pool page's open form, as htmx loads it into the page (the visitor's own)."""
    response = client.get(url("pool-open", lang, slug=slug), headers=HX)
    assert response.status_code == 200 and "<html" not in response.content.decode()
    return response.content.decode()


def open_pack(client: Client, slug: str = "whole-collection", lang: str = "en", token=None):
    if token is None:
        client.get(url("pool-detail", lang, slug=slug))
        token = csrf_of(open_form(client, slug, lang))
    data = {"csrfmiddlewaretoken": token, "client_seed": "my-seed"}
    return client.post(url("pool-open", lang, slug=slug), data)


# ---------------------------------------------------------------------------
# Pools


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pool_list(client, site, lang) -> None:
    response = client.get(url("pool-list", lang))
    assert response.status_code == 200
    html = response.content.decode()
    for pool in Pool.objects.all():
        assert f'href="{url("pool-detail", lang, slug=pool.slug)}"' in html
        assert (pool.name_ru if lang == "ru" else pool.name_en) in html
    assert f'href="{url("binder", lang)}"' in html


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pool_page_shows_cards_odds_chart_and_power(client, site, lang) -> None:
    pool = Pool.objects.get(slug="night-sky")
    html = client.get(url("pool-detail", lang, slug=pool.slug)).content.decode()
    assert pool.name_ru in html if lang == "ru" else pool.name_en in html
    assert 'class="odds-chart"' in html and "<title" in html  # the SVG chart
    assert 'class="card-art"' in html  # card pictures
    first = selectors.pool_cards(pool).first()
    assert f'href="/{lang}/cards/{first.token}/"' in html
    assert html.count('class="pack-card ') == min(24, pool.cards.count())
    assert "1 in " in html or "1 из " in html
    assert 'href="' + url("pool-open", lang, slug=pool.slug) + '"' in html  # the open form
    assert url("pool-check", lang, slug=pool.slug) in html
    assert "/api/packs/night-sky" in html
    assert 'class="power-verdict' in html


def test_the_pool_page_pages_through_its_cards(client, site) -> None:
    pool = Pool.objects.get(slug="whole-collection")
    first = client.get(url("pool-detail", slug=pool.slug)).content.decode()
    second = client.get(url("pool-detail", slug=pool.slug), {"page": 2}).content.decode()
    assert "?page=2" in first
    tokens = lambda html: set(re.findall(r'href="/en/cards/(\d+)/"', html))  # noqa: E731
    assert tokens(first) and tokens(second) and not tokens(first) & tokens(second)
    partial = client.get(url("pool-detail", slug=pool.slug), {"page": 2}, headers=HX)
    assert partial.content.decode().lstrip().startswith('<section id="pool-cards"')


@pytest.mark.parametrize("page", ["0", "²", "abc", "1e3", "99999", "-1"])
def test_a_bad_page_is_404(client, site, page) -> None:
    assert (
        client.get(url("pool-detail", slug="whole-collection"), {"page": page}).status_code == 404
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_unknown_pools_are_404(client, site, lang) -> None:
    for name in ("pool-detail", "pool-check"):
        response = client.get(url(name, lang, slug="no-such-pool"))
        assert response.status_code == 404
    assert client.post(url("pool-open", lang, slug="no-such-pool")).status_code == 404
    assert client.get(f"/{lang}/packs/openings/not-a-uuid/").status_code == 404
    assert client.get(url("opening-detail", lang, public_id=uuid4())).status_code == 404


def test_the_pool_page_costs_a_bounded_number_of_queries(client, site, django_assert_num_queries):
    page = url("pool-detail", slug="whole-collection")
    client.get(page)  # the day's first visit makes its seed and the pool's odds version
    versions.bump("packs")
    # Content versions; the pool; candidates (their count is the page's); power run; powers;
    # the page of cards; the odds version and its history; the fingerprints of the pool's
    # cards now and as measured; today's and yesterday's seeds.
    with django_assert_num_queries(12):
        assert client.get(page).status_code == 200
    with django_assert_num_queries(0):  # cached, and the content versions read a moment ago
        assert client.get(page).status_code == 200


def test_an_empty_pool_says_so_and_stores_nothing(client, site) -> None:
    Pool.objects.create(slug="empty", name_en="Empty pool", name_ru="Пустой пул")
    html = client.get(url("pool-detail", "ru", slug="empty")).content.decode()
    assert "Пустой пул" in html
    assert url("pool-open", slug="empty") not in html  # no open form, no link to one
    response = client.post(url("pool-open", slug="empty"), {"client_seed": "mine"})
    assert response.status_code == 302 and response["Location"] == url("pool-detail", slug="empty")
    assert not Opening.objects.exists()
    follow = client.get(response["Location"]).content.decode()
    assert "no cards yet" in follow
    check = client.get(url("pool-check", slug="empty"), {"n": 10})
    assert check.status_code == 200 and "no cards yet" in check.content.decode()


def test_an_untranslated_pool_says_so(client, site) -> None:
    Pool.objects.create(slug="only-english", name_en="Only English")
    html = client.get(url("pool-detail", "ru", slug="only-english")).content.decode()
    assert '<h1 lang="en">Only English</h1>' in html
    assert 'class="notice"' in html


# ---------------------------------------------------------------------------
# The no-leak rule


def masked(html: str) -> str:
    """The page with its CSRF tokens (the one value that differs per render) blanked."""
    return TOKEN.sub("<csrf>", html)


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_nothing_before_the_post_depends_on_the_result(site, lang) -> None:
    """The pool page and its open form, rendered before two openings with different
    results, are the same bytes but for the CSRF token — for the same visitor and for
    another one, rendered afresh or from the cache."""
    client = Client()
    page = url("pool-detail", lang, slug="whole-collection")
    results, renders = [], []
    for _ in range(6):
        cache.clear()
        response = client.get(page)
        form = open_form(client, lang=lang)
        renders.append((response.content.decode(), sorted(response.headers.items()), masked(form)))
        results.append(tuple(open_pack_picks(client, lang)))
        if len(set(results)) >= 2:
            break
    assert len(set(results)) >= 2, "two openings should differ"
    first_html, first_headers, first_form = renders[0]
    for html, headers, form in renders[1:]:
        assert html == first_html  # no token at all: the form is a fragment of its own
        assert headers == first_headers
        assert form == first_form
    stranger = Client()
    assert stranger.get(page).content.decode() == first_html  # from the cache
    assert masked(open_form(stranger, lang=lang)) == first_form


def open_pack_picks(client: Client, lang: str) -> list[int]:
    response = open_pack(client, lang=lang)
    assert response.status_code == 302
    return Opening.objects.order_by("-id").first().picks


def test_the_open_form_carries_no_seed_or_result(client, site) -> None:
    html = open_form(client)
    form = re.search(r"<form[^>]*data-open-pack.*?</form>", html, re.S).group(0)
    assert re.findall(r'<input[^>]*name="([^"]+)"', form) == ["csrfmiddlewaretoken", "client_seed"]
    # The client seed is the browser's to make (static/js/packs.js): the fragment holds none.
    assert re.search(r'<input[^>]*name="client_seed"[^>]*value=', form) is None
    assert "data-client-seed" in form and "hx-" not in form
    assert "Open a pack of 5 cards" in form


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_pool_page_is_shared_and_its_open_form_is_the_visitors_own(site, lang) -> None:
    """Issue 32: the pool page holds nothing of the visitor (no CSRF token, no cookie), so
    a shared HTTP cache may keep it; the open form comes from its own address, private."""
    client = Client()
    page = url("pool-detail", lang, slug="night-sky")
    for _ in range(2):  # rendered, then from the page cache
        response = client.get(page)
        html = response.content.decode()
        assert response.status_code == 200 and not response.cookies
        assert "csrfmiddlewaretoken" not in html
        control = response["Cache-Control"]
        assert "public" in control and "s-maxage=" in control and "private" not in control
        assert response["ETag"] and response["Last-Modified"]
    again = client.get(page, headers={"If-None-Match": response["ETag"]})
    assert again.status_code == 304
    # Without JavaScript the form's own page is one link away (a plain link, keyboard
    # and all); with it, htmx loads the form from there into the page.
    open_url = url("pool-open", lang, slug="night-sky")
    link = re.search(r'<a class="button" href="([^"]+)" hx-get="([^"]+)" hx-trigger="load"', html)
    assert link and link.groups() == (open_url, open_url)
    fragment = client.get(open_url, headers=HX)
    assert "private" in fragment["Cache-Control"] and "public" not in fragment["Cache-Control"]
    assert "HX-Request" in fragment["Vary"] and "Cookie" in fragment["Vary"]
    assert "<html" not in fragment.content.decode()
    assert csrf_of(fragment.content.decode())
    whole = client.get(open_url)
    assert "<html" in whole.content.decode() and "private" in whole["Cache-Control"]


# ---------------------------------------------------------------------------
# Opening a pack


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_opening_redirects_to_the_permalink_which_reveals_and_verifies(client, site, lang) -> None:
    response = open_pack(client, "night-sky", lang)
    opening = Opening.objects.get()
    assert response.status_code == 302
    assert (
        response["Location"]
        == url("opening-detail", lang, public_id=opening.public_id) + "?shown=0"
    )
    assert opening.session_key == client.session.session_key
    hidden = client.get(response["Location"]).content.decode()
    assert hidden.count('class="card-back"') == len(opening.picks)
    assert "?shown=1" in hidden and 'hx-get="' in hidden
    one = client.get(response["Location"].replace("shown=0", "shown=1")).content.decode()
    assert one.count('class="card-back"') == len(opening.picks) - 1
    partial = client.get(response["Location"].replace("shown=0", "shown=2"), headers=HX)
    assert partial.content.decode().lstrip().startswith('<section id="reveal"')
    whole = client.get(url("opening-detail", lang, public_id=opening.public_id)).content.decode()
    assert 'class="card-back"' not in whole
    for token in opening.picks:
        assert f'/{lang}/cards/{token}/"' in whole
    assert 'class="verified"' in whole and str(opening.seed) in whole


def test_a_tampered_opening_is_not_verified_on_its_page(client, site) -> None:
    open_pack(client)
    opening = Opening.objects.get()
    opening.seed += 1
    opening.save()
    html = client.get(opening.get_absolute_url()).content.decode()
    assert 'class="verified"' not in html and "notice-error" in html


@pytest.mark.parametrize("shown", ["²", "-1", "x", "101"])
def test_a_bad_reveal_step_is_404(client, site, shown) -> None:
    open_pack(client)
    opening = Opening.objects.get()
    assert client.get(opening.get_absolute_url(), {"shown": shown}).status_code == 404
    assert client.get(opening.get_absolute_url(), {"shown": "99"}).status_code == 200  # all


def test_a_double_submitted_open_makes_one_opening(site) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(url("pool-detail", slug="whole-collection"))
    token = csrf_of(open_form(client))
    first = open_pack(client, token=token)
    second = open_pack(client, token=token)
    assert first.status_code == second.status_code == 302
    assert Opening.objects.count() == 1
    opening = Opening.objects.get()
    assert second["Location"] == opening.get_absolute_url()
    notice = client.get(second["Location"]).content.decode()
    assert "already sent" in notice
    # A fresh render is a fresh form: a second pack.
    assert open_pack(client).status_code == 302
    assert Opening.objects.count() == 2


def test_an_open_without_csrf_is_refused(site) -> None:
    client = Client(enforce_csrf_checks=True)
    client.get(url("pool-detail", slug="whole-collection"))
    assert client.post(url("pool-open", slug="whole-collection")).status_code == 403
    assert not Opening.objects.exists()


def test_the_open_page_proposes_a_client_seed_and_opens_nothing(client, site) -> None:
    # Without JavaScript the browser fills no seed: this page has the server propose one.
    first = client.get(url("pool-open", slug="whole-collection")).content.decode()
    second = client.get(url("pool-open", slug="whole-collection")).content.decode()
    proposed = re.findall(r'name="client_seed" id="id_client_seed" value="([0-9a-f]{16})"', first)
    assert proposed and proposed[0] not in second
    assert not Opening.objects.exists()
    assert client.put(url("pool-open", slug="whole-collection")).status_code == 405


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_another_visitors_opening_is_public_read_only_and_not_in_my_binder(site, lang) -> None:
    owner, visitor = Client(), Client()
    open_pack(owner, lang=lang)
    opening = Opening.objects.get()
    html = visitor.get(opening.get_absolute_url()).content.decode()
    assert "verified" in html
    assert 'name="csrfmiddlewaretoken"' not in html  # nothing to post on a permalink
    assert url("binder", lang) in html
    mine = owner.get(opening.get_absolute_url()).content.decode()
    assert mine != html
    binder = visitor.get(url("binder", lang)).content.decode()
    for token in opening.picks:
        assert f'/{lang}/cards/{token}/"' not in binder
    assert Opening.objects.get().session_key == owner.session.session_key


# ---------------------------------------------------------------------------
# The binder


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_binder_counts_duplicates_and_the_chance_of_something_new(client, site, lang) -> None:
    empty = client.get(url("binder", lang)).content.decode()
    assert 'class="empty-state"' in empty
    for _ in range(3):
        open_pack(client, "night-sky", lang)
    counts = selectors.binder_counts(client.session.session_key)
    html = client.get(url("binder", lang)).content.decode()
    for token in counts:
        assert f'/{lang}/cards/{token}/"' in html
    assert str(sum(counts.values())) in html
    for pool in Pool.objects.all():
        assert url("pool-detail", lang, slug=pool.slug) in html
    night = Pool.objects.get(slug="night-sky")
    owned = sum(1 for t in night.cards.values_list("token", flat=True) if t in counts)
    assert f"{owned} / {night.cards.count()}" in html


def test_the_binder_pages_through_many_cards(client, site) -> None:
    for _ in range(12):
        open_pack(client)
    counts = selectors.binder_counts(client.session.session_key)
    assert client.get(url("binder")).status_code == 200
    if len(counts) > 48:
        assert client.get(url("binder"), {"page": 2}).status_code == 200
    assert client.get(url("binder"), {"page": "²"}).status_code == 404


# ---------------------------------------------------------------------------
# Checking the odds


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_check_the_odds(client, site, lang) -> None:
    page = url("pool-check", lang, slug="whole-collection")
    form = client.get(page).content.decode()
    assert 'name="n"' in form and 'hx-indicator="#check-progress"' in form
    assert 'id="check-results"' in form
    response = client.get(page, {"n": 1500, "seed": 7})
    assert response.status_code == 200
    html = response.content.decode()
    assert "p = " in html and "χ² = " in html
    assert "?n=1500&amp;seed=7" in html
    again = client.get(page, {"n": 1500, "seed": 7}).content.decode()
    assert masked(again) == masked(html)  # the same seed, the same packs
    assert not Opening.objects.exists()
    partial = client.get(page, {"n": 50}, headers=HX)
    assert partial.content.decode().lstrip().startswith('<div id="checker"')
    assert re.fullmatch(rf"{re.escape(page)}\?n=50&seed=\d+", partial["HX-Push-Url"])


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"n": "²"}, "Enter a whole number."),
        ({"n": "10000000000"}, "less than or equal to 20000"),
        ({"n": "0"}, "greater than or equal to 1"),
        ({"n": ""}, "This field is required."),
        ({"n": "10", "seed": "-5"}, "greater than or equal to 0"),
        ({"n": "10", "seed": "9" * 30}, "less than or equal to"),
        ({"n": "1e9"}, "Enter a whole number."),
        ({"seed": "3"}, "This field is required."),
    ],
)
def test_check_refuses_bad_values_with_a_form_error(client, site, params, message) -> None:
    response = client.get(url("pool-check", slug="whole-collection"), params)
    assert response.status_code == 400
    assert message in response.content.decode()


@pytest.mark.parametrize("params", [{"n": "١٠"}, {"n": "４"}, {"n": "10", "seed": "٣"}])
def test_check_refuses_digits_of_other_scripts(client, site, params) -> None:
    response = client.get(url("pool-check", slug="whole-collection"), params)
    assert response.status_code == 400  # it simulated ١٠ = 10 packs
    assert "Enter a whole number." in response.content.decode()


def test_check_errors_are_in_russian(client, site) -> None:
    response = client.get(url("pool-check", "ru", slug="whole-collection"), {"n": "²"})
    assert response.status_code == 400
    assert "Введите целое число" in response.content.decode()


def test_check_says_when_there_are_too_few_packs(client, site) -> None:
    html = client.get(url("pool-check", slug="whole-collection"), {"n": 3, "seed": 1}).content
    assert "Too few packs for a reliable test" in html.decode()


def test_a_replayed_form_token_never_hands_over_its_owners_session(site) -> None:
    """A used form token replayed by another client (a new visitor's racing first
    requests, or an attacker who saw it) opens nothing of the owner's: no session cookie
    of the owner's, no binder of the owner's, no admin."""
    from django.contrib.auth.models import User

    owner = Client()
    admin = User.objects.create_superuser("boss", "boss@example.com", "pw")
    owner.force_login(admin)
    token = csrf_of(open_form(owner))
    assert open_pack(owner, token=token).status_code == 302
    mine = Opening.objects.get()
    assert mine.session_key == owner.session.session_key

    attacker = Client()
    response = open_pack(attacker, token=token)
    assert response.status_code == 302
    cookie = response.cookies.get("sessionid")
    assert cookie is None or cookie.value != owner.session.session_key
    assert attacker.session.session_key != owner.session.session_key
    assert response["Location"] != mine.get_absolute_url()  # a pack of its own
    assert attacker.get("/en/admin/").status_code == 302  # sent to the login page
    assert Opening.objects.filter(session_key=owner.session.session_key).count() == 1


def test_a_card_picture_is_a_kept_fragment_dropped_when_the_collection_changes(client, site):
    """A pool page keeps each card's picture as a fragment (the token, the ``cards``
    version, the language), so other pools reuse it; an edited card shows its new picture
    at once, since the edit bumps the ``cards`` version and the key with it."""
    from django.core.cache import caches
    from django.core.cache.utils import make_template_fragment_key

    from cards.models import Card
    from cards.services import collection_changed
    from core import versions

    pool = Pool.objects.get(slug="whole-collection")
    card = selectors.pool_cards(pool).first()
    key = make_template_fragment_key(
        "card_art", [f"{card.token}:{versions.current('cards')}", "en"]
    )
    html = client.get(url("pool-detail", slug=pool.slug)).content.decode()
    assert f"Picture of {card.name}" in html
    assert f"Picture of {card.name}" in caches["fragments"].get(key)  # kept for the next page

    Card.objects.filter(pk=card.pk).update(name="Renamed pup")
    collection_changed()
    html = client.get(url("pool-detail", slug=pool.slug)).content.decode()
    assert "Picture of Renamed pup" in html
    assert f"Picture of {card.name}<" not in html
