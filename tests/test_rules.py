"""Rule options: the standard profile, every option and value of RULES.md, validation messages."""

import dataclasses

import pytest

from calijack import STANDARD, RuleError, Rules
from calijack.rules import OPTIONS

# The table of RULES.md: option -> (standard value, the other value(s), source of the others).
TABLE = {
    "void_duty": ("must_trump", ("any",), ("002", "003")),
    "high_low": ("captured", ("held",), ("001",)),
    "game": ("pips", ("ten_of_trumps",), ("002",)),
    "target": (10, (7, 1, 25), ("002", "Foster")),
    "stock": ("exposed", ("closed",), ("002", "Foster")),
    "turned_jack": (False, (True,), ("001",)),
    "shasta_point": (False, (True,), ("001",)),
    "trump_from": ("stock", ("cut",), ("002", "Foster")),
    "players": (2, (3,), ("001",)),
}


def test_options_are_exactly_those_of_rules_md():
    assert list(OPTIONS) == list(TABLE)
    assert [f.name for f in dataclasses.fields(Rules)] == list(TABLE)


@pytest.mark.parametrize("name", TABLE)
def test_standard_value_and_source(name):
    standard, others, sources = TABLE[name]
    option = OPTIONS[name]
    assert option.standard == standard and type(option.standard) is type(standard)
    assert getattr(STANDARD, name) == standard
    for source in sources:
        assert source in option.source
    assert option.summary and option.variant
    if name != "target":
        assert option.values == (standard, *others)


@pytest.mark.parametrize("name,value", [(n, v) for n, (_, others, _) in TABLE.items() for v in others])
def test_every_other_value_is_accepted_and_stored(name, value):
    rules = Rules.from_dict({name: value})
    assert getattr(rules, name) == value
    assert rules.to_dict() == {name: value}
    assert not rules.is_standard
    assert Rules.from_dict(rules.to_dict()) == rules
    assert STANDARD.with_(**{name: value}) == rules == Rules(**{name: value})
    assert len(rules.describe()) == 1
    if name != "target":
        assert OPTIONS[name].source in rules.describe()[0]


def test_standard_profile():
    assert Rules() == STANDARD == Rules.from_dict({}) == Rules.from_dict(None)
    assert STANDARD.is_standard and STANDARD.to_dict() == {} and STANDARD.describe() == []
    assert STANDARD.point_names == ("high", "low", "jack", "game")
    assert (STANDARD.stock_size, STANDARD.tricks, STANDARD.draws) == (40, 26, 20)


def test_three_players_counts():
    three = Rules(players=3)
    assert (three.stock_size, three.tricks, three.draws) == (34, 17, 11)


def test_shasta_point_is_counted_after_game():
    assert Rules(shasta_point=True).point_names == ("high", "low", "jack", "game", "nine")


def test_target_is_described_as_a_number():
    assert Rules(target=7).describe() == ["the match is played to 7"]


@pytest.mark.parametrize("options,words", [
    ({"colour": "red"}, ["unknown rule option 'colour'", "void_duty"]),
    ({"void_duty": "maybe"}, ["'void_duty'", "'maybe'", "'must_trump'", "'any'"]),
    ({"high_low": "won"}, ["'high_low'", "'won'", "'captured'", "'held'"]),
    ({"game": "points"}, ["'game'", "'points'", "'ten_of_trumps'"]),
    ({"stock": "open"}, ["'stock'", "'open'", "'closed'"]),
    ({"turned_jack": 1}, ["'turned_jack'", "1", "false, true"]),
    ({"turned_jack": "true"}, ["'turned_jack'", "'true'"]),
    ({"shasta_point": None}, ["'shasta_point'", "None"]),
    ({"trump_from": "deck"}, ["'trump_from'", "'deck'", "'cut'"]),
    ({"players": 4}, ["'players'", "4", "2, 3"]),
    ({"players": "3"}, ["'players'", "'3'"]),
    ({"players": True}, ["'players'", "True"]),
    ({"target": 0}, ["'target'", "whole number", "0"]),
    ({"target": -3}, ["'target'", "-3"]),
    ({"target": 7.0}, ["'target'", "7.0"]),
    ({"target": "7"}, ["'target'", "'7'"]),
    ({"target": True}, ["'target'", "True"]),
])
def test_bad_options_name_the_option_and_value(options, words):
    with pytest.raises(RuleError) as caught:
        Rules.from_dict(options)
    for word in words:
        assert word in str(caught.value)
    with pytest.raises(RuleError):
        STANDARD.with_(**options)


def test_rules_must_be_a_mapping():
    with pytest.raises(RuleError, match="list"):
        Rules.from_dict(["players", 3])


def test_rule_error_is_a_value_error_and_rules_are_frozen():
    assert issubclass(RuleError, ValueError)
    with pytest.raises(dataclasses.FrozenInstanceError):
        STANDARD.players = 3
    assert STANDARD.players == 2


TYPED = {  # each typed property and the option value it stands for
    "void_any": ("void_duty", "any"), "held_high_low": ("high_low", "held"),
    "game_by_ten": ("game", "ten_of_trumps"), "stock_closed": ("stock", "closed"),
    "trump_cut": ("trump_from", "cut"),
}


@pytest.mark.parametrize("prop", sorted(TYPED))
def test_typed_options_say_which_value_is_in_force(prop):
    name, value = TYPED[prop]
    assert getattr(STANDARD, prop) is False
    assert getattr(STANDARD.with_(**{name: value}), prop) is True
    assert {v for v in OPTIONS[name].values} == {OPTIONS[name].standard, value}


def test_no_module_outside_rules_compares_an_option_to_a_string():
    """Options are read through the typed properties, so a typo cannot silently pick a rule."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "calijack"
    named = {name for name, option in OPTIONS.items() if any(isinstance(v, str) for v in option.values)}
    found = []
    for path in sorted(package.rglob("*.py")):
        if path.name == "rules.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                sides = [node.left, *node.comparators]
                if any(isinstance(s, ast.Attribute) and s.attr in named for s in sides) and any(
                        isinstance(s, ast.Constant) and isinstance(s.value, str) for s in sides):
                    found.append(f"{path.relative_to(package.parent)}:{node.lineno}")
    assert not found, "option compared to a string: " + ", ".join(found)
