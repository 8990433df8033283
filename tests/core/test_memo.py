"""core.memo, the one in-process memo: each memo of the site gives a fresh value once the
content it reads changes (a content version bump) and once a translation catalogue
changes, and none grows past its bound."""

import datetime as dt
from decimal import Decimal

import pytest
from django.core.cache import cache
from django.utils import translation

from core import labels, links, memo, versions
from engine.types import Rarity


def _catalogue_changed() -> None:
    memo._catalogue_changed(None, "locale/ru/LC_MESSAGES/django.mo")


# ---------------------------------------------------------------------------
# The kit


@pytest.mark.django_db
def test_a_memo_is_rebuilt_after_a_bump_of_what_it_depends_on():
    built = []

    def build():
        built.append(1)
        return len(built)

    assert memo.memo("test:value", ("cards",), build) == 1
    assert memo.memo("test:value", ("cards",), build) == 1
    versions.bump("wiki")  # not a version it reads
    assert memo.memo("test:value", ("cards",), build) == 1
    versions.bump("cards")
    assert memo.memo("test:value", ("cards",), build) == 2


@pytest.mark.django_db
def test_a_memo_is_rebuilt_after_a_catalogue_change_and_a_cleared_cache():
    built = []
    assert memo.memo("test:words", (), lambda: built.append(1) or len(built)) == 1
    _catalogue_changed()
    assert memo.memo("test:words", (), lambda: built.append(1) or len(built)) == 2
    cache.clear()  # a new generation: the database behind the versions may differ
    assert memo.memo("test:words", (), lambda: built.append(1) or len(built)) == 3
    memo._catalogue_changed(None, "explorer/views.py")  # not a catalogue: nothing to drop
    assert memo.memo("test:words", (), lambda: built.append(1) or len(built)) == 3


@pytest.mark.django_db
def test_memos_are_bounded_in_names():
    for n in range(memo.MEMO_NAMES + 10):
        memo.memo(f"test:many:{n}", (), lambda n=n: n)
    assert len(memo._memos) == memo.MEMO_NAMES
    assert "test:many:0" not in memo._memos  # the least recently used went first
    assert f"test:many:{memo.MEMO_NAMES + 9}" in memo._memos


def test_kept_is_bounded_and_drops_the_oldest_first():
    kept = memo.Kept(3)
    for n in range(10):
        kept.keep(n, str(n))
    assert list(kept) == [7, 8, 9]
    kept.keep(8, "again")  # a key it holds: nothing dropped
    assert list(kept) == [7, 8, 9]
    _catalogue_changed()
    assert kept == {}


@pytest.mark.django_db
def test_a_table_starts_afresh_with_each_version():
    first = memo.table("test:table", ("cards",), 4)
    first.keep("a", 1)
    assert memo.table("test:table", ("cards",), 4) is first
    versions.bump("cards")
    assert memo.table("test:table", ("cards",), 4) == {}


def test_a_pure_memo_is_dropped_on_a_catalogue_change():
    calls = []

    @memo.cached(maxsize=2)
    def double(n):
        calls.append(n)
        return 2 * n

    assert [double(1), double(1), double(2), double(3)] == [2, 2, 4, 6]
    assert double.cache_info().currsize == 2  # bounded
    _catalogue_changed()
    double(3)
    assert calls == [1, 2, 3, 3]


@pytest.mark.django_db
def test_a_shared_value_is_keyed_by_its_versions_and_parts():
    built = []

    def build():
        built.append(1)
        return len(built)

    def get(*parts):
        return memo.shared("test:shared", ("packs",), parts, build, 60)

    assert (get("a"), get("a"), get("b")) == (1, 1, 2)
    versions.bump("packs")
    assert get("a") == 3
    assert memo.shared("test:shared", ("packs",), ("a",), build, 60, valid=lambda v: v > 3) == 4


# ---------------------------------------------------------------------------
# The two that a catalogue change never reached


def test_enum_labels_are_worded_afresh_after_a_catalogue_change():
    with translation.override("en"):
        word = labels.label(Rarity.EPIC)
        labels._NAMES[("en", Rarity, Rarity.EPIC)] = "an old word"
        assert labels.label(Rarity.EPIC) == "an old word"  # kept (what makes it fast)
        _catalogue_changed()
        assert labels.label(Rarity.EPIC) == word


def test_enum_labels_are_bounded():
    assert isinstance(labels._NAMES, memo.Kept) and labels._NAMES.size <= 4096


