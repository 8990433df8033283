"""core.narration.Registry: a registry with a memo says what its function says, in the
visitor's language, and keeps no more than it was told."""

import ast
import re
from pathlib import Path

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext as _

from core.memo import _catalogue_changed
from core.narration import Registry
from explorer.presenters import breakdown


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
        breakdown._WORDED[(0, "en", "a.rank", "{}", "None")] = None
        _catalogue_changed(None, "locale/ru/LC_MESSAGES/django.mo")
        assert registry._said == {}
        assert breakdown._WORDED == {}  # the card page's kept steps go too
        _catalogue_changed(None, "explorer/views.py")  # not a catalogue: nothing to drop


def test_without_a_memo_every_sentence_is_said_afresh():
    registry, calls = _registry(memo=0)
    with translation.override("en"):
        registry.say("a.rank", {"rank": 2})
        registry.say("a.rank", {"rank": 2})
    assert len(calls) == 2 and registry._said == {}


# ---------------------------------------------------------------------------
# Every code the engine's source can emit has a sentence, in English and in Russian.
#
# The engine is read as text (``ast``), every file under engine/ however deep, so the scan
# holds while its modules move into subpackages. A code is a string literal passed where
# the engine emits one: the first argument of an ``Event`` or of an error class, a dotted
# literal (``"rarity.combo"``, ``"slab.ko"``) passed to any call (trace steps and events),
# a refusal returned by a ``_violation`` function, the need (third argument) of a
# ``Requirement`` or of a helper whose third parameter is ``need``.

ENGINE = Path(__file__).resolve().parents[2] / "engine"
DOTTED = re.compile(r"[a-z_]+(\.[a-z_]+)+")
#: Exceptions the engine raises that carry no code a page words: Python's own, a
#: programming error (``AssertionError``) and the command line's usage errors.
NOT_CODES = {"ValueError", "TypeError", "KeyError", "AssertionError", "UsageError"}


def _registries() -> dict[str, list[Registry]]:
    from arena import narration as arena
    from explorer import narration as explorer
    from play import narration as play

    events = [arena.EVENTS, play.EVENTS]
    return {
        "event": events,
        "dotted": [explorer.TRACE, arena.STAT_BOOK, *events],
        "refusal": [arena.REFUSALS, play.REFUSALS],
        "IllegalActionError": [play.REFUSALS],
        "IllegalArenaActionError": [arena.REFUSALS],
        "InvalidMoveError": [arena.REFUSALS],  # a refused attack of the arena
        "InvalidTeamError": [arena.TEAM_RULES],
        "InvalidDeckError": [play.DECK_ERRORS],
        "need": [explorer.NEEDS_SAID],
    }


#: Errors whose codes reach no page yet, and why: a new error class must be added to
#: ``_registries`` or here, or the scan fails.
NOT_WORDED = {
    "InvalidSlabError": "a slab's own facts: staff input, checked before the engine sees it",
    "InvalidCardError": "a card's own facts: the collection's import, staff input",
    "InvalidOfferError": "the packs' offers: worded by the packs app (issue 28's packs half)",
}


