"""The ledger on the site: the day's seed and commitment, the client seed, the hash chain,
the ledger's JSON and page, an opening's place, dated odds versions, bad input; and the
stale warning, the collection math, the power promise kept by curation."""

from __future__ import annotations

import datetime as dt
import io
import json
import random
from fractions import Fraction

import pytest
from django.urls import reverse
from django.utils import translation

from cards.models import Card
from cards.services import recompute_cards
from core import versions
from engine.cli import main
from engine.ledger import commitment, draw_seed, entry_hash, verify_ledger
from engine.packs import PackPool, draw_offer, power_report
from packs import collection, demo, selectors, services
from packs.models import DaySeed, OddsVersion, Opening, Pool

from .test_views import csrf_of, open_form, url


def api(name: str, **kwargs) -> str:
    return reverse(f"api-packs:{name}", kwargs=kwargs)


def today() -> dt.date:
    return selectors.utc_today()


def open_with(client, seed: str, slug: str = "night-sky", lang: str = "en"):
    token = csrf_of(open_form(client, slug, lang))
    return client.post(
        url("pool-open", lang, slug=slug), {"csrfmiddlewaretoken": token, "client_seed": seed}
    )


def test_the_pool_page_and_api_show_todays_commitment_the_same_for_everyone(client, site) -> None:
    html = client.get(url("pool-detail", slug="night-sky")).content.decode()
    seed = DaySeed.objects.get(day=today())
    assert len(bytes.fromhex(seed.seed)) == 32 and seed.commitment == commitment(
        bytes.fromhex(seed.seed)
    )
    assert seed.commitment in html and seed.seed not in html
    data = client.get(api("pool", slug="night-sky")).json()
    assert data["days"]["today"] == {
        "date": today().isoformat(),
        "commitment": seed.commitment,
        "server_seed": None,
        "ledger_url": f"http://testserver{api('ledger', date=today().isoformat())}",
    }
    assert client.get(api("pool-list")).json()["days"]["today"]["commitment"] == seed.commitment


def test_openings_form_a_hash_chain_from_the_commitment(client, site) -> None:
    assert open_with(client, "первый").status_code == 302
    assert open_with(client, "second", slug="whole-collection").status_code == 302
    first, second = Opening.objects.order_by("nonce")
    day = DaySeed.objects.get(day=today())
    server = bytes.fromhex(day.seed)
    assert (first.nonce, second.nonce) == (1, 2)
    assert first.prev == day.commitment and second.prev == first.hash
    assert first.seed == draw_seed(server, "первый", 1)
    pool = PackPool.of(tuple(pair) for pair in first.odds_version.candidate_list.candidates)
    drawn = draw_offer(pool, first.pack_size, random.Random(first.seed))
    assert [c.card_id for c in drawn] == first.picks
    ledger = client.get(api("ledger", date=today().isoformat())).json()
    assert ledger["server_seed"] is None  # the day has not ended
    assert [e["n"] for e in ledger["entries"]] == [1, 2]
    assert ledger["entries"][0] == {
        "n": 1,
        "pool": "night-sky",
        "odds_version": first.odds_version.key,
        "client_seed": "первый",
        "picks": first.picks,
        "prev": day.commitment,
        "hash": first.hash,
    }
    assert set(ledger["versions"]) == {first.odds_version.key, second.odds_version.key}
    report = verify_ledger(ledger)
    assert report.ok and not report.picks_checked


