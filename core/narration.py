"""Codes into sentences: one registration per code the engine can emit.

The engine speaks in stable codes with parameters — derivation trace steps
(``engine.card.trace.CODES``), next-tier needs (``engine.card.trace.NEEDS``), match events and
refusals, the slab arena's steps and events. Each family has one ``Registry`` here on the
site side; each code is registered once, with

- ``say``: a function ``(params, value) -> str`` giving the sentence in the active language,
- ``section``: the wiki section that explains it (a key of ``core.anchors``), or None,
- ``rule``: the rule the code belongs to (a rarity rule key, say), or None,
- ``kind``: how a page shows it (the CSS kind of a log line: ``"attack"``, ``"error"``…),
  by default the registry's own (``Registry(..., kind="error")``), or None.

Codes, sections, rules and kinds may be given as enum members (an ``enum.StrEnum`` such as
``arena.anchors.Section`` keys the sections of one wiki page; a registry may be made over
an engine enum of codes, ``Registry("steps", PromiseStep)``): the registry keys by their
values, so a code is looked up the same as text or as its member.

A registry knows the codes its engine family can emit, so a test can ask it for the codes
that have no sentence (``missing()``) and for sentences of codes the engine no longer
emits (``unknown()``)::

    TRACE = Registry("trace", engine.card.trace.CODES)

    @TRACE.register("rarity.burned_stickers", section="burned_stickers", rule="burned_stickers")
    def _burned(p, v):
        return ngettext(...) % {...}

    TRACE.say(step.code, step.params, step.value)

>>> demo = Registry("demo", ["a.b", "a.c"])
>>> @demo.register("a.b", section="intro")
... def _ab(p, v):
...     return f"b is {v}"
>>> demo.say("a.b", {}, 3), demo["a.b"].section, demo.missing()
('b is 3', 'intro', ['a.c'])
>>> demo.fixed("a.c", text="c", kind="error")
>>> demo["a.c"].kind, demo["a.b"].kind, demo.missing()
('error', None, [])

A registry made with ``memo=N`` keeps its last N sentences by language, code, parameters
and value: a derivation trace says mostly what other cards' traces said (at 100,000 cards,
≈ 83 % of a card page's steps are worded as some card before it was, with N = 8,192). A
sentence must then depend on nothing else — which a sentence function, words only, does.
(The kept sentences are a ``core.memo.Kept``: dropped when a translation catalogue changes.)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language

from .memo import Kept

__all__ = ["Kept", "Phrase", "Registry", "Say"]

Say = Callable[[Mapping[str, Any], Any], str]


def _key(code: object) -> str:
    """A code as the registry keys it: an enum member by its value."""
    return str(code.value) if isinstance(code, Enum) else str(code)


@dataclass(frozen=True, slots=True)
class Phrase:
    """One code's sentence, the wiki section that explains it, the rule it belongs to and
    how a page shows it."""

    code: str
    say: Say
    section: str | None = None
    rule: str | None = None
    kind: str | None = None


class Registry:
    """The phrases of one family of codes (``name`` is for messages only)."""

    def __init__(
        self,
        name: str,
        codes: Collection[str] | type[Enum],
        *,
        memo: int = 0,
        kind: str | None = None,
    ) -> None:
        self.name = name
        self.codes: frozenset[str] = frozenset(_key(code) for code in codes)
        self.kind = kind
        self._phrases: dict[str, Phrase] = {}
        self._by_rule: dict[str, tuple[str, ...]] = {}
        self._memo = memo
        self._said: Kept[tuple[str | None, str, str, str], str] = Kept(memo)

    def register(
        self,
        *codes: str | Enum,
        section: str | None = None,
        rule: str | None = None,
        kind: str | None = None,
    ) -> Callable[[Say], Say]:
        """Register the decorated function as the sentence of each of ``codes``."""
        shown = kind if kind is not None else self.kind

        def decorator(say: Say) -> Say:
            for code in map(_key, codes):
                if code in self._phrases:
                    raise ValueError(f"{self.name}: {code!r} is registered twice")
                self._phrases[code] = Phrase(code, say, section, rule, shown)
            self._by_rule.clear()
            return say

        return decorator

    def fixed(
        self,
        *codes: str | Enum,
        text: Promise | str,
        section: str | None = None,
        rule: str | None = None,
        kind: str | None = None,
    ) -> None:
        """Register a sentence without parameters (a lazy translation) for each of ``codes``."""
        self.register(*codes, section=section, rule=rule, kind=kind)(lambda p, v: str(text))

    def __getitem__(self, code: str | Enum) -> Phrase:
        try:
            return self._phrases[_key(code)]
        except KeyError:
            raise KeyError(f"{self.name}: no sentence for {code!r}") from None

    def __contains__(self, code: object) -> bool:
        return _key(code) in self._phrases

    def __iter__(self) -> Iterator[Phrase]:
        return iter(self._phrases.values())

    def say(
        self,
        code: str | Enum,
        params: Mapping[str, Any],
        value: Any = None,
        language: str | None = None,
    ) -> str:
        """The sentence of ``code`` with its parameters, in the active language (which a
        caller saying many sentences may pass as ``language``, read once)."""
        phrase = self[code]
        value = getattr(value, "value", value)
        if not self._memo:
            return phrase.say(params, value)
        # repr() tells JSON-ready values apart (1 from "1", a tuple from a list).
        key = (language or get_language(), phrase.code, repr(params), repr(value))
        text = self._said.get(key)
        if text is None:
            text = self._said.keep(key, phrase.say(params, value))
        return text

    def codes_of_rule(self, rule: str) -> tuple[str, ...]:
        """The registered codes that belong to ``rule``, in registration order (worked out
        once per rule: a card page asks for each of its six rules)."""
        found = self._by_rule.get(rule)
        if found is None:
            found = self._by_rule[rule] = tuple(
                p.code for p in self._phrases.values() if p.rule == rule
            )
        return found

    def missing(self) -> list[str]:
        """Codes the engine can emit that have no sentence here (a test keeps this empty)."""
        return sorted(self.codes - self._phrases.keys())

    def unknown(self) -> list[str]:
        """Registered codes the engine does not know (a renamed or removed code)."""
        return sorted(self._phrases.keys() - self.codes)
