"""Marking a side's orders ready through the API (``mark_side_ready``)."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.models import Campaign, SideReady
from tests.api.helpers import url

pytestmark = pytest.mark.django_db
JSON = "application/json"


def test_player_marks_their_side_ready(played: Campaign, aussie: Any, login: Any) -> None:
    response = login(aussie).post(url(played, "ready/"), {}, JSON)
    assert response.status_code == 200
    assert response.json() == {"turn_number": 3, "ready": ["australian"], "turn_due": False}
    assert list(SideReady.objects.values_list("side", "turn_number")) == [("australian", 3)]


def test_player_may_not_mark_the_other_side_ready(
    played: Campaign, aussie: Any, login: Any
) -> None:
    response = login(aussie).post(url(played, "ready/"), {"side": "japanese"}, JSON)
    assert response.status_code == 403
    assert not SideReady.objects.exists()


def test_gm_must_name_the_side(played: Campaign, gm_user: Any, login: Any) -> None:
    gm = login(gm_user)
    response = gm.post(url(played, "ready/"), {}, JSON)
    assert response.status_code == 400
    assert "side" in response.json()
    assert not SideReady.objects.exists()
    assert gm.post(url(played, "ready/"), {"side": "japanese"}, JSON).status_code == 200


def test_the_turn_is_due_when_both_sides_are_ready(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    assert login(aussie).post(url(played, "ready/"), {}, JSON).json()["turn_due"] is False
    response = login(japanese).post(url(played, "ready/"), {}, JSON)
    assert response.json()["turn_due"] is True
    played.refresh_from_db()
    assert played.next_deadline is not None


def test_every_reader_learns_which_sides_are_ready(
    played: Campaign, aussie: Any, japanese: Any, gm_user: Any, login: Any
) -> None:
    """Public, as the rulings' section 6 says and the orders page shows."""
    login(japanese).post(url(played, "ready/"), {}, JSON)
    answer = {"turn_number": 3, "ready": ["japanese"]}
    assert login(aussie).get(url(played, "ready/")).json() == answer
    assert login(gm_user).get(url(played, "ready/")).json()["ready"] == ["japanese"]


def test_ready_is_refused_once_the_campaign_has_ended(
    played: Campaign, aussie: Any, login: Any
) -> None:
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="australian", end_reason="test"
    )
    response = login(aussie).post(url(played, "ready/"), {}, JSON)
    assert response.status_code == 400
    assert "ended" in response.json()["detail"]
    assert not SideReady.objects.exists()


def test_ready_is_refused_while_the_turn_waits_for_its_tabletop_battles(
    aussie: Any, japanese: Any, login: Any
) -> None:
    """One rule, in ``mark_side_ready``, for the API and the page (409 there): while a turn
    waits for its tabletop results, no side is marked ready and no deadline moves."""
    from campaign.models import Membership
    from campaign.services.schedule import mark_side_ready, set_schedule
    from campaign.services.turns import TurnRefused
    from tests.admin.conftest import waiting_campaign

    waiting, _ = waiting_campaign()
    set_schedule(campaign=waiting, kind="every_hours", every_hours=24)
    deadline = Campaign.objects.get(pk=waiting.pk).next_deadline
    Membership.objects.create(user=aussie, campaign=waiting, side="australian")
    Membership.objects.create(user=japanese, campaign=waiting, side="japanese")
    for user in (aussie, japanese):
        response = login(user).post(url(waiting, "ready/"), {}, JSON)
        assert response.status_code == 400
        reason = (
            "turn 1 is waiting for its tabletop battles; orders for turn 2 open "
            "when their results are in"
        )
        assert response.json() == {
            "detail": reason,
            "problems": [{"path": "", "message": reason, "code": "message"}],
        }
    with pytest.raises(TurnRefused, match="waiting for its tabletop battles"):
        mark_side_ready(campaign=waiting, side="japanese")
    assert not SideReady.objects.exists()
    assert Campaign.objects.get(pk=waiting.pk).next_deadline == deadline


# --- unready (DELETE): the orders page's "Unready" ------------------------------------------