def test_a_past_days_ledger_reveals_its_seed_and_verifies_with_the_cli(client, site, tmp_path):
    yesterday = services.day_seed(today() - dt.timedelta(days=1))
    for i in range(3):
        services.open_pack(Pool.objects.get(slug="night-sky"), "s", f"t{i}", f"c{i}", day=yesterday)
    response = client.get(api("ledger", date=yesterday.day.isoformat()))
    ledger = response.json()
    assert ledger["server_seed"] == yesterday.seed
    report = verify_ledger(ledger)
    assert report.ok and report.picks_checked and report.entries == 3
    path = tmp_path / "ledger.json"
    path.write_bytes(response.content)
    out = io.StringIO()
    assert main(["packs", "verify", str(path)], out) == 0
    # The database altered behind the ledger's back: the chain tells.
    opening = Opening.objects.get(day=yesterday.day, nonce=2)
    Opening.objects.filter(pk=opening.pk).update(picks=list(reversed(opening.picks)))
    path.write_bytes(client.get(api("ledger", date=yesterday.day.isoformat())).content)
    out = io.StringIO()
    assert main(["packs", "verify", str(path)], out) == 1
    assert "entry 2: hash is not the hash of its contents" in out.getvalue()
    # The pool page shows the day before's seed, revealed.
    assert yesterday.seed in client.get(url("pool-detail", slug="night-sky")).content.decode()


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_bad_ledger_dates_are_clear_errors_never_500(client, site, lang) -> None:
    tomorrow = (today() + dt.timedelta(days=1)).isoformat()
    cases = {
        "2026-13-45": (400, "bad_date"),
        "yesterday": (400, "bad_date"),
        tomorrow: (404, "not_found"),
        "2001-01-01": (404, "not_found"),
    }
    for date, (status, code) in cases.items():
        response = client.get(api("ledger", date=date), HTTP_ACCEPT_LANGUAGE=lang)
        assert response.status_code == status and response.json()["code"] == code
        page = client.get(url("ledger-day", lang, date=date))
        assert page.status_code == status
    words = {
        "en": ("is not a date", "has not come yet", "There is no ledger for"),
        "ru": ("это не дата", "ещё не наступил", "Журнала за"),
    }[lang]
    assert words[0] in client.get(url("ledger-day", lang, date="2026-13-45")).content.decode()
    assert words[1] in client.get(url("ledger-day", lang, date=tomorrow)).content.decode()
    assert words[2] in client.get(url("ledger-day", lang, date="2001-01-01")).content.decode()
    assert (
        words[2]
        in client.get(api("ledger", date="2001-01-01"), HTTP_ACCEPT_LANGUAGE=lang).json()["details"]
    )


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_client_seed_empty_or_too_long_is_refused_in_words(client, site, lang) -> None:
    words = {
        "en": ("Give a client seed", "at most 64 characters (this one has 65)"),
        "ru": ("Укажите клиентское зерно", "не длиннее 64 символов (в этом 65)"),
    }[lang]
    empty = open_with(client, "", lang=lang)
    assert empty.status_code == 400 and words[0] in empty.content.decode()
    long = open_with(client, "я" * 65, lang=lang)
    assert long.status_code == 400 and words[1] in long.content.decode()
    assert 'value="' + "я" * 65 + '"' in long.content.decode()  # kept, to be shortened
    assert not Opening.objects.exists()
    assert open_with(client, "я" * 64, lang=lang).status_code == 302


def test_an_openings_page_shows_its_place_in_the_ledger(client, site) -> None:
    open_with(client, "mine")
    opening = Opening.objects.get()
    html = client.get(opening.get_absolute_url()).content.decode()
    assert f"1 of the ledger of {today().isoformat()}" in html
    assert opening.hash in html and "mine" in html
    ledger_html = client.get(url("ledger-day", date=today().isoformat())).content.decode()
    assert 'id="n1"' in ledger_html and opening.get_absolute_url() in ledger_html
    data = client.get(api("opening", public_id=opening.public_id)).json()
    assert data["ledger"]["entry"]["hash"] == opening.hash == entry_hash(data["ledger"]["entry"])
    assert data["ledger"]["server_seed"] is None
    assert client.get(url("ledger")).status_code == 200  # today's


def test_a_revealed_opening_says_its_draw_was_fair(client, site) -> None:
    yesterday = services.day_seed(today() - dt.timedelta(days=1))
    opened = services.open_pack(Pool.objects.get(slug="night-sky"), "s", "t", "c", day=yesterday)
    html = client.get(opened.opening.get_absolute_url()).content.decode()
    assert "Fair draw." in html and yesterday.seed in html
    Opening.objects.filter(pk=opened.opening.pk).update(seed=opened.opening.seed ^ 1)
    assert "Not fair." in client.get(opened.opening.get_absolute_url()).content.decode()


def test_a_change_to_the_pool_makes_a_dated_odds_version(client, site) -> None:
    pool = Pool.objects.get(slug="night-sky")
    open_with(client, "a")
    first = Opening.objects.get().odds_version
    assert first.number == 1 and first.changes["first"]
    added = Card.objects.collectible().exclude(pools=pool)[:3]
    pool.cards.add(*added)
    html = client.get(url("pool-detail", slug="night-sky")).content.decode()
    assert "3 cards added" in html and "first odds" in html
    open_with(client, "b")
    second = Opening.objects.get(nonce=2).odds_version
    assert second.number == 2 and second.changes["added"] == 3 and second.key == "night-sky:2"
    pool.pack_size = 6
    pool.save()
    third = services.odds_version(pool)
    assert third.changes["pack_size"] == [5, 6]
    assert services.odds_version(pool) == third  # nothing changed since: no new version
    ledger = client.get(api("ledger", date=today().isoformat())).json()
    assert set(ledger["versions"]) == {first.key, second.key}
    assert verify_ledger(ledger).ok


def test_the_stale_warning_appears_only_when_a_pools_card_changed(client, site) -> None:
    stale = "The collection has changed since"
    recompute_cards()  # what a fresh install's recompute does: bumps, changes nothing
    assert stale not in client.get(url("pool-detail", slug="night-sky")).content.decode()
    card = Pool.objects.get(slug="night-sky").cards.first()
    Card.objects.filter(pk=card.pk).update(atk=card.atk + 1)  # what a real change leaves
    versions.bump("cards")
    assert stale in client.get(url("pool-detail", slug="night-sky")).content.decode()


