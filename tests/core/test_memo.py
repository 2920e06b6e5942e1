"""The engines' bounded memo tables."""

from __future__ import annotations

import doctest

import kumite.core.memo
from kumite.core.memo import Memo


def test_a_full_memo_empties_itself_before_storing_the_next_entry():
    memo: Memo[int, str] = Memo(3)
    for key in range(3):
        assert memo.put(key, str(key)) == str(key)
    assert memo == {0: "0", 1: "1", 2: "2"}
    assert memo.put(3, "3") == "3"
    assert memo == {3: "3"}
    assert memo.get(0) is None


def test_the_module_examples_hold():
    assert doctest.testmod(kumite.core.memo).failed == 0
