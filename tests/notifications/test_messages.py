"""Messages: GM announcements, the public board, a side's own channel; who reads, who
writes, and who is told."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.core import mail

from campaign.models import SPECTATOR, Campaign, Membership
from notifications.models import Message, Webhook

pytestmark = pytest.mark.django_db


def page(client: Any, campaign: Campaign) -> str:
    answer = client.get(f"/campaigns/{campaign.pk}/messages/")
    assert answer.status_code == 200
    return answer.content.decode()


def write(client: Any, campaign: Campaign, channel: str, text: str, side: str = "") -> Any:
    return client.post(
        f"/campaigns/{campaign.pk}/messages/", {"channel": channel, "side": side, "text": text}
    )


def test_a_sides_channel_is_read_by_that_side_and_the_gm_only(
    campaign: Campaign,
    aussie: Any,
    japanese: Any,
    gm_user: Any,
    login: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        answer = write(login(aussie), campaign, "side", "Hold Korona at all costs", "australian")
    assert answer.status_code == 302
    assert "Hold Korona at all costs" in page(login(aussie), campaign)
    assert "Hold Korona at all costs" in page(login(gm_user), campaign)
    theirs = page(login(japanese), campaign)
    assert "Hold Korona" not in theirs
    assert 'data-side="australian"' not in theirs  # not even that the channel exists
    assert mail.outbox == []  # the author is not told of their own message


def test_the_enemy_cannot_write_in_a_sides_channel(
    campaign: Campaign, japanese: Any, login: Any
) -> None:
    answer = write(login(japanese), campaign, "side", "a false order", "australian")
    assert answer.status_code == 400
    assert "not yours to write in" in answer.content.decode()
    assert not Message.objects.exists()


def test_only_the_gm_announces(
    campaign: Campaign,
    aussie: Any,
    japanese: Any,
    gm_user: Any,
    login: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    assert write(login(aussie), campaign, "announcement", "I am the GM now").status_code == 400
    with django_capture_on_commit_callbacks(execute=True):
        write(login(gm_user), campaign, "announcement", "Turn 3 is played on Friday")
    assert sorted(m.to[0] for m in mail.outbox) == ["a@example.com", "j@example.com"]
    assert mail.outbox[0].subject == "[Korona] Announcement from gm (game master)"
    assert "Turn 3 is played on Friday" in mail.outbox[0].body
    assert "Turn 3 is played on Friday" in page(login(japanese), campaign)


def test_the_public_board_is_for_both_sides_and_notified_to_the_other(
    campaign: Campaign,
    aussie: Any,
    japanese: Any,
    login: Any,
    hook_server: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    Webhook.objects.create(campaign=campaign, url=hook_server.url)
    Webhook.objects.create(campaign=campaign, url=hook_server.url, side="japanese")
    with django_capture_on_commit_callbacks(execute=True):
        write(login(aussie), campaign, "public", "Good luck, gentlemen")
        write(login(aussie), campaign, "side", "They will come by Oivi", "australian")
    assert [m.to for m in mail.outbox] == [["j@example.com"]]
    assert "aussie (Australians)" in mail.outbox[0].body
    assert "Good luck, gentlemen" in page(login(japanese), campaign)
    contents = [post["content"] for post in hook_server.posts]
    assert len(contents) == 2 and all("Good luck" in c for c in contents)
    assert not any("Oivi" in c for c in contents)  # a side's channel goes to no other hook


def test_an_empty_or_too_long_message_is_refused_and_kept_as_a_draft(
    campaign: Campaign, aussie: Any, login: Any
) -> None:
    empty = write(login(aussie), campaign, "public", "   ")
    assert empty.status_code == 400 and "the message is empty" in empty.content.decode()
    long = write(login(aussie), campaign, "public", "x" * 2001)
    assert long.status_code == 400 and "at most 2000 characters" in long.content.decode()
    assert not Message.objects.exists()


def test_a_stranger_sees_no_board(campaign: Campaign, outsider: Any, login: Any) -> None:
    assert login(outsider).get(f"/campaigns/{campaign.pk}/messages/").status_code == 404
    assert write(login(outsider), campaign, "public", "hello").status_code == 404
    assert not Message.objects.exists()


def test_the_campaign_pages_link_the_messages(campaign: Campaign, aussie: Any, login: Any) -> None:
    html = login(aussie).get(f"/campaigns/{campaign.pk}/").content.decode()
    assert f'href="/campaigns/{campaign.pk}/messages/"' in html


@pytest.mark.parametrize("text", ["Hold\x00Korona", "\x00"])
def test_a_message_holding_a_nul_character_is_refused(
    campaign: Campaign, aussie: Any, login: Any, text: str
) -> None:
    # PostgreSQL stores no NUL in a text column: it was a 500 there (SQLite kept it).
    answer = write(login(aussie), campaign, "public", text)
    assert answer.status_code == 400
    assert "a message must not hold a NUL character" in answer.content.decode()
    assert not Message.objects.exists()


def test_the_map_pages_latest_messages_say_where_in_plain_words(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    # Not the board's heading ("in Channel of the Australians: only they and the GM read
    # it, 6 Dec"), which read as a garbled sentence after the author's name.
    write(login(gm_user), campaign, "announcement", "Turn 2 on Friday")
    write(login(aussie), campaign, "public", "Good luck")
    write(login(aussie), campaign, "side", "Hold Korona", "australian")
    latest = login(aussie).get(f"/campaigns/{campaign.pk}/messages/latest/").content.decode()
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", "", latest)).split())
    assert "aussie (Australians) in the channel of the Australians," in text
    assert "aussie (Australians) on the public board," in text
    assert "(game master) in the game master's announcements," in text
    assert "only they and the game master read it" not in text
    assert " in The public board" not in text


def test_a_message_in_a_sides_channel_is_emailed_as_the_boards_say_where(
    campaign: Campaign, japanese: Any
) -> None:
    """As the messages page says it ("in the channel of the Japanese"), not "in the
    Japanese' channel", which read wrong for a side whose name ends in no s."""
    from notifications.services import message_words

    message = Message.objects.create(
        campaign=campaign, author=japanese, author_side="japanese", channel="side",
        side="japanese", text="Banzai",
    )  # fmt: skip
    names = dict(campaign.sides.values_list("key", "name"))
    assert "japanese (Japanese) wrote in the channel of the Japanese of" in (
        message_words(message, names).body
    )