@pytest.mark.django_db
def test_the_site_header_is_rendered_afresh_after_a_catalogue_change(client):
    from django.core.cache import caches

    client.get("/en/wiki/")
    fragments = caches["fragments"]
    assert fragments._cache  # the header and footer, kept
    _catalogue_changed()
    assert not fragments._cache
    assert 'class="site-nav"' in client.get("/en/wiki/").content.decode()


def test_route_paths_are_bounded():
    assert links._paths.size == links._parts.size == 256
    for n in range(300):
        links._paths.keep(("test", n), "/")
    assert len(links._paths) == 256
    links._paths.clear()


# ---------------------------------------------------------------------------
# Each of the site's memos gives a fresh value after a bump of what it reads


@pytest.fixture
def attribute(db):
    from cards.models import Attribute

    return Attribute.objects.create(slot="head", name="Memo Hat", supply=3)


def _supply(catalogue, name):
    from engine.types import Slot

    return catalogue.get(Slot.HEAD, name).supply


def test_the_attribute_catalogue_after_a_cards_bump(attribute):
    from cards.models import Attribute
    from explorer.selectors import attribute_catalogue

    assert _supply(attribute_catalogue(), "Memo Hat") == 3
    Attribute.objects.filter(pk=attribute.pk).update(supply=5)  # no signal: no bump
    assert _supply(attribute_catalogue(), "Memo Hat") == 3
    versions.bump("cards")
    assert _supply(attribute_catalogue(), "Memo Hat") == 5


def test_the_combos_after_a_cards_bump(attribute):
    from cards.models import Combo
    from explorer.selectors import combos

    combo = Combo.objects.create(name="Memo Pair")
    combo.attributes.add(attribute)
    versions.bump("cards")
    assert "Memo Pair" in {c.name for c in combos()}
    Combo.objects.filter(pk=combo.pk).update(name_en="Memo Twins", name="Memo Twins")
    versions.bump("cards")
    names = {c.name for c in combos()}
    assert "Memo Twins" in names and "Memo Pair" not in names


def test_a_search_count_after_a_cards_bump(db):
    from cards.query import parse
    from cards.search import search_count

    query = parse("r:legendary")

    class Counted:
        def __init__(self, n):
            self.n = n

        def count(self):
            return self.n

        def order_by(self):  # search_count counts over a bounded slice
            return self

        def __getitem__(self, bounds):
            return self

    assert search_count(query, Counted(1)) == 1
    assert search_count(query, Counted(2)) == 1
    versions.bump("cards")
    assert search_count(query, Counted(2)) == 2


def test_the_home_page_and_card_rows_after_a_cards_bump(db):
    from codex_site.presenters import home_page
    from explorer.presenters import rows as row_presenters

    first = home_page()
    assert home_page() is first
    rows = memo.table("explorer:rows:en:/", ("cards",), row_presenters.ROWS_KEPT)
    rows.keep(-1, "a row")
    versions.bump("cards")
    assert home_page() is not first
    assert memo.table("explorer:rows:en:/", ("cards",), row_presenters.ROWS_KEPT) == {}


def test_an_arena_day_after_an_arena_bump(db):
    from arena.models import Slab, SlabValue
    from arena.selectors import slabs_on

    day = dt.date(2026, 1, 5)
    slab = Slab.objects.create(asset_id="memo-1", name="Memo Pup", grade=Decimal("9"), year=2020)
    SlabValue.objects.create(slab=slab, date=day, value=Decimal("10.00"))
    versions.bump("arena")
    assert [d.value for d in slabs_on(day)] == [Decimal("10.00")]
    SlabValue.objects.filter(slab=slab).update(value=Decimal("20.00"))
    assert [d.value for d in slabs_on(day)] == [Decimal("10.00")]  # kept
    versions.bump("arena")
    assert [d.value for d in slabs_on(day)] == [Decimal("20.00")]


def test_the_wiki_directory_vocabulary_and_results_after_a_wiki_bump(db):
    from wiki import search, selectors
    from wiki.models import Page
    from wiki.stemming import stem

    page = Page.objects.create(slug="memo", title_en="Memo", body_en="Quokka", published=True)
    versions.bump("wiki")
    assert "memo" in selectors.page_directory().published
    assert stem("quokka") in search.vocabulary().stems
    assert page.pk in selectors.published_page_ids()
    Page.objects.filter(pk=page.pk).update(published=False, body_en="Wombat")
    assert "memo" in selectors.page_directory().published  # kept
    versions.bump("wiki")
    assert "memo" not in selectors.page_directory().published
    assert page.pk not in selectors.published_page_ids()
    assert stem("quokka") not in search.vocabulary().stems
