"""Notices to the players and the GM: email, webhooks, feeds (README.md, "Notifications").

Every notice is written for one reader through the fog of war's one door,
``campaign.services.visibility``; it is recorded once per (recipient, kind, campaign,
turn, reference) before it is sent, so nothing is ever sent twice.
"""
