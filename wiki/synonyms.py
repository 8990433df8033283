"""The wiki search's synonyms: each game term with the words players search for it by.

A group is one game term as the pages write it (docs/glossary.md: the Russian form, the
English term) followed by the everyday words, Russian and English, that mean the same to a
player: «навык» and «навыки» are what a Russian reader types for a «скилл», «легендарная»
for a card Legendary, "mana" for NRG. The forms the glossary forbids on the pages are here
on purpose — a reader may still type them — and a test checks that every single-word form
the glossary forbids, and every term it prescribes, is found by the search.

Words are compared by their Snowball stem (``wiki.stemming.stem``: Russian for Cyrillic,
English for the rest), so one form of a word stands for all of them: «навык» also covers
«навыки» and «навыков». A stem belongs to one group only.

``wiki.search`` applies the table at both ends: the SQLite index stores, beside each word's
stem, the key of its group (``key_of``), and a query word is looked up by its own stem and
by its group's key; on PostgreSQL, which builds its documents from the columns itself, a
query word is expanded into every word of its group (``words_of``).

>>> key_of("навыки") == key_of("скилл") == key_of("skills")
True
>>> key_of("легендарная") == key_of("Legendary")
True
>>> key_of("карта") == key_of("зебра")
False
>>> "навык" in words_of(key_of("skill"))
True
"""

from __future__ import annotations

import hashlib

from core.memo import cached

from .stemming import stem

#: Marks a group key in the SQLite index: a private-use character, which the index's
#: tokenizer keeps inside a word and a typed query can never contain.
KEY_MARK = "\ue000"

# (game term as the Russian pages write it, its English term, then the everyday words).
# Where the Snowball stemmer cuts a word's forms differently («Герой» → гер, «Героя» →
# геро), a second form is listed. Members are single words.
GROUPS: tuple[tuple[str, ...], ...] = (
    # Cards and attributes
    ("карта", "card", "карточка"),
    ("токен", "токенов", "token", "nft"),
    ("коллекция", "collection"),
    ("слот", "slot", "ячейка"),
    ("paw", "лапа", "лапка"),
    ("head", "голова"),
    ("body", "тело"),
    ("background", "фон"),
    ("атрибут", "attribute", "предмет", "item", "вещь", "шмот", "gear"),
    ("надетый", "equipped", "equip", "надеть", "экипированный", "экипировка", "equipment"),
    ("гардероб", "wardrobe", "инвентарь", "inventory"),
    ("тираж", "supply", "копии", "copies"),
    ("тир", "tier"),
    ("God", "бог", "божественный"),
    ("премиальный", "premium", "премиум"),
    ("скин", "skin", "облик"),
    ("стикер", "sticker", "наклейка"),
    ("маркетплейс", "marketplace", "market", "рынок", "биржа"),
    ("комбо", "combo", "комбинация"),
    # Rarity
    ("редкость", "rarity"),
    ("Free", "бесплатный"),
    ("Common", "common"),
    ("Rare", "редкий"),
    ("Epic", "эпический", "эпик"),
    ("Legendary", "легендарный", "легенда", "легендарка", "legend"),
    ("уровень", "level", "ступень"),
    ("ранг", "rank"),
    ("планка", "floor"),
    ("основание", "evidence", "доказательство"),
    # Role and skills
    ("роль", "role", "класс"),
    ("Tank", "танк"),
    ("Striker", "страйкер", "дамагер"),
    ("Support", "саппорт", "поддержка"),
    ("Control", "контроль"),
    ("хеш", "hash", "хэш"),
    ("тайбрейк", "tiebreak", "tiebreaker"),
    ("скилл", "skill", "навык", "скил"),
    ("аффинити", "affinity", "сродство", "склонность"),
    ("Pierce", "Piercing", "пробивание", "пробой"),
    ("Speed", "скорость"),
    ("Steal", "Lifesteal", "вампиризм", "кража"),
    ("Arcane", "магия", "аркана"),
    ("первичный", "primary"),
    ("вторичный", "secondary"),
    # Templates, stats and effects
    ("шаблон", "template"),
    ("характеристики", "stats", "статы", "параметры"),
    ("ATK", "атака", "attack"),
    ("HP", "здоровье", "хп", "health"),
    ("DEF", "щит", "shield", "защита", "defense", "defence"),
    ("NRG", "энергия", "energy", "мана", "mana"),
    ("эффект", "effect"),
    ("Passive", "пассивный", "пассивка"),
    ("burn", "горение", "поджог"),
    ("андерчардж", "undercharge", "undercharged", "недозаряд", "недозарядка"),
    ("нехватка", "deficit", "дефицит", "недостача", "хватает", "хватить"),
    ("стоимость", "cost", "цена"),
    ("урон", "damage", "дамаг", "повреждение"),
    ("лечение", "heal", "healing", "лечить", "хил", "исцеление"),
    # Match
    ("матч", "match", "партия", "дуэль", "duel"),
    ("Герой", "Героя", "hero"),
    ("колода", "deck"),
    ("раунд", "round"),
    ("этап", "beat", "фаза", "phase"),
    ("инициатива", "initiative", "очерёдность"),
    ("буст", "boost"),
    ("Rage", "ярость"),
    ("Charge", "заряд", "зарядка"),
    ("погибнуть", "die", "death", "гибель", "умереть", "смерть"),
    ("потолок", "потолка", "cap", "ceiling", "максимум", "maximum"),
    ("сдача", "surrender", "сдаться", "капитуляция"),
    ("победа", "win", "won", "winner", "victory", "выиграть", "выигрывать", "выигрыш"),
    ("поражение", "lose", "lost", "loss", "defeat", "проиграть", "проигрывать", "проигрыш"),
    ("бот", "bot", "компьютер"),
    ("журнал", "log", "лог"),
    ("повтор", "replay", "реплей"),
    ("зерно", "seed", "сид"),
    # Booster packs
    ("бустер", "booster", "pack", "пак"),
    ("пул", "pool"),
    ("шанс", "odds", "chance", "вероятность", "probability"),
    ("альбом", "альбоме", "binder", "биндер"),
    ("сила", "power", "мощность"),
    # Slab arena
    ("слаб", "slab", "слэб"),
    ("арена", "арене", "arena"),
    ("грейд", "grade", "оценка"),
    ("стихия", "element", "элемент"),
    ("броня", "armor", "armour"),
    ("суперприём", "суперприёма", "ульта"),
    ("нокаут", "knockout", "KO"),
    ("скамейка", "bench", "бенч"),
    ("дивизион", "bracket", "division", "брекет", "брэкет"),
    ("лига", "league"),
    # Words of the site
    ("разбор", "breakdown"),
    ("трассировка", "trace", "трасса"),
    ("обозреватель", "explorer", "эксплорер"),
)


