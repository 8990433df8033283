"""The Jinja2 environment compiles each template once per language, its literal
``_("…")`` already translated; everything else is translated when it renders."""

import pytest
from django.utils import translation
from jinja2 import DictLoader

from config.jinja2 import environment

SOURCE = (
    '{{ _("Recompute") }}|{{ _("supply %(supply)s")|format(supply=n) }}|{{ _(word) }}'
    '|{{ box._("Recompute") }}|{{ _("a & b") }}'
)


class Box:
    def _(self, text):
        return f"box:{text}"


@pytest.fixture
def env():
    return environment(loader=DictLoader({"t.html": SOURCE}), autoescape=True)


def render(env, language):
    with translation.override(language):
        return env.get_template("t.html").render(n=7, word="Recompute", box=Box()).split("|")


def test_literals_are_translated_in_each_language(env):
    assert render(env, "en")[:2] == ["Recompute", "supply 7"]
    ru = render(env, "ru")
    assert ru[0] == "Пересчитать"
    assert ru[1] == "тираж 7"
    assert render(env, "en")[0] == "Recompute"  # the English copy is still English


def test_a_variable_is_translated_when_rendered_and_a_method_is_left_alone(env):
    ru = render(env, "ru")
    assert ru[2] == "Пересчитать"
    assert ru[3] == "box:Recompute"


def test_a_folded_literal_is_still_escaped(env):
    assert render(env, "en")[4] == "a &amp; b"


def test_each_language_has_its_own_compiled_copy(env):
    with translation.override("ru"):
        ru = env.get_template("t.html")
    with translation.override("en"):
        en = env.get_template("t.html")
    assert ru is not en
    assert ru.environment.language == "ru" and en.environment.language == "en"
    with translation.override("ru"):
        assert env.get_template("t.html") is ru  # compiled once, then cached
    code = env.in_language("ru").compile(SOURCE, raw=True)
    assert "Пересчитать" in code  # the translation is in the compiled code itself


def test_a_changed_catalogue_drops_the_compiled_copies(env, tmp_path):
    """The development server reloads a changed .mo without restarting; the templates
    compiled with the old translations must go with it. (The receiver is called directly:
    sending the signal would also reset Django's catalogues for the rest of the run.)"""
    from django.utils.autoreload import file_changed

    from config.jinja2 import _catalogue_changed

    assert file_changed.disconnect(_catalogue_changed)  # it is connected...
    file_changed.connect(_catalogue_changed)  # ...and stays so
    with translation.override("ru"):
        before = env.get_template("t.html")
    _catalogue_changed(None, file_path=tmp_path / "views.py")  # not a catalogue
    with translation.override("ru"):
        assert env.get_template("t.html") is before
    _catalogue_changed(None, file_path=tmp_path / "django.mo")
    with translation.override("ru"):
        after = env.get_template("t.html")
    assert after is not before
    assert after.render(n=1, word="x", box=Box()).startswith("Пересчитать")
