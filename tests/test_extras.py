"""A part of calijack imported without its extra says, in one sentence, what to install."""

from __future__ import annotations

import pytest

from calijack import extras
from calijack.extras import MissingExtra, require


def test_a_missing_extra_is_named_in_one_sentence(monkeypatch):
    monkeypatch.setitem(extras.EXTRAS, "widgets", ("json", "calijack_no_such_module"))
    with pytest.raises(MissingExtra) as raised:
        require("widgets", "calijack.widgets")
    assert str(raised.value) == ("calijack.widgets needs the 'widgets' extra: pip install "
                                 "'calijack[widgets]' (calijack_no_such_module not installed)")
    assert isinstance(raised.value, ImportError) and raised.value.name == "calijack_no_such_module"


@pytest.mark.parametrize("extra", sorted(extras.EXTRAS))
def test_with_the_extra_installed_nothing_is_said(extra):
    require(extra, "calijack")  # make installs every extra
