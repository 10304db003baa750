"""One refusal hierarchy (rules.refusals), and its one mapping for each way in: the API
(campaign.api.errors), the pages and the admin (config.refusals)."""

from __future__ import annotations

import pickle

import pytest
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.signed_cookies import SessionStore
from django.test import RequestFactory
from rest_framework.request import Request

from battles.services.results import ResultRefused
from campaign.api.errors import exception_handler
from campaign.services.adjustments import AdjustmentRefused, StaleChange
from campaign.services.campaigns import CampaignRefused
from campaign.services.deadlines import ScheduleRefused
from campaign.services.planning import ReadyRefused, SideRefused
from campaign.services.scenarios import CampaignExists
from campaign.services.turns import TurnAlreadyPlayed, TurnRefused
from config.refusals import RefusalMiddleware, sentence
from notifications.invitations import InvitationRefused
from notifications.messages import MessageRefused
from rules.campaign.scenario import ScenarioError, parse_scenario
from rules.campaign.turn import OrderError, TurnError
from rules.campaign.verify import TurnFileError
from rules.forceonforce.cohesion import CohesionError
from rules.refusals import Code, Problem, Refusal
from rules.spec import BattleSpecError, DocumentError, decode_json, parse_battle
from tests.campaign.conftest import korona_doc

EVERY_REFUSAL = [
    BattleSpecError, DocumentError, ScenarioError, TurnFileError, TurnError, OrderError,
    CohesionError, ScheduleRefused, CampaignExists, CampaignRefused, AdjustmentRefused,
    StaleChange, TurnRefused, TurnAlreadyPlayed, ResultRefused, ReadyRefused,
    MessageRefused, InvitationRefused,
]  # fmt: skip


@pytest.mark.parametrize("kind", EVERY_REFUSAL, ids=lambda kind: kind.__name__)
def test_every_refusal_is_one_kind_and_still_a_value_error(kind: type[Exception]) -> None:
    assert issubclass(kind, Refusal)
    assert issubclass(kind, ValueError)  # callers that catch ValueError still catch it


def test_side_refused_is_a_refusal_with_its_flag() -> None:
    refused = SideRefused("no such side", forbidden=False)
    assert isinstance(refused, Refusal)
    assert refused.problems == [Problem("", "no such side")]
    assert refused.forbidden is False


def test_a_problem_reads_as_its_line_and_keeps_path_and_message_apart() -> None:
    problem = Problem("attacker.stands", "must be an object")
    assert problem == "attacker.stands: must be an object"
    assert (problem.path, problem.message) == ("attacker.stands", "must be an object")
    assert Problem("", "no path") == "no path"
    copy = pickle.loads(pickle.dumps(problem))
    assert (copy, copy.path, copy.message) == (problem, problem.path, problem.message)


def test_a_battle_checks_problems_carry_where_and_what() -> None:
    with pytest.raises(BattleSpecError) as refused:
        parse_battle({"attacker": {"side": "x"}})
    problems = refused.value.problems
    assert ("area", "is missing") in [(p.path, p.message) for p in problems]
    assert ("attacker.side", "must be one of australian, japanese, not 'x'") in [
        (p.path, p.message) for p in problems
    ]
    assert str(refused.value) == "invalid battle: " + "; ".join(problems)


def test_a_scenario_checks_problems_carry_where_and_what() -> None:
    with pytest.raises(ScenarioError) as refused:
        parse_scenario({})
    assert ("name", "is missing") in [(p.path, p.message) for p in refused.value.problems]
    assert str(refused.value).startswith("invalid scenario: name: is missing")


def test_a_document_refusal_is_one_problem() -> None:
    with pytest.raises(DocumentError) as refused:
        decode_json("{", "the body")
    assert len(refused.value.problems) == 1
    assert refused.value.problems[0].path == ""
    assert str(refused.value).startswith("the body: not valid JSON")


# --- the API -------------------------------------------------------------------------------


