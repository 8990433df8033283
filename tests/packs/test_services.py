"""packs.services and packs.selectors: opening a pack, its replay, the binder, power."""

from __future__ import annotations

import random

import pytest

from cards.models import Card
from engine.packs import draw_offer, power_report
from packs import selectors, services
from packs.demo import DEMO_POOLS, NIGHT_SKY_WORDS, load_demo_pools
from packs.models import CandidateList, OddsVersion, Opening, Pool, PowerRun

pytestmark = pytest.mark.django_db


def whole() -> Pool:
    return Pool.objects.get(slug="whole-collection")


def test_the_demo_pools(site) -> None:
    assert list(Pool.objects.values_list("slug", flat=True)) == [d.slug for d in DEMO_POOLS]
    catalogue = Card.objects.filter(starter=False)
    assert whole().cards.count() == catalogue.count()
    assert not whole().cards.filter(starter=True).exists()
    for role in ("tank", "striker", "support", "control"):
        pool = Pool.objects.get(slug=f"{role}-cards")
        assert set(pool.cards.values_list("role", flat=True)) <= {role}
        assert pool.name_ru and pool.description_ru
    night = Pool.objects.get(slug="night-sky")
    for card in night.cards.select_related("head", "body", "paw", "background"):
        names = " ".join(getattr(card, s).name for s in ("head", "body", "paw", "background"))
        assert any(word in names for word in NIGHT_SKY_WORDS)
    assert load_demo_pools() == []  # idempotent: pools exist, nothing is added


def test_candidates_are_the_pools_cards_by_token_with_their_rarity_now(site) -> None:
    pool = whole()
    candidates = selectors.candidates(pool)
    tokens = [c.card_id for c in candidates.candidates]
    assert tokens == sorted(tokens)
    rarity = dict(Card.objects.values_list("token", "rarity"))
    assert all(c.rarity.value == rarity[c.card_id] for c in candidates.candidates)


def test_a_card_that_became_free_is_left_out(site) -> None:
    pool = whole()
    card = pool.cards.order_by("token").first()
    Card.objects.filter(pk=card.pk).update(starter=True, rarity="free", rarity_rank=0)
    assert card.token not in [c.card_id for c in selectors.candidates(pool).candidates]


def test_opening_stores_seed_snapshot_and_picks_and_replays(site) -> None:
    pool = Pool.objects.get(slug="night-sky")
    opened = services.open_pack(pool, "session-a", "token-1", "my-seed")
    assert opened.created
    opening = opened.opening
    candidates = selectors.candidates(pool)
    assert opening.candidates == [[c.card_id, c.rarity.value] for c in candidates.candidates]
    assert opening.pack_size == pool.pack_size
    assert 0 <= opening.seed < 2**63
    expected = draw_offer(candidates, pool.pack_size, random.Random(opening.seed))
    assert opening.picks == [c.card_id for c in expected]
    replay = selectors.replay(opening)
    assert replay.verified and list(replay.picks) == opening.picks


def test_a_later_change_to_the_pool_never_changes_an_opening(site) -> None:
    pool = Pool.objects.get(slug="night-sky")
    opening = services.open_pack(pool, "session-a", "token-1", "my-seed").opening
    pool.cards.clear()
    pool.pack_size = 1
    pool.save()
    assert selectors.replay(Opening.objects.get(pk=opening.pk)).verified


@pytest.mark.parametrize(
    "tamper",
    [
        lambda o: setattr(o, "seed", o.seed + 1),
        lambda o: setattr(o, "picks", list(reversed(o.picks))),
        lambda o: setattr(
            o.candidate_list, "candidates", [c for c in o.candidates if c[0] not in o.picks]
        ),
        lambda o: setattr(o.candidate_list, "candidates", [[t, "free"] for t, _ in o.candidates]),
        lambda o: setattr(o.candidate_list, "candidates", "nonsense"),
        lambda o: setattr(o, "picks", {"a": 1}),
    ],
)
def test_an_altered_record_is_not_verified(site, tamper) -> None:
    opening = services.open_pack(whole(), "session-a", "token-1", "my-seed").opening
    tamper(opening)
    opening.save()
    opening.candidate_list.save()
    assert not selectors.replay(Opening.objects.get(pk=opening.pk)).verified


