"""Template fragments kept with Django's ``{% cache %}`` on the ``fragments`` alias: the
layout's header and footer rendered once per language and section, and still right in
each; dropped with the other memos when a translation catalogue changes."""

import pytest
from django.core.cache import caches
from django.template import Context, Template
from django.test import Client
from django.urls import set_script_prefix
from django.utils import translation

from core import memo


def _render(source: str, **context) -> str:
    return Template("{% load cache %}" + source).render(Context(context))


def test_kept_per_argument_value_and_rendered_once_each():
    source = '{% cache None t lang using="fragments" %}{{ lang }}-{{ other }}{% endcache %}'
    assert _render(source, lang="en", other=1) == "en-1"
    assert _render(source, lang="ru", other=1) == "ru-1"
    # Anything that is not an argument is frozen at its first value (the documented contract).
    assert _render(source, lang="en", other=2) == "en-1"


def test_the_script_prefix_is_part_of_the_key():
    source = '{% cache None t using="fragments" %}{{ n }}{% endcache %}'
    assert _render(source, n=1) == "1"
    set_script_prefix("/mounted/")
    try:
        assert _render(source, n=2) == "2"
    finally:
        set_script_prefix("/")
    assert _render(source, n=3) == "1"


def test_a_catalogue_change_drops_the_fragments():
    source = '{% cache None t using="fragments" %}{{ n }}{% endcache %}'
    assert _render(source, n=1) == "1"
    memo._catalogue_changed(None, "locale/ru/LC_MESSAGES/django.mo")
    assert _render(source, n=2) == "2"


def test_the_fragments_live_in_their_own_alias():
    _render('{% cache None t using="fragments" %}x{% endcache %}')
    assert len(caches["fragments"]._cache) == 1
    assert not [k for k in caches["default"]._cache if "template.cache" in k]


@pytest.mark.django_db
def test_the_header_marks_each_section_and_speaks_each_language():
    client = Client()
    for _ in range(2):  # the second round comes from the kept fragments
        wiki = client.get("/en/wiki/").content.decode()
        cards = client.get("/en/cards/").content.decode()
        russian = client.get("/ru/cards/").content.decode()
        assert '<a href="/en/wiki/" aria-current="page">' in wiki
        assert '<a href="/en/cards/" aria-current="page">' not in wiki
        assert '<a href="/en/cards/" aria-current="page">' in cards
        assert '<a href="/ru/cards/" aria-current="page">' in russian
        with translation.override("ru"):
            assert translation.gettext("Wiki") in russian
        assert 'href="/ru/wiki/"' in russian and 'href="/en/wiki/"' not in russian
    assert caches["fragments"]._cache  # the header and footer were kept


@pytest.mark.django_db
def test_the_layouts_blocks_still_fill():
    html = Client().get("/en/wiki/search/?q=energy").content.decode()
    assert "<title>" in html and "Search: energy" in html  # the page's own title block
    assert 'href="/static/css/wiki' in html  # and its head block
