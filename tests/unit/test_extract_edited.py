"""``extract_edited``: parsing only the edited lines gives what extracting the whole edited
text gives, or None (never different links). Random edits of link spans and of anything else
on random documents mixing code spans, fences, comments, math, lists, indented code,
reference definitions and frontmatter."""

from __future__ import annotations

import random

from gno_core.links.extract import extract_edited, extract_links

FRONT = ("---\nup: '[[a]]'\n---", {"up": "[[a]]"}, 4)
LINES = (
    "see [[hub]] and [[hub|the hub]] here",
    "a [md](../hub/hub.md#x) link and ![img](p.png)",
    "`[[hub]]` in code and [[hub#Intro]] out of it",
    "<!-- [[hub]] comment",
    "still comment --> and [[hub]]",
    "math $[[hub]]$ and [[hub]]",
    "$$",
    "```",
    "~~~",
    "    [[hub]] indented",
    "- list [[hub]]",
    "  [[hub]] under the list",
    "[ref][h] and [h] and [other][]",
    "[h]: ../hub/hub.md",
    "[other]: <other.md>",
    "[h]: ../hub/hub.md 'Hub'",
    " [H]: elsewhere.md",
    "<https://example.org> [[gno:hub]] [[other:hub]]",
    "",
    "plain words",
)
REPLACEMENTS = ("hub2", "x", "`", "$", "<!--", "-->", "]]", "[[", "|", "~~~", "```", " ", "\n", "")


def _document(rng: random.Random) -> tuple[str, dict[str, object] | None, int]:
    body = [rng.choice(LINES) for _ in range(rng.randint(1, 12))]
    if rng.random() < 0.3:
        text, front, start = FRONT
        return text + "\n" + "\n".join(body) + "\n", front, start
    return "\n".join(body) + "\n", None, 1


def test_edited_lines_only_give_the_whole_texts_links_or_nothing() -> None:
    rng = random.Random(13)
    taken = 0
    for _ in range(3000):
        old, front, start = _document(rng)
        links = extract_links(old, "notes/a.md", front, start)
        lines = old.split("\n")
        body = [link for link in links if link.start_line >= start]
        if body and rng.random() < 0.7:
            link = rng.choice(body)  # an edit inside a link's span, as a refactor makes
            number = link.start_line
            line = lines[number - 1]
            a = rng.randint(link.start_col - 1, link.end_col)
            b = rng.randint(a, link.end_col)
        else:
            number = rng.randint(1, len(lines))
            line = lines[number - 1]
            a = rng.randint(0, len(line))
            b = rng.randint(a, len(line))
        lines[number - 1] = line[:a] + rng.choice(REPLACEMENTS) + line[b:]
        new = "\n".join(lines)
        edited = {number}
        got = extract_edited(links, old, new, edited, "notes/a.md", start)
        if got is not None:
            taken += 1
            assert got == extract_links(new, "notes/a.md", front, start), (old, new)
    assert taken > 1000  # the shortcut is taken for most edits


def test_what_cannot_be_shown_equal_is_refused() -> None:
    old = "# A\n\nsee [[hub]]\n\n[r]: hub.md\n"
    links = extract_links(old, "a.md")
    same = old.replace("[[hub]]", "[[hub2]]")
    assert extract_edited(links, old, same, {3}, "a.md", 1) == extract_links(same, "a.md")
    # A line outside the edited ones differs; the definitions change; the edit opens a code span
    # over the rest of the line; an edit before the body; a new line.
    assert extract_edited(links, old, same.replace("# A", "# B"), {3}, "a.md", 1) is None
    moved = old.replace("[r]: hub.md", "[r]: hub2.md")
    assert extract_edited(links, old, moved, {5}, "a.md", 1) is None
    tick = old.replace("see [[hub]]", "see `[[hub]]")
    assert extract_edited(links, old, tick, {3}, "a.md", 1) == extract_links(tick, "a.md")
    assert extract_edited(links, old, same, {3}, "a.md", 4) is None
    assert extract_edited(links, old, old.replace("[[hub]]", "[[h\nub]]"), {3}, "a.md", 1) is None
    assert extract_edited(links, old, same, set(), "a.md", 1) is None
