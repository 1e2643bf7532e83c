#!/usr/bin/env python3
"""rules_check.py FILE... -- the one machine rule neither the compiler nor
clang-tidy can see: every number a machine keeps is 64-bit (docs/rules.md,
"bounded 64-bit numbers").

A machine is a class or struct with a `fire` member. A data member (name
ending in `_`) that the machine changes by arithmetic (`++`, `--`, `+=`,
`-=`, `*=`, or `m_ = m_ + ...`) is a number, and must not have an integer
type narrower than 64 bits or one whose width depends on the target
(`int`, `unsigned`, `long`, `std::size_t`, `std::uint32_t`, ...): such a
number wraps at 2^8, 2^31 or 2^32, or at a different point on a 32-bit
target. Narrow members that are only assigned or combined bit by bit (an
index, a bit set) are not numbers in this sense; enums, `fsm::Counter`,
`std::uint64_t`, `std::int64_t` and arrays are fine.

Prints `file:line: machine Name: member m_ is T; ...` for each finding and
exits 1 when there is one, 0 otherwise.
"""
import re
import sys

NARROW = re.compile(
    r"^\s*(?:const\s+)?(?P<type>(?:std::)?(?:u?int(?:8|16|32)_t|size_t|ptrdiff_t)|"
    r"(?:unsigned|signed)(?:\s+(?:int|short|long|char))?|int|short|long(?:\s+long)?|char)"
    r"\s+(?P<name>\w+_)\s*(?:=[^=].*|\{.*\})?;")
CLASS = re.compile(r"^\s*(?:template\s*<.*>\s*)?(?:class|struct)\s+(?P<name>\w+)\b[^;]*$")


def machines(lines):
    """Yields (name, first line, last line) of each class that has `fire`."""
    i = 0
    while i < len(lines):
        m = CLASS.match(lines[i])
        if not m:
            i += 1
            continue
        depth, j, opened = 0, i, False
        while j < len(lines):
            depth += lines[j].count("{") - lines[j].count("}")
            opened = opened or "{" in lines[j]
            if opened and depth <= 0:
                break
            j += 1
        body = lines[i:j + 1]
        if any(re.search(r"\bfire\s*\(", l) for l in body):
            yield m.group("name"), i, j
        i += 1


def changed_by_arithmetic(member, body):
    """Whether `member` is incremented, decremented or added to in `body`."""
    n = re.escape(member)
    pattern = (rf"(?:\+\+|--)\s*(?:\w+\.)?{n}\b|\b{n}\s*(?:\+\+|--|[-+*]=)|"
               rf"\b{n}\s*=[^=;][^;]*\b{n}\s*[-+*]")
    return re.search(pattern, body) is not None


def check(path):
    lines = open(path, encoding="utf-8").read().split("\n")
    found = []
    for name, first, last in machines(lines):
        body = "\n".join(lines[first:last + 1])
        for k in range(first, last + 1):
            m = NARROW.match(lines[k])
            if m and changed_by_arithmetic(m.group("name"), body):
                found.append(f"{path}:{k + 1}: machine {name}: member {m.group('name')} is "
                             f"{m.group('type')}; keep numbers in std::uint64_t, std::int64_t "
                             f"or fsm::Counter (docs/rules.md)")
    return found


def main(argv):
    if len(argv) < 2:
        print("usage: rules_check.py FILE...", file=sys.stderr)
        return 2
    found = [f for path in argv[1:] for f in check(path)]
    for f in found:
        print(f)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
