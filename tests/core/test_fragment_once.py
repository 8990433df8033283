"""{% fragment_once %}: the layout's header and footer rendered once per language and
section, and still right in each."""

import pytest
from django.template import Context, Template, TemplateSyntaxError
from django.test import Client
from django.utils import translation

from core.templatetags import codex


@pytest.fixture(autouse=True)
def _fresh():
    codex._FRAGMENTS.clear()
    yield
    codex._FRAGMENTS.clear()


def _render(source: str, **context) -> str:
    return Template("{% load codex %}" + source).render(Context(context))


def test_kept_per_argument_value_and_rendered_once_each():
    source = '{% fragment_once "t" lang %}{{ lang }}-{{ other }}{% endfragment_once %}'
    assert _render(source, lang="en", other=1) == "en-1"
    assert _render(source, lang="ru", other=1) == "ru-1"
    # Anything that is not an argument is frozen at its first value (the documented contract).
    assert _render(source, lang="en", other=2) == "en-1"
    assert len(codex._FRAGMENTS) == 2


def test_two_fragments_with_the_same_arguments_are_apart():
    first = _render('{% fragment_once "a" x %}A{% endfragment_once %}', x=1)
    second = _render('{% fragment_once "b" x %}B{% endfragment_once %}', x=1)
    assert (first, second) == ("A", "B")


def test_off_with_debug(settings):
    settings.DEBUG = True
    source = '{% fragment_once "t" %}{{ n }}{% endfragment_once %}'
    assert [_render(source, n=n) for n in (1, 2)] == ["1", "2"]


def test_a_name_is_required():
    with pytest.raises(TemplateSyntaxError):
        _render("{% fragment_once lang %}x{% endfragment_once %}", lang="en")


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


@pytest.mark.django_db
def test_a_block_inside_is_refused_and_the_layouts_blocks_still_fill():
    """The fragment is not searched for blocks (so a child page's {% extends %} walks less
    of the layout): a block inside one would never be filled, so it is an error."""
    with pytest.raises(TemplateSyntaxError, match="block"):
        _render('{% fragment_once "t" %}{% block x %}{% endblock %}{% endfragment_once %}')
    html = Client().get("/en/wiki/search/?q=energy").content.decode()
    assert "<title>" in html and "Search: energy" in html  # the page's own title block
    assert 'href="/static/css/wiki' in html  # and its head block
