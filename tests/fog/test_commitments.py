"""The reading of "byte for byte" for the dice commitments (docs/pages.md, "Fog of war"):
a commitment depends on nothing but its seed and its salt, and the product's salts are
fresh randomness, derivable from nothing a player sees. So the twins may differ in a
commitment's digest where, and only where, they differ in a hidden seed."""

from __future__ import annotations

import re
from typing import Any

import pytest

from campaign.models import SeedCommitment
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from rules.campaign import seeds
from tests.fog import twins
from tests.fog.twins import Hidden, Pair
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db


def _commitments(pair: Pair, index: int) -> list[tuple[Any, ...]]:
    with twins.frozen_clock(), twins.twin():
        built = twins.build(pair, index)
        return list(
            SeedCommitment.objects.filter(campaign=built.campaign)
            .order_by("number")
            .values_list("number", "seed", "salts", "branch_commitments", "commitment")
        )


def test_the_same_seed_and_salt_give_the_same_commitment_whatever_else_is_hidden() -> None:
    pair = Pair(
        viewer="australian",
        turns=2,
        twins=(
            Hidden(),
            Hidden(quality={"3rd Company": "veteran"}, standing={"3rd Company": "hold"}),
        ),
    )
    first, second = _commitments(pair, 0), _commitments(pair, 1)
    assert [row[0] for row in first] == [1, 2, 3]
    assert first == second


def test_a_different_hidden_seed_changes_only_that_turns_commitment() -> None:
    pair = Pair(viewer="japanese", turns=2, twins=(Hidden(), Hidden(campaign_seed=987654321)))
    first, second = _commitments(pair, 0), _commitments(pair, 1)
    # The turns played alike committed alike (same seed, same salts) ...
    assert first[:2] == second[:2]
    # ... the coming one, from the hidden seed, with the same salts: a different digest.
    (number, seed, salts, branches, digest), other = first[2], second[2]
    assert number == other[0] == 3 and salts == other[2]
    assert seed != other[1] and digest != other[4]
    assert set(branches.values()).isdisjoint(other[3].values())
    # The digest is the seed's commitment under that salt, and nothing else's.
    assert branches == {
        branch: seeds.commit(seeds.branch_seed(seed, branch), salt)
        for branch, salt in salts.items()
    }
    assert digest == seeds.turn_commitment(branches)


def test_the_products_salts_are_fresh_randomness_not_derived_from_the_campaign(
    db: Any,
) -> None:
    made = []
    for _ in range(2):
        campaign = create_campaign(data=meeting_doc(), name=f"Same seed {len(made)}", seed=7)
        advance_turn(campaign_id=campaign.pk)
        made.append(list(SeedCommitment.objects.filter(campaign=campaign).order_by("number")))
    first, second = made
    assert [row.number for row in first] == [row.number for row in second] == [1, 2]
    for a, b in zip(first, second, strict=True):
        # The same seed for the same turn of the same campaign seed ...
        assert a.seed == b.seed == seeds.default_turn_seed(7, a.number)
        # ... and yet no salt in common, so no commitment in common.
        assert set(a.salts.values()).isdisjoint(b.salts.values())
        assert a.commitment != b.commitment
        assert set(a.branch_commitments.values()).isdisjoint(b.branch_commitments.values())
        for salt in a.salts.values():
            assert re.fullmatch(r"[0-9a-f]{64}", salt)
    # Eight salts, 64 hex digits each, all different: 256 bits drawn for each.
    salts = [s for row in first + second for s in row.salts.values()]
    assert len(set(salts)) == len(salts) == 2 * 2 * len(seeds.branches(["australian", "japanese"]))


def test_a_salt_is_derived_from_nothing_even_in_a_campaign_identical_to_the_last() -> None:
    """The same campaign built twice in the same database (the same id, name, seed,
    players, orders and clock: everything a player sees, and everything else): with the
    product's salt source the salts still differ."""
    pair = Pair(viewer="australian", turns=1, twins=(Hidden(), Hidden()))
    made = []
    for _ in range(2):
        with twins.frozen_clock(), twins.twin(fixed_salts=False):
            built = twins.build(pair, 0)
            made.append(
                (
                    built.campaign.pk,
                    list(SeedCommitment.objects.filter(campaign=built.campaign).order_by("number")),
                )
            )
    (pk, first), (pk_again, second) = made
    assert pk == pk_again
    for a, b in zip(first, second, strict=True):
        assert (a.pk, a.number, a.seed) == (b.pk, b.number, b.seed)
        assert set(a.salts.values()).isdisjoint(b.salts.values())
        assert a.commitment != b.commitment