#: Changes whenever the table does: the SQLite index is rebuilt when it no longer matches.
FINGERPRINT = hashlib.sha256(repr(GROUPS).encode()).hexdigest()[:12]


@cached(maxsize=1)
def _tables() -> tuple[dict[str, str], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """(stem → key, key → member stems, key → member words), built once."""
    by_stem: dict[str, str] = {}
    stems: dict[str, tuple[str, ...]] = {}
    words: dict[str, tuple[str, ...]] = {}
    for group in GROUPS:
        key = KEY_MARK + stem(group[0])
        members: list[str] = []
        for word in group:
            member = stem(word)
            other = by_stem.setdefault(member, key)
            if other != key:
                raise ValueError(f"{word!r} ({member}) is in two synonym groups")
            if member not in members:
                members.append(member)
        stems[key] = tuple(members)
        words[key] = group
    return by_stem, stems, words


def key_of(word: str) -> str | None:
    """The key of the group the word belongs to (by its stem), or None."""
    return _tables()[0].get(stem(word))


def key_of_stem(word_stem: str) -> str | None:
    return _tables()[0].get(word_stem)


def keys_starting(prefix_stem: str, prefix: str = "") -> tuple[str, ...]:
    """The keys of the groups with a word whose stem starts with ``prefix_stem``, or that
    starts with ``prefix`` itself (a word still being typed: «навы» reaches the skill
    group)."""
    keys = [key for member, key in _tables()[0].items() if member.startswith(prefix_stem)]
    if prefix:
        keys += [key for word, key in _folded_words() if word.startswith(prefix)]
    return tuple(dict.fromkeys(keys))


@cached(maxsize=1)
def _folded_words() -> tuple[tuple[str, str], ...]:
    """(folded word, its group's key) for every word of the table, in the table's order:
    a query word is compared with all of them (lowercasing them each time cost a search
    a tenth of a millisecond)."""
    return tuple((_fold(word), key) for key, group in _tables()[2].items() for word in group)


def _fold(word: str) -> str:
    return word.lower().replace("ё", "е")


def stems_of(key: str) -> tuple[str, ...]:
    """Every member's stem (for highlighting the words a synonym matched)."""
    return _tables()[1].get(key, ())


def words_of(key: str) -> tuple[str, ...]:
    """Every member word as written in ``GROUPS`` (PostgreSQL stems them itself)."""
    return _tables()[2].get(key, ())


def all_words() -> tuple[str, ...]:
    """Every word of the table (the candidates "did you mean" may offer besides the pages')."""
    return tuple(word for group in GROUPS for word in group)
