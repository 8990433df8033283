"""How much one wiki page may hold, so that rendering, diffing and searching it stay cheap.

The admin refuses a body past these bounds with a form error naming the line
(``wiki.validation``); the renderer draws at most ``MAX_MACROS`` tables whatever it is
given, and the diff compares words only within ``WORD_DIFF_BUDGET``. The shipped pages
use a fraction of each: the longest line has 589 characters, the longest body 10,876, the
most lines 154, the most tables 7 and the largest page renders to about 20,000 characters.
"""

from __future__ import annotations

#: Characters on one line (a Markdown paragraph is one line).
MAX_LINE_CHARS = 2_000
#: Lines in one body (the diff compares lines pairwise: its cost grows with their square).
MAX_LINES = 1_000
#: Characters in one body (one language of one page).
MAX_BODY_CHARS = 50_000
#: ``{{ macro }}`` lines in one body: one 22-character line can expand to 4 KB of table.
MAX_MACROS = 20
#: Characters of HTML one body may render to (tables and links included).
MAX_RENDERED_CHARS = 250_000
#: Token pairs the diff may compare to mark changed words inside changed lines; past it,
#: the remaining changed lines are shown whole (difflib's cost grows with the square of
#: repeated tokens, so one long line of "a a a …" could otherwise take seconds).
WORD_DIFF_BUDGET = 100_000