def test_player_takes_back_their_sides_ready(played: Campaign, aussie: Any, login: Any) -> None:
    client = login(aussie)
    client.post(url(played, "ready/"), {}, JSON)
    response = client.delete(url(played, "ready/"))
    assert response.status_code == 200
    assert response.json() == {"turn_number": 3, "ready": [], "taken_back": True}
    assert not SideReady.objects.exists()
    # Again: nothing to take back, and nothing changes.
    assert client.delete(url(played, "ready/")).json() == {
        "turn_number": 3,
        "ready": [],
        "taken_back": False,
    }


def test_unready_touches_only_the_players_own_side(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    login(japanese).post(url(played, "ready/"), {}, JSON)
    response = login(aussie).delete(url(played, "ready/"))
    assert response.json() == {"turn_number": 3, "ready": ["japanese"], "taken_back": False}
    assert list(SideReady.objects.values_list("side", flat=True)) == ["japanese"]


def test_unready_is_too_late_once_every_side_is_ready(
    played: Campaign, aussie: Any, japanese: Any, login: Any
) -> None:
    login(japanese).post(url(played, "ready/"), {}, JSON)
    login(aussie).post(url(played, "ready/"), {}, JSON)
    response = login(aussie).delete(url(played, "ready/"))
    assert response.status_code == 400
    assert "every side is ready" in response.json()["detail"]
    assert sorted(SideReady.objects.values_list("side", flat=True)) == ["australian", "japanese"]


def test_unready_is_refused_once_the_campaign_has_ended(
    played: Campaign, aussie: Any, login: Any
) -> None:
    login(aussie).post(url(played, "ready/"), {}, JSON)
    Campaign.objects.filter(pk=played.pk).update(
        status="finished", winner="australian", end_reason="test"
    )
    response = login(aussie).delete(url(played, "ready/"))
    assert response.status_code == 400
    assert "ended" in response.json()["detail"]
    assert SideReady.objects.count() == 1


def test_the_gm_and_a_spectator_may_not_take_ready_back(
    played: Campaign, aussie: Any, gm_user: Any, outsider: Any, login: Any
) -> None:
    from campaign.models import SPECTATOR, Membership

    login(aussie).post(url(played, "ready/"), {}, JSON)
    Membership.objects.create(user=outsider, campaign=played, side=SPECTATOR)
    for user in (gm_user, outsider):
        response = login(user).delete(url(played, "ready/"))
        assert response.status_code == 403, user
    assert SideReady.objects.count() == 1


def test_unready_needs_a_member(played: Campaign, outsider: Any, login: Any) -> None:
    assert login(outsider).delete(url(played, "ready/")).status_code == 404


@pytest.mark.parametrize("field", ["turn_number", "turn"])
def test_a_ready_naming_another_turn_than_the_coming_one_is_refused_and_changes_nothing(
    played: Campaign, aussie: Any, login: Any, field: str
) -> None:
    """An order may name its turn, and one for a turn since played is refused; "ready"
    took no turn, so a client that read turn 2 marked turn 3 ready without a word."""
    client = login(aussie)
    coming = played.turn + 1
    sent = client.post(url(played, "ready/"), {field: coming - 1}, JSON)
    assert sent.status_code == 409, sent.content
    assert sent.json()["detail"] == (
        f"turn_number: This ready is for turn {coming - 1}, but turn {coming - 1} has been "
        f"played: the coming turn is turn {coming}. Nothing was changed: read its orders, "
        "then mark it ready."
    )
    later = client.post(url(played, "ready/"), {field: coming + 1}, JSON)
    assert later.status_code == 409, later.content
    assert f"turn {coming + 1} is not open for orders yet" in later.json()["detail"]
    assert not SideReady.objects.exists()
    assert client.post(url(played, "ready/"), {field: coming}, JSON).status_code == 200
    assert list(SideReady.objects.values_list("side", "turn_number")) == [("australian", coming)]


@pytest.mark.parametrize("turn", ["abc", 0, 2.5, None])
def test_a_ready_with_a_turn_that_is_no_turn_is_a_bad_request(
    played: Campaign, aussie: Any, login: Any, turn: Any
) -> None:
    """The walk's ``{"turn": "abc"}`` marked the side ready."""
    sent = login(aussie).post(url(played, "ready/"), {"turn": turn}, JSON)
    assert sent.status_code == 400, sent.content
    assert list(sent.json()) == ["turn"]
    assert not SideReady.objects.exists()
