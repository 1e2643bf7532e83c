#!/usr/bin/env python3
"""doxygen_md.py FILE — Doxygen's input filter for merilo's Markdown pages.

The guide pages link to their own headings GitHub's way, `[x](#the-slug)`
and `[x](other.md#the-slug)`, with ids GitHub derives from the heading text.
Doxygen 1.9 derives no such ids, and its section labels are global. So the
copy Doxygen reads gives every heading an explicit label, `<page>-<slug>`
(the page's path and GitHub's slug), the first heading the page's name
itself, and rewrites the links to match. Code blocks pass unchanged. The
file on disk is not touched; GitHub still renders it as written.
"""
import os
import re
import sys


def slug(text):
    """GitHub's heading id: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`", "", text.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def page_of(path):
    """The page's label: its path from the repository's root (docs/ left
    off), '/' made '-', without `.md`: "explore", "design-parallel"."""
    rel = os.path.relpath(os.path.abspath(path), ROOT)
    if rel.startswith("docs" + os.sep):
        rel = rel[len("docs") + 1:]
    return os.path.splitext(rel)[0].replace(os.sep, "-")


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main(path):
    page = page_of(path)
    link = re.compile(r"\]\(([\w\-./]*?\.md)?#([\w\-]+)\)")

    def relink(m):
        if m.group(1):
            target = page_of(os.path.join(os.path.dirname(path), m.group(1)))
        else:
            target = page
        return f"](#{target}-{m.group(2)})"

    fenced = False
    first = True
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.lstrip().startswith("```"):
                fenced = not fenced
                out.append(line)
                continue
            if fenced:
                out.append(line)
                continue
            heading = re.match(r"^(#{1,6}) (.*?)\s*$", line)
            if heading and "{#" not in line:
                label = page if first else f"{page}-{slug(heading.group(2))}"
                first = False
                line = f"{heading.group(1)} {heading.group(2)} {{#{label}}}\n"
            out.append(link.sub(relink, line))
    sys.stdout.write("".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
