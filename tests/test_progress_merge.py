"""Merging two progress documents (``calijack.progress.merge``): nothing lost, the same either way
round, and merging again changes nothing. The documents are the ones the store writes
(``test_progress``'s strategies), in the order a browser keeps them."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calijack import progress
from calijack.progress import ProgressError, merge, read
from test_progress import DRILLS, SESSIONS, _deal, config, documents  # noqa: E402  (beside this file)


def in_order(doc: dict) -> dict:
    """``doc`` as a browser keeps it: each deal and each queued mistake once, in the merged order."""
    doc = copy.deepcopy(doc)
    doc["deals"] = sorted({d["id"]: d for d in doc["deals"]}.values(), key=lambda d: (d["when"], d["id"]))
    doc["drills"] = sorted({d["id"]: d for d in doc["drills"]}.values(), key=lambda d: (d["due"], d["id"]))
    doc["people"]["deals"] = sorted({d["id"]: d for d in doc["people"]["deals"]}.values(),
                                    key=lambda d: (d["when"], d["id"]))
    return doc


docs = documents.map(in_order)


@config(25)
@given(docs, docs)
def test_merging_loses_nothing_is_the_same_either_way_round_and_changes_nothing_twice(a, b):
    m = merge(a, b)
    assert read(m) == m  # a document every reader takes
    for name in ("checks", "puzzles"):
        assert m[name].keys() == a[name].keys() | b[name].keys()
    for key, entry in m["checks"].items():
        sides = [s["checks"][key] for s in (a, b) if key in s["checks"]]
        assert entry["solved"] == any(e["solved"] for e in sides)
        assert entry["first"] == all(e["first"] for e in sides)
    for key, entry in m["puzzles"].items():
        assert entry["best"] == max(s["puzzles"][key]["best"] for s in (a, b) if key in s["puzzles"])
    assert {d["id"] for d in m["deals"]} == {d["id"] for d in a["deals"] + b["deals"]}
    assert {d["id"] for d in m["drills"]} == {d["id"] for d in a["drills"] + b["drills"]}
    for name, totals in m["opponents"].items():
        for side in (a, b):
            for field, value in side["opponents"].get(name, {}).items():
                assert totals[field] >= value, (name, field)
    assert m["game"] in (a["game"], b["game"])
    # Either way round, the same document.
    assert merge(b, a) == m
    # A document merged with itself, or with a part of itself, is unchanged: syncing again moves nothing.
    assert merge(a, a) == read(a)
    assert merge(m, m) == m
    assert merge(m, a) == m and merge(b, m) == m  # syncing again: nothing moves


def test_two_devices_each_with_a_new_deal_count_both_and_the_common_ones_once():
    one, two = (_deal(SESSIONS[i], f"2026-12-0{i + 1}T10:00:00Z", i + 1) for i in (0, 1))
    common = progress.empty()
    common["deals"] = [one]
    common["opponents"] = {"casual": {"deals": 5, "for": 20, "against": 10, "won": 0, "lost": 0}}  # 4 no longer kept
    laptop = copy.deepcopy(common)
    phone = copy.deepcopy(common)
    phone["deals"].append(two)
    mine = two["points"][two["seat"]]
    phone["opponents"]["casual"] = {"deals": 6, "for": 20 + mine, "against": 10 + sum(two["points"]) - mine,
                                    "won": 0, "lost": 0}
    laptop["checks"] = {"book/03#1": {"first": True, "solved": True}}
    m = merge(laptop, phone)
    assert m["opponents"]["casual"] == phone["opponents"]["casual"]
    assert [d["id"] for d in m["deals"]] == [one["id"], two["id"]]
    assert m["checks"] == laptop["checks"]


def test_the_same_mistake_on_two_devices_comes_back_at_the_sooner_date():
    a, b = progress.empty(), progress.empty()
    a["drills"] = [dict(DRILLS[0], step=2, due="2026-12-20")]
    b["drills"] = [dict(DRILLS[0], step=0, due="2026-12-04")]
    assert merge(a, b)["drills"] == b["drills"]


def test_an_unfinished_game_finished_on_the_other_device_is_dropped():
    session = SESSIONS[0]
    game = dict(progress.game_entry(session, "0123456789abcdef"), saved="2026-12-01T10:00:00Z", deal=1)
    a, b = progress.empty(), progress.empty()
    a["game"] = game
    b["deals"] = [dict(_deal(session, "2026-12-01T11:00:00Z", 1))]
    assert merge(a, b)["game"] is None
    b["deals"][0]["when"] = "2026-12-01T09:00:00Z"  # finished before the game was saved: the game stays
    assert merge(a, b)["game"] == game


@pytest.mark.parametrize("bad, kind", [("", "empty"), ("[1]", "foreign"),
                                       ('{"format": "calijack-progress", "version": 99}', "too_new")])
def test_a_document_that_cannot_be_read_is_refused_with_its_reason(bad, kind):
    with pytest.raises(ProgressError) as refused:
        merge(progress.empty(), bad)
    assert refused.value.kind == kind
