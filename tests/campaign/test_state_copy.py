"""CampaignState.copy: a copy equal to its original that shares nothing that can change
with it, for every field of every dataclass in a snapshot, those added later included."""

from __future__ import annotations

import copy
import dataclasses
import typing
from typing import Any

import pytest

from rules.campaign.scenario import parse_scenario
from rules.campaign.state import CampaignState
from rules.campaign.turn import play_turn
from tests.campaign.conftest import korona_doc

# Values a copy may share with its original: nothing can change them in place.
IMMUTABLE_LEAVES = (str, int, float, bool, type(None))


def reference_state() -> CampaignState:
    """The reference scenario as its file gives it."""
    return parse_scenario(korona_doc(standing_order=None))


def played_state() -> CampaignState:
    """The reference scenario three turns on, with the Old Breed options and a GM's
    landform going: the Japanese of Oivi start in Korona (so there are battles) and are
    aggressive, every other company on the AI."""
    doc = korona_doc(standing_order="sensible")
    for company in doc["companies"]:
        if company["name"] in ("1st Company", "2nd Company"):
            company["area"] = "Korona"
            company["standing_order"] = "aggressive"
    doc["settings"] = {
        "combat_events": True,
        "fog_of_war_cup": True,
        "landform_going": {"hill": "bad"},
    }
    state = parse_scenario(doc)
    battles = 0
    for _ in range(3):
        outcome = play_turn(state)
        battles += len(outcome.battles)
        state = outcome.state
    assert battles > 0 and state.turn == 3  # the state this test is about
    return state


def every_field_changed(state: CampaignState) -> CampaignState:
    """``state`` with every field of every dataclass in it that has a default set off
    it (those at their default changed): a ``copy`` that leaves a field out gives it its
    default, which then differs from the original. (A field without a default left out
    is a TypeError.)"""
    changed = copy.deepcopy(state)
    for instance, _ in dataclass_instances(changed):
        for spec in dataclasses.fields(instance):
            default = field_default(spec)
            if default is not dataclasses.MISSING and getattr(instance, spec.name) == default:
                setattr(instance, spec.name, other_than(default))
    return changed


def field_default(spec: dataclasses.Field[Any]) -> Any:
    if spec.default_factory is not dataclasses.MISSING:
        return spec.default_factory()
    return spec.default


def other_than(value: Any) -> Any:
    """A value of the same kind as ``value`` that is not equal to it."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    if isinstance(value, str):
        return value + " (changed)"
    if value is None:
        return "changed"
    if isinstance(value, tuple):
        return (*value, "changed")
    if isinstance(value, list):
        return [*value, "changed"]
    if isinstance(value, dict):
        return {**value, "changed": "changed"}
    raise AssertionError(f"other_than: no other value of {type(value).__name__} known")


def mutable_parts(value: Any, path: str = "state") -> dict[int, tuple[Any, str]]:
    """Every object of a mutable type reachable from ``value`` (lists, dicts, sets and
    dataclass instances that are not frozen), by id, with the path it was reached by.
    Every dataclass field is walked; a value of a type not known here fails the walk, so
    a new kind of field has to be thought about."""
    found: dict[int, tuple[Any, str]] = {}

    def walk(item: Any, where: str) -> None:
        if isinstance(item, IMMUTABLE_LEAVES):
            return
        if dataclasses.is_dataclass(item) and not isinstance(item, type):
            if not type(item).__dataclass_params__.frozen:
                found[id(item)] = (item, where)
            for spec in dataclasses.fields(item):
                walk(getattr(item, spec.name), f"{where}.{spec.name}")
        elif isinstance(item, dict):
            found[id(item)] = (item, where)
            for key, part in item.items():
                walk(key, f"{where} key {key!r}")
                walk(part, f"{where}[{key!r}]")
        elif isinstance(item, list | set):
            found[id(item)] = (item, where)
            for index, part in enumerate(item):
                walk(part, f"{where}[{index}]")
        elif isinstance(item, tuple | frozenset):
            for index, part in enumerate(item):
                walk(part, f"{where}[{index}]")
        else:
            raise AssertionError(f"{where}: is a {type(item).__name__} mutable? say so here")

    walk(value, path)
    return found


def dataclass_instances(value: Any) -> list[tuple[Any, str]]:
    return [
        (item, where)
        for item, where in mutable_parts(value).values()
        if dataclasses.is_dataclass(item)
    ]


def dataclass_types(cls: type, seen: set[type] | None = None) -> set[type]:
    """Every dataclass a ``cls`` may hold, by its fields' type hints, ``cls`` included."""
    seen = set() if seen is None else seen
    seen.add(cls)
    pending = list(typing.get_type_hints(cls).values())
    while pending:
        hint = pending.pop()
        pending.extend(typing.get_args(hint))
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in seen:
            dataclass_types(hint, seen)
    return seen