def test_the_api_answers_any_refusal_400_with_its_problems() -> None:
    refusal = ScenarioError(
        [
            Problem("sides", "is missing", Code.MISSING),
            Problem("turn", "must be from 0 to 1000, not -1", Code.OUT_OF_RANGE, {"given": -1}),
            Problem("", "no such side"),
        ]
    )
    response = exception_handler(refusal, {"request": Request(RequestFactory().get("/api/"))})
    assert response is not None
    assert response.status_code == 400
    # Each problem's code beside its place and message, for a program to tell the kinds
    # of fault apart (rules.refusals.Code); a plain refusal's is "message".
    assert response.data == {
        "detail": "invalid scenario: sides: is missing; turn: must be from 0 to 1000, not -1; "
        "no such side",
        "problems": [
            {"path": "sides", "message": "is missing", "code": "missing"},
            {"path": "turn", "message": "must be from 0 to 1000, not -1", "code": "out_of_range"},
            {"path": "", "message": "no such side", "code": "message"},
        ],
    }


def test_a_bad_scenarios_refusal_carries_each_checkers_code() -> None:
    doc = korona_doc()
    doc["turn"] = -1
    del doc["sides"]
    with pytest.raises(ScenarioError) as refused:
        parse_scenario(doc)
    answer = exception_handler(refused.value, {"request": Request(RequestFactory().get("/api/"))})
    assert answer is not None
    codes = {(p["path"], p["code"]) for p in answer.data["problems"]}
    assert {("sides", "missing"), ("turn", "out_of_range")} <= codes


def test_the_api_leaves_other_exceptions_to_drf() -> None:
    from rest_framework.exceptions import NotFound

    response = exception_handler(NotFound(), {"request": None})
    assert response is not None and response.status_code == 404
    assert exception_handler(KeyError("a bug"), {"request": None}) is None  # a real 500


# --- the pages and the admin ---------------------------------------------------------------


def _request(method: str, path: str, **headers: str) -> object:
    request = getattr(RequestFactory(), method)(path, **headers)
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    return request


def _middleware() -> RefusalMiddleware:
    return RefusalMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]


def test_a_page_answers_a_refusal_with_a_400_page_of_its_problems() -> None:
    request = _request("post", "/campaigns/1/orders/")
    refusal = OrderError([Problem("target", "Kilu is not linked to Isura"), "the turn ended"])
    response = _middleware().process_exception(request, refusal)  # type: ignore[arg-type]
    assert response is not None
    assert response.status_code == 400
    page = response.content.decode()
    assert "Nothing was changed" in page
    assert "<code>target</code>: Kilu is not linked to Isura" in page
    assert "the turn ended" in page


def test_an_admin_change_refused_comes_back_to_its_page_with_the_reason() -> None:
    came_from = "http://testserver/admin/campaign/campaign/1/change/"
    request = _request("post", "/admin/campaign/campaign/1/pause/", HTTP_REFERER=came_from)
    refusal = CampaignRefused("Korona has ended: it cannot be paused")
    response = _middleware().process_exception(request, refusal)  # type: ignore[arg-type]
    assert response is not None
    assert response.status_code == 302
    assert response["Location"] == came_from
    assert [str(m) for m in get_messages(request)] == ["Korona has ended: it cannot be paused."]


def test_an_admin_refusal_from_elsewhere_is_the_400_page_not_a_redirect() -> None:
    request = _request(
        "post", "/admin/campaign/campaign/1/pause/", HTTP_REFERER="http://evil.example/admin/"
    )
    response = _middleware().process_exception(  # type: ignore[arg-type]
        request, CampaignRefused("refused")
    )
    assert response is not None and response.status_code == 400


def test_other_exceptions_are_not_the_middlewares() -> None:
    request = _request("get", "/campaigns/")
    assert _middleware().process_exception(request, KeyError("a bug")) is None  # type: ignore[arg-type]


def test_a_refusal_is_said_to_the_game_master_as_a_sentence() -> None:
    assert sentence(CampaignRefused("a campaign named 'K' exists already")) == (
        "A campaign named 'K' exists already."
    )
    assert sentence("Nothing was changed: reload the page.") == (
        "Nothing was changed: reload the page."
    )
    assert sentence("") == ""
