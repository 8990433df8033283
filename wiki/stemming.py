"""Words to Snowball stems, Russian for Cyrillic words and English for the rest: what the
search index (wiki.search) and the synonym groups (wiki.synonyms) compare.

>>> stem("Skills"), stem("навыки"), fold("Ёлка")
('skill', 'навык', 'елка')
>>> [is_function_word(w) for w in ("How", "энергия", "такое", "works")]
[True, False, True, True]
>>> is_question("как работает энергия"), is_question("energy deploy"), is_question("NRG?")
(True, False, True)
"""

from __future__ import annotations

import re
import threading

import snowballstemmer

from core.memo import cached

__all__ = ["CYRILLIC", "fold", "is_function_word", "is_question", "stem"]

CYRILLIC = re.compile(r"[\u0400-\u04ff]")

_local = threading.local()


def _stemmer(name: str):
    # Snowball stemmer objects keep state while stemming: one per thread.
    cache = getattr(_local, "stemmers", None)
    if cache is None:
        cache = _local.stemmers = {}
    if name not in cache:
        cache[name] = snowballstemmer.stemmer(name)
    return cache[name]


def fold(word: str) -> str:
    return word.lower().replace("ё", "е")


@cached(maxsize=100_000)
def stem(word: str) -> str:
    """The Snowball stem of one word: Russian for Cyrillic words, English for the rest."""
    word = fold(word)
    return _stemmer("russian" if CYRILLIC.search(word) else "english").stemWord(word)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


#: The words a question is framed with, in both languages: the question words, pronouns,
#: prepositions, articles and the verbs a player asks "how does X work" with. A search
#: treats them as optional: a page is never required to have them ("how energy works"
#: finds the Energy page, which never says "how" or "works"). Compared folded, whole words
#: (not by stem: «есть» and «ест» are different words).
FUNCTION_WORDS = _words(
    """
    a an the how what whats which who whom whose why when where s
    do does did doing done is are was were be been being am isn aren doesn don t
    can could should would will shall may might must
    i me my mine we our us you your it its they their them he she his her
    this that these those there here of to in on at by for from with about into
    and or but if so then than as any some such without enough
    get gets got getting work works worked working happen happens happened
    mean means meant explain tell give gives much many each every very just also really
    please thing things
    а и или но в во на с со у к ко по за из о об обо от до для при про над под без
    же ли бы ни то это этот эта эти этого этой что чего чем чему
    такое такой такая такие таком такого
    как какой какая какое какие каких каким какую каков какова
    зачем почему отчего где куда откуда когда кто кого кому сколько
    можно нужно надо мне меня мой моя мое мои моей моего моих моим
    я мы вы ты вам нам нас вас он она оно они его ее их
    свой своя свое свои своей своего
    работает работают работать работа устроен устроена устроено устроены
    будет будут станет бывает бывают есть дают дает делает делают
    значит означает происходит случается
    вообще все весь вся очень просто еще уже там тут здесь так если чтобы
    """
)

#: The words that make a text a question (besides a final "?").
QUESTION_WORDS = _words(
    """
    how what whats which who why when where does do is are can
    как что такое зачем почему отчего где когда кто сколько ли
    какой какая какое какие каких
    """
)

_WORD = re.compile(r"\w+", re.UNICODE)


def is_function_word(word: str) -> bool:
    """Whether a search treats ``word`` as optional (it frames a question)."""
    return fold(word) in FUNCTION_WORDS


def is_question(text: str) -> bool:
    """Whether ``text`` reads as a question: it ends with "?" or has a question word."""
    if (text or "").rstrip().endswith("?"):
        return True
    return any(fold(word) in QUESTION_WORDS for word in _WORD.findall(text or ""))
