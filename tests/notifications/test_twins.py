"""Non-interference for what a side is sent: two campaigns that differ only in what the
Australians may not know (the 3rd Company, out of their sight in Kilu: its quality and
its stands) send the Australian player the same email, the same side webhook post and
the same feeds, byte for byte, once the things that name the campaign itself (its id,
its row's times) are set aside. The GM's email shows the difference: the test can fail.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any
from unittest import mock

import pytest
from django.core import mail
from django.test import Client

from campaign.models import Campaign, Membership
from campaign.services import commitments
from campaign.services.scenarios import create_campaign
from campaign.services.turns import advance_turn
from notifications.feeds import feed_urls
from notifications.models import Webhook
from tests.fog.twins import commitment_digests, twin_salts
from tests.web.conftest import meeting_doc

pytestmark = pytest.mark.django_db


def twin(name: str, *, secret: bool) -> dict[str, Any]:
    doc = meeting_doc()
    for company in doc["companies"]:
        if company["name"] == "3rd Company" and secret:
            company["quality"] = "veteran"
            company["stands"] = {**company["stands"], "rifle_squad": 5}
    return doc


def same_parts(text: str, campaign: Campaign, user: Any) -> str:
    """What may differ between the twins without telling anything: the campaign's id,
    the times its rows were written, and its own commitment digests (docs/pages.md)."""
    for digest, placeholder in commitment_digests(campaign).items():
        text = text.replace(digest, placeholder)
    text = text.replace(f"/campaigns/{campaign.pk}/", "/campaigns/ID/")
    text = text.replace(f"korona:{campaign.pk}:", "korona:ID:")
    text = re.sub(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00", "TIME", text)
    return text


def play_twin(
    name: str, *, secret: bool, aussie: Any, gm_user: Any, hook_server: Any, capture: Any
) -> dict[str, str]:
    mail.outbox.clear()
    hook_server.posts.clear()
    with mock.patch.object(commitments, "salt_source", twin_salts()):
        return _play(name, secret, aussie, gm_user, hook_server, capture)


def _play(
    name: str, secret: bool, aussie: Any, gm_user: Any, hook_server: Any, capture: Any
) -> dict[str, str]:
    campaign = create_campaign(data=twin(name, secret=secret), name="Twin", seed=11)
    Membership.objects.create(user=aussie, campaign=campaign, side="australian")
    Webhook.objects.create(campaign=campaign, url=hook_server.url, side="australian")
    with capture(execute=True):
        advance_turn(campaign_id=campaign.pk)
    sent = _sent(campaign, aussie, gm_user, hook_server)
    campaign.delete()  # the twin takes the same name, as if it were the only campaign
    return sent


def _sent(campaign: Campaign, aussie: Any, gm_user: Any, hook_server: Any) -> dict[str, str]:
    ours = [m for m in mail.outbox if m.to == [aussie.email]]
    gm = [m for m in mail.outbox if m.to == [gm_user.email]]
    urls = feed_urls(aussie)
    sent = {
        "email": ours[0].subject + "\n" + ours[0].body,
        "webhook": hook_server.posts[0]["content"],
        "atom": Client().get(urls["turns"].removeprefix("http://korona.test")).content.decode(),
        "ical": Client().get(urls["calendar"].removeprefix("http://korona.test")).content.decode(),
        "gm_state": str(campaign.companies.get(name="3rd Company").quality) + str(gm),
    }
    return {key: same_parts(value, campaign, aussie) for key, value in sent.items()}


def test_what_the_australians_are_sent_does_not_depend_on_what_they_may_not_know(
    aussie: Any, gm_user: Any, hook_server: Any, django_capture_on_commit_callbacks: Any
) -> None:
    args = {
        "aussie": aussie,
        "gm_user": gm_user,
        "hook_server": hook_server,
        "capture": django_capture_on_commit_callbacks,
    }
    plain = play_twin("Twin", secret=False, **args)
    secret = play_twin("Twin", secret=True, **args)
    for key in ("email", "webhook", "atom", "ical"):
        assert plain[key] == secret[key], key
    assert plain["gm_state"] != secret["gm_state"]  # the twins do differ
    assert "Turn 1 of Twin has been played" in plain["email"]
    # The coming turn's commitment is sent, and is the one difference set aside.
    assert "against this code: <commitment of turn 2>." in plain["email"]


def _play_at_the_table(name: str, secret: bool, aussie: Any, gm_user: Any, capture: Any) -> str:
    """Turn 1 of the twin fought at the table: what the Australian player is told while
    it waits for its battles (``table_battle_words``), the campaign's own parts set aside."""
    mail.outbox.clear()
    with mock.patch.object(commitments, "salt_source", twin_salts()):
        campaign = create_campaign(data=twin(name, secret=secret), name="Twin", seed=11)
        campaign.set_settings(replace(campaign.get_settings(), battle_mode="tabletop"))
        campaign.save(update_fields=["settings"])
        Membership.objects.create(user=aussie, campaign=campaign, side="australian")
        with capture(execute=True):
            advance_turn(campaign_id=campaign.pk)
    (told,) = [m for m in mail.outbox if m.to == [aussie.email]]
    (gm,) = [m for m in mail.outbox if m.to == [gm_user.email]]
    assert gm.subject == "[Twin] Turn 1: battles wait for you"
    sent = same_parts(told.subject + "\n" + told.body, campaign, aussie)
    sent = re.sub(r"/battles/\d+/", "/battles/ID/", sent)
    campaign.delete()
    return sent


def test_the_table_notice_to_the_australians_does_not_depend_on_what_they_may_not_know(
    aussie: Any, gm_user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    args = {"aussie": aussie, "gm_user": gm_user, "capture": django_capture_on_commit_callbacks}
    plain = _play_at_the_table("Twin", secret=False, **args)
    secret = _play_at_the_table("Twin", secret=True, **args)
    assert plain.startswith("[Twin] Your 2 battles wait for the table\n"), plain
    assert plain == secret
    assert "3rd Company" not in plain and "veteran" not in plain
