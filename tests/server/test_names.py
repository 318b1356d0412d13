"""A name's look-alike key (ledger/names.py): the same for every way a reader
could mistake a name, different for names a reader tells apart."""

from hypothesis import given
from hypothesis import strategies as st

from tui_reversi.server.ledger.names import name_key, skeleton

NAMES = st.from_regex(r"[A-Za-z0-9][A-Za-z0-9._-]{0,31}", fullmatch=True)
LOOK_ALIKES = {"I": "l", "l": "1", "1": "I", "O": "0", "0": "O", "m": "rn"}


@given(NAMES)
def test_case_and_separators_never_tell_two_names_apart(name):
    key = name_key(name)
    assert name_key(name.upper()) == name_key(name.lower()) == key
    assert name_key(name.replace(".", "_") + "-") == key
    assert name_key(key) == key  # (a key is its own key)


@given(NAMES, st.data())
def test_a_letter_swapped_for_its_look_alike_keeps_the_key(name, data):
    spots = [index for index, letter in enumerate(name) if letter in LOOK_ALIKES]
    if spots:
        index = data.draw(st.sampled_from(spots))
        swapped = name[:index] + LOOK_ALIKES[name[index]] + name[index + 1 :]
        assert name_key(swapped) == name_key(name)


def test_names_a_reader_tells_apart_keep_their_own_keys():
    assert len({name_key(name) for name in ("alice", "alicia", "bob", "b0bby", "carol")}) == 5
    assert skeleton("\u0430lice") == "alice"  # (a Cyrillic a: UTS #39 data, not a list of ours)