def test_collection_math_is_exact() -> None:
    # One card of m per pack, uniformly: the coupon collector, m · H(m).
    for m in (1, 2, 5, 12):
        harmonic = sum(Fraction(1, i) for i in range(1, m + 1))
        assert collection.packs_for_tier({1: Fraction(1)}, m) == m * harmonic
    # Two different cards of 3 in every pack: E = 1 + (1 - 1/3)^-1 · (1/3)... checked by
    # the Markov chain by hand: from 2 owned, a pack misses the last with 1/3.
    assert collection.packs_for_tier({2: Fraction(1)}, 3) == Fraction(5, 2)
    assert collection.chance_within(Fraction(1, 10), 2) == Fraction(19, 100)
    pool = PackPool.of([(1, "common"), (2, "common"), (3, "rare")])
    rows = collection.tier_collections(pool, 1)
    assert [(r.rarity.value, r.per_card) for r in rows] == [
        ("common", Fraction(1, 3)),
        ("rare", Fraction(1, 3)),
    ]
    assert rows[1].packs_for_all == 3


def test_the_pool_page_shows_exact_and_simulated_collection_figures(client, site) -> None:
    html = client.get(url("pool-detail", slug="night-sky")).content.decode()
    assert "A given card within 100 packs" in html and "Simulated, not exact" in html
    ru = client.get(url("pool-detail", "ru", slug="night-sky")).content.decode()
    assert "Смоделировано, не точно" in ru


def test_the_featured_demo_pool_keeps_its_promise(site) -> None:
    taken = demo.curate_featured()
    pool = Pool.objects.get(slug=demo.FEATURED_POOL)
    powers = selectors.pool_powers(selectors.latest_power_run(), pool)
    if taken is None:  # the small test collection may hold no such pool
        pytest.skip("no removal keeps this collection's featured pool")
    assert power_report(powers.values()).kept


def test_the_demo_holds_earlier_days_with_seeds_revealed(site) -> None:
    made = demo.load_demo_openings(days=2, per_day=3)
    assert made == 6
    for back in (1, 2):
        seed = DaySeed.objects.get(day=today() - dt.timedelta(days=back))
        report = verify_ledger(selectors.ledger(seed))
        assert report.ok and report.picks_checked and report.entries == 3
    assert demo.load_demo_openings() == 0  # once


def test_the_verifier_page_loads_only_this_sites_api(client, site) -> None:
    page = url("verify")
    good = "/api/packs/ledger/2026-12-06"
    assert f'data-source="{good}"' in client.get(page, {"ledger": good}).content.decode()
    for bad in ("https://evil.example/x", "/api/packs/../admin", "javascript:alert(1)"):
        assert 'data-source=""' in client.get(page, {"ledger": bad}).content.decode()
    assert "js/packs_verify.js" in client.get(page).content.decode()


def test_the_admin_shows_the_promise_and_the_removals_that_keep_it(client, site) -> None:
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_superuser("ed", "ed@example.org", "pw"))
    pool = Pool.objects.get(slug="night-sky")
    cards = [str(pk) for pk in pool.cards.values_list("pk", flat=True)]
    with translation.override("en"):
        preview = reverse("admin:packs_pool_odds_preview")
    html = client.post(preview, {"cards": cards, "pack_size": "5"}).content.decode()
    assert "The power promise of these cards" in html
    powers = selectors.pool_powers(selectors.latest_power_run(), pool)
    if not power_report(powers.values()).kept:
        assert "To keep it, remove" in html or "No removal keeps it" in html


def test_odds_versions_are_listed_in_the_admin_read_only(site) -> None:
    services.odds_version(Pool.objects.get(slug="night-sky"))
    assert OddsVersion.objects.filter(key="night-sky:1").exists()


def test_the_ledger_json_is_canonical_utf8(client, site) -> None:
    open_with(client, "ключ")
    body = client.get(api("ledger", date=today().isoformat())).content
    assert json.loads(body)["entries"][0]["client_seed"] == "ключ"


def test_a_new_day_renews_the_cached_pool_page(client, site, monkeypatch) -> None:
    page = url("pool-detail", slug="night-sky")
    first = client.get(page).content.decode()
    today_seed = DaySeed.objects.get(day=today())
    assert today_seed.commitment in first and today_seed.seed not in first
    tomorrow = today() + dt.timedelta(days=1)
    monkeypatch.setattr(selectors, "utc_today", lambda: tomorrow)
    second = client.get(page).content.decode()
    new_seed = DaySeed.objects.get(day=tomorrow)
    assert new_seed.commitment in second and new_seed.seed not in second
    assert today_seed.seed in second  # the day before's seed, revealed