def test_a_webhook_is_named_by_its_sides_name_not_its_key(campaign: Campaign) -> None:
    """The GM reads it in the notices' list and on a notice's page."""
    side = Webhook.objects.create(campaign=campaign, url="http://hook.test/", side="australian")
    public = Webhook.objects.create(campaign=campaign, url="http://hook.test/")
    assert str(side) == f"{campaign.name} webhook (Australians)"
    assert str(public) == f"{campaign.name} webhook (public)"


def test_a_gm_announcement_naming_a_hidden_company_asks_first(
    campaign: Campaign, aussie: Any, gm_user: Any, login: Any
) -> None:
    """The GM's announcement reaches every side as written: naming the Japanese 3rd
    Company, which the Australians do not see, posts nothing until the GM ticks "Post
    it anyway" for that warning."""
    gm = login(gm_user)
    text = "3rd Company is down with fever in Kilu."

    asked = write(gm, campaign, "announcement", text)

    assert asked.status_code == 400
    shown = html.unescape(asked.content.decode())
    assert (
        "Not posted: this message names the Japanese 3rd Company, which the Australians and "
        "spectators do not see, and its readers read it as written: change it, or tick "
        '"Post it anyway" and press Post again.' in shown
    )
    assert text in shown  # kept in its box
    assert not Message.objects.exists()
    warned = re.search(r'name="warned" value="([^"]*)"', asked.content.decode())
    assert warned is not None
    posted = gm.post(
        f"/campaigns/{campaign.pk}/messages/",
        {
            "channel": "announcement",
            "side": "",
            "text": text,
            "warned": html.unescape(warned.group(1)),
            "reveal": "on",
        },
    )
    assert posted.status_code == 302
    assert Message.objects.get().text == text


def test_a_gm_message_to_a_side_about_its_own_company_is_posted_at_once(
    campaign: Campaign, gm_user: Any, login: Any
) -> None:
    """The Japanese channel is read by the Japanese alone: their own 3rd Company is
    theirs to read of. The same words to the Australians' channel ask first."""
    gm = login(gm_user)
    text = "3rd Company is down with fever."

    assert write(gm, campaign, "side", text, "japanese").status_code == 302
    assert write(gm, campaign, "side", text, "australian").status_code == 400
    assert list(Message.objects.values_list("side", flat=True)) == ["japanese"]


def test_a_player_writes_what_they_like(campaign: Campaign, aussie: Any, login: Any) -> None:
    """A player's words are theirs: only the GM, who sees everything, is asked."""
    answer = write(login(aussie), campaign, "public", "A Company holds Korona.")
    assert answer.status_code == 302


def test_the_maps_empty_messages_box_offers_only_the_boards_the_reader_writes_on(
    campaign: Campaign, aussie: Any, gm_user: Any, django_user_model: Any, login: Any
) -> None:
    """The walk of 7 December 2026: a spectator, who writes on no board, read "Write on
    the public board, which everyone in the campaign reads, or on your side's own
    channel"; so did the GM, who has no side, and a player once the campaign had ended,
    when only the public board takes messages."""
    watcher = django_user_model.objects.create_user("watcher", "w@example.com", "pw")
    Membership.objects.create(user=watcher, campaign=campaign, side=SPECTATOR)
    latest = f"/campaigns/{campaign.pk}/messages/latest/"

    def said(user: Any) -> str:
        text = re.sub(r"<[^>]+>", "", login(user).get(latest).content.decode())
        return " ".join(html.unescape(text).split())

    assert (
        "Write on the public board, which everyone in the campaign reads, or on your side's "
        "own channel." in said(aussie)
    )
    assert "Spectators read the game master's announcements and the public board" in (said(watcher))
    assert "Write" not in said(watcher) and "your side" not in said(watcher)
    assert "Write an announcement, on the public board, or in a side's channel." in said(gm_user)
    campaign.status = Campaign.Status.FINISHED
    campaign.save(update_fields=["status"])
    assert "Write on the public board, which everyone in the campaign reads." in said(aussie)
    assert "own channel" not in said(aussie)