def _literal(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _callee(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def engine_codes(root: Path = ENGINE) -> dict[str, set[tuple[str, str]]]:
    """Emitter family → the (code, where) pairs the engine's source (every file below
    ``root``) passes to it."""
    found: dict[str, set[tuple[str, str]]] = {}

    def add(family: str, code: str | None, path: Path, node: ast.AST) -> None:
        if code:
            where = f"{path.relative_to(root.parent)}:{node.lineno}"
            found.setdefault(family, set()).add((code, where))

    trees = {
        path: ast.parse(path.read_text(encoding="utf-8"), str(path))
        for path in sorted(root.rglob("*.py"))
    }
    builders = {"Requirement"} | {
        node.name
        for tree in trees.values()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        and len(node.args.args) > 2
        and node.args.args[2].arg == "need"
    }
    for path, tree in trees.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                name = _callee(node)
                first = _literal(node.args[0]) if node.args else None
                if name == "Event":
                    add("event", first, path, node)
                elif name.endswith("Error") and name not in NOT_CODES:
                    add(name, first, path, node)
                elif name in builders and len(node.args) > 2:
                    add("need", _literal(node.args[2]), path, node)
                for arg in node.args:
                    text = _literal(arg)
                    if text and DOTTED.fullmatch(text):
                        add("dotted", text, path, node)
            elif isinstance(node, ast.FunctionDef) and node.name == "_violation":
                for ret in ast.walk(node):
                    if isinstance(ret, ast.Return) and isinstance(ret.value, ast.Tuple):
                        add("refusal", _literal(ret.value.elts[0]), path, ret)
    return found


def test_the_scan_finds_each_family_of_codes():
    """A scan that finds nothing proves nothing: each family is there, with known codes."""
    found = {family: {code for code, _w in pairs} for family, pairs in engine_codes().items()}
    assert {"match.start", "attack", "slab.ko", "deploy"} <= found["event"]
    assert {"rarity.combo", "slab.hp", "stats.base"} <= found["dotted"]
    assert {"not_your_turn", "swap_used", "already_committed"} <= found["refusal"]
    assert {"size", "too_many_limited", "bracket"} <= found["InvalidTeamError"]
    assert {"too_many", "duplicate"} <= found["InvalidDeckError"]
    assert {"burned"} <= found["need"]


def test_the_scan_finds_the_same_codes_when_the_engine_moves_into_subpackages(tmp_path):
    """The engine is being split by game (engine/card/, engine/match/, engine/arena/…):
    a module moved two folders down still has its codes found."""
    moved = tmp_path / "engine"
    for path in ENGINE.rglob("*.py"):
        target = moved / path.stem / "deeper" / path.relative_to(ENGINE)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")

    def codes(found):
        return {family: {code for code, _w in pairs} for family, pairs in found.items()}

    assert codes(engine_codes(moved)) == codes(engine_codes())


def _russian_texts(say) -> list[tuple[str, str]]:
    """(English, Russian) of each message a sentence function says itself: the literals
    it passes to gettext (in its code object, the code it nests and the functions it closes
    over) and the lazy texts it closes over (``Registry.fixed``)."""
    catalogue = translation.trans_real.translation("ru")._catalog
    pairs = []
    functions, codes = [say], []
    while functions or codes:
        if functions:
            function = functions.pop()
            codes.append(function.__code__)
            for cell in function.__closure__ or ():
                value = cell.cell_contents
                if callable(value) and hasattr(value, "__code__"):
                    functions.append(value)
                elif isinstance(value, Promise):
                    with translation.override("en"):
                        english = str(value)
                    with translation.override("ru"):
                        pairs.append((english, str(value)))
            continue
        code = codes.pop()
        for const in code.co_consts:
            if isinstance(const, type(code)):
                codes.append(const)
            elif isinstance(const, str):
                russian = catalogue.get(const) or catalogue.get((const, 0))
                if russian:
                    pairs.append((const, russian))
    return pairs


def test_every_code_the_engine_emits_has_a_sentence_in_both_languages():
    registries = _registries()
    found = engine_codes()
    unplaced = set(found) - set(registries) - set(NOT_WORDED)
    assert not unplaced, f"engine errors with codes no registry words: {sorted(unplaced)}"
    problems = []
    for family, pairs in sorted(found.items()):
        if family in NOT_WORDED:
            continue
        for code, where in sorted(pairs):
            phrases = [r[code] for r in registries[family] if code in r]
            if not phrases:
                problems.append(f"{where}: {code!r} ({family}) has no sentence")
                continue
            texts = [pair for phrase in phrases for pair in _russian_texts(phrase.say)]
            if not any(ru and ru != en for en, ru in texts):
                problems.append(f"{where}: {code!r} ({family}) has no Russian sentence")
    assert not problems, "\n".join(problems)


def test_the_russian_check_tells_a_translated_sentence_from_an_untranslated_one():
    def translated(p, v):
        return _("That is not a change to a team.")

    def untranslated(p, v):
        return _("A sentence no catalogue has %(n)s") % p

    assert [ru for _en, ru in _russian_texts(translated)] == ["Такого изменения команды нет."]
    assert _russian_texts(untranslated) == []
