"""core.narration.Registry: a registry with a memo says what its function says, in the
visitor's language, and keeps no more than it was told."""

from django.utils import translation
from django.utils.translation import gettext as _

from core.memo import _catalogue_changed
from core.narration import Registry
from explorer import presenters


def _registry(memo: int) -> tuple[Registry, list[tuple]]:
    calls: list[tuple] = []
    registry = Registry("test", ["a.rank", "a.none"], memo=memo)

    @registry.register("a.rank")
    def _rank(p, v):
        calls.append((p["rank"], v))
        return _("GetGems rank #%(rank)s") % {"rank": p["rank"]}

    return registry, calls


def test_a_kept_sentence_is_said_once_per_language():
    registry, calls = _registry(memo=8)
    with translation.override("en"):
        first = registry.say("a.rank", {"rank": 4}, "legendary")
        assert registry.say("a.rank", {"rank": 4}, "legendary") == first
    with translation.override("ru"):
        russian = registry.say("a.rank", {"rank": 4}, "legendary")
        assert registry.say("a.rank", {"rank": 4}, "legendary", language="ru") == russian
    assert first == "GetGems rank #4" and russian != first
    assert calls == [(4, "legendary"), (4, "legendary")]


def test_equal_looking_parameters_are_told_apart():
    registry, calls = _registry(memo=8)
    with translation.override("en"):
        registry.say("a.rank", {"rank": 1})
        registry.say("a.rank", {"rank": "1"})  # a str, not the int
        registry.say("a.rank", {"rank": 1}, "rare")
    assert len(calls) == 3


def test_the_memo_is_bounded_and_forgets_on_a_catalogue_change():
    registry, calls = _registry(memo=3)
    with translation.override("en"):
        for rank in range(10):
            registry.say("a.rank", {"rank": rank})
        assert len(registry._said) == 3
        registry.say("a.rank", {"rank": 9})  # among the newest: kept
        assert len(calls) == 10
        registry.say("a.rank", {"rank": 0})  # the oldest went first
        assert len(calls) == 11
        presenters._WORDED[(0, "en", "a.rank", "{}", "None")] = None
        _catalogue_changed(None, "locale/ru/LC_MESSAGES/django.mo")
        assert registry._said == {}
        assert presenters._WORDED == {}  # the card page's kept steps go too
        _catalogue_changed(None, "explorer/views.py")  # not a catalogue: nothing to drop


def test_without_a_memo_every_sentence_is_said_afresh():
    registry, calls = _registry(memo=0)
    with translation.override("en"):
        registry.say("a.rank", {"rank": 2})
        registry.say("a.rank", {"rank": 2})
    assert len(calls) == 2 and registry._said == {}