def assert_shares_nothing_mutable(original: CampaignState, duplicate: CampaignState) -> None:
    theirs = mutable_parts(original)
    ours = mutable_parts(duplicate)
    shared = sorted(where for key, (_, where) in theirs.items() if key in ours)
    assert not shared, f"the copy shares with the original: {shared}"


STATES = {
    "reference scenario": reference_state,
    "three turns played": played_state,
    "every field changed": lambda: every_field_changed(played_state()),
}


@pytest.mark.parametrize("make", STATES.values(), ids=STATES.keys())
def test_the_copy_equals_the_original(make: Any) -> None:
    state = make()
    duplicate = state.copy()
    assert duplicate == state
    assert dataclasses.asdict(duplicate) == dataclasses.asdict(state)
    assert duplicate == copy.deepcopy(state)


@pytest.mark.parametrize("make", STATES.values(), ids=STATES.keys())
def test_the_copy_shares_no_mutable_object_with_the_original(make: Any) -> None:
    state = make()
    assert_shares_nothing_mutable(state, state.copy())


def test_changing_the_copy_leaves_the_original_alone() -> None:
    state = played_state()
    before = copy.deepcopy(state)
    duplicate = state.copy()
    for company in duplicate.companies.values():
        company.stands["rifle_squad"] = 0
        company.establishment.clear()
    duplicate.settings.naval_table[1]["side"] = "japanese"
    duplicate.settings.landform_going.clear()
    duplicate.areas["Korona"].controller = "japanese"
    duplicate.links.clear()
    duplicate.ships[0].present = not duplicate.ships[0].present
    duplicate.air[0].buffalos += 5
    assert state == before


def test_every_field_changed_reaches_every_dataclass_and_every_default() -> None:
    """The "every field changed" state is what makes the tests above cover every field:
    it must hold every dataclass a state may hold, with every defaulted field off its
    default. A new dataclass in the state needs an instance in played_state."""
    changed = every_field_changed(played_state())
    instances = dataclass_instances(changed)
    assert {type(item) for item, _ in instances} == dataclass_types(CampaignState)
    for item, where in instances:
        for spec in dataclasses.fields(item):
            default = field_default(spec)
            if default is not dataclasses.MISSING:
                assert getattr(item, spec.name) != default, f"{where}.{spec.name}"


def test_the_walk_finds_what_a_shallow_copy_shares() -> None:
    """The check itself: a copy.copy of the state shares its dicts and lists, and a copy
    of the companies alone still shares each company's stands."""
    state = played_state()
    with pytest.raises(AssertionError, match="state.companies"):
        assert_shares_nothing_mutable(state, copy.copy(state))
    shallow_companies = copy.deepcopy(state)
    shallow_companies.companies = {
        name: copy.copy(company) for name, company in state.companies.items()
    }
    with pytest.raises(AssertionError, match=r"\.stands"):
        assert_shares_nothing_mutable(state, shallow_companies)


@pytest.mark.parametrize("make", STATES.values(), ids=STATES.keys())
def test_a_sketch_holds_copies_of_the_named_companies_only(make: Any) -> None:
    """CampaignState.sketch, the AI's what-if: the companies named, in the state's order,
    each equal to its original and sharing nothing mutable with it (a sketch moves them);
    the rest of the state as it is."""
    state = make()
    before = copy.deepcopy(state)
    names = list(state.companies)[1::2]
    sketch = state.sketch(set(names))
    assert list(sketch.companies) == names
    assert sketch.companies == {name: state.companies[name] for name in names}
    theirs, ours = mutable_parts(state.companies), mutable_parts(sketch.companies)
    assert not [where for key, (_, where) in ours.items() if key in theirs]
    assert vars_of(sketch) | {"companies": None} == vars_of(state) | {"companies": None}
    for company in sketch.companies.values():
        company.area = "Kokoda"
        company.stands["rifle_squad"] = 0
    assert state == before


def vars_of(state: CampaignState) -> dict[str, Any]:
    """A state's fields, each as it is (not copied, as ``dataclasses.asdict`` would)."""
    return {spec.name: getattr(state, spec.name) for spec in dataclasses.fields(state)}