def test_the_same_form_twice_opens_one_pack(site) -> None:
    pool = whole()
    first = services.open_pack(pool, "session-a", "form-token", "my-seed")
    again = services.open_pack(pool, "session-a", "form-token", "my-seed")
    assert first.created and not again.created
    assert again.opening.pk == first.opening.pk
    assert Opening.objects.count() == 1
    other = services.open_pack(pool, "session-a", "another-render", "my-seed")
    assert other.created and Opening.objects.count() == 2
    # The same token from another session is another session's form: it never finds
    # (nor hands over) session A's opening.
    elsewhere = services.open_pack(pool, "session-b", "form-token", "my-seed")
    assert elsewhere.created and elsewhere.opening.session_key == "session-b"
    assert first.opening.request_key != "form-token"  # only a digest is stored


def test_an_empty_pool_stores_nothing(site) -> None:
    pool = Pool.objects.create(slug="empty", name_en="Empty")
    with pytest.raises(services.EmptyPoolError):
        services.open_pack(pool, "session-a", "t", "my-seed")
    assert not Opening.objects.exists()


def test_the_binder_is_the_sessions_own(site) -> None:
    pool = whole()
    a1 = services.open_pack(pool, "session-a", "1", "my-seed").opening
    a2 = services.open_pack(pool, "session-a", "2", "my-seed").opening
    services.open_pack(pool, "session-b", "3", "my-seed")
    counts = selectors.binder_counts("session-a")
    assert sum(counts.values()) == len(a1.picks) + len(a2.picks)
    assert set(counts) == set(a1.picks) | set(a2.picks)
    assert selectors.binder_tokens("session-a") == sorted(counts)
    assert selectors.binder_tokens(None) == [] == selectors.binder_tokens("")
    assert list(selectors.session_openings("session-a")) == [a2, a1]


def test_power_is_stored_for_every_catalogue_card(site) -> None:
    run = PowerRun.objects.get()
    assert run.per_tier == 2
    assert run.matches == sum(run.powers.values_list("games", flat=True))
    assert run.powers.count() == Card.objects.filter(starter=False).count()
    assert selectors.power_is_current(run)
    powers = selectors.pool_powers(run, whole())
    report = power_report(powers.values())
    assert report.measured == len(powers)
    assert {t.rarity.value for t in report.tiers} <= {"common", "rare", "epic", "legendary"}


def test_computing_power_again_replaces_the_run_and_is_reproducible(site) -> None:
    before = dict(PowerRun.objects.get().powers.values_list("card_id", "wins"))
    run = services.compute_power(per_tier=2)
    assert PowerRun.objects.count() == 1
    assert dict(run.powers.values_list("card_id", "wins")) == before


def test_a_changed_collection_marks_power_stale(site) -> None:
    from core import versions

    run = PowerRun.objects.get()
    versions.bump("cards")
    assert not selectors.power_is_current(run)


def test_openings_of_one_list_share_one_stored_list(site) -> None:
    pool = whole()
    first = services.open_pack(pool, "session-a", "token-1", "my-seed").opening
    second = services.open_pack(pool, "session-b", "token-2", "my-seed").opening
    assert CandidateList.objects.count() == 1
    assert first.candidate_list_id == second.candidate_list_id
    assert first.candidates == [
        [c.card_id, c.rarity.value] for c in selectors.candidates(pool).candidates
    ]
    # Another pool, another list; cleanup keeps both while openings use them.
    services.open_pack(Pool.objects.get(slug="night-sky"), "session-a", "token-3", "my-seed")
    assert CandidateList.objects.count() == 2
    assert services.delete_unused_candidate_lists() == 0
    Opening.objects.filter(pk__in=[first.pk, second.pk]).delete()
    # The pool's odds version still names its list (the ledger shows it): it stays.
    assert services.delete_unused_candidate_lists() == 0
    OddsVersion.objects.filter(pool=pool).delete()
    assert services.delete_unused_candidate_lists() == 1
    assert CandidateList.objects.count() == 1
