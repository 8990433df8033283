"""Side-by-side diffs: changed words marked, and bounded time whatever the text."""

import time

from wiki.diff import diff_text
from wiki.limits import MAX_LINE_CHARS, MAX_LINES


def cells(rows):
    return [(r.kind, str(r.left), str(r.right)) for r in rows]


def test_changed_words_are_marked_and_the_rest_left_alone():
    rows = diff_text("Pierce skips <b>DEF</b> now.\nsame", "Pierce skips all DEF now.\nsame")
    assert cells(rows)[0] == (
        "change",
        "Pierce skips <del>&lt;b&gt;</del>DEF<del>&lt;/b&gt;</del> now.",
        "Pierce skips <ins>all </ins>DEF now.",
    )


def test_edits_at_both_ends_of_a_line_are_both_marked():
    old = "Tank " + "steady words " * 40 + "end."
    new = "Striker " + "steady words " * 40 + "finish."
    left, right = cells(diff_text(old, new))[0][1:]
    assert left.startswith("<del>Tank</del> steady") and left.endswith("<del>end</del>.")
    assert right.startswith("<ins>Striker</ins> steady") and right.endswith("<ins>finish</ins>.")


def test_repeated_tokens_cannot_make_a_diff_slow():
    """difflib's cost grows with the square of repeated tokens: "a a a …" against
    "a b a b …" on every line took 6.6 s for 25 lines before the word budget."""
    width = MAX_LINE_CHARS // 2
    old = "\n".join(["a " * width] * 24)
    new = "\n".join(["a b " * (width // 2)] * 24)
    start = time.process_time()
    rows = diff_text(old, new)
    assert time.process_time() - start < 3.0
    assert len(rows) == 24 and all(r.kind == "change" for r in rows)
    assert all("<del>" in str(r.left) and "<ins>" in str(r.right) for r in rows)


def test_many_identical_lines_cannot_make_a_diff_slow():
    start = time.process_time()
    rows = diff_text("a\n" * (MAX_LINES * 4), "a\n" * (MAX_LINES * 4 - 1) + "b\n")
    assert time.process_time() - start < 3.0
    assert [r.kind for r in rows if r.kind != "equal"] == ["change"]
