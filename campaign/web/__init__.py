"""The players' pages: server-rendered, htmx for the live parts (README.md: "Pages").

Every view reads its campaign through ``campaign.services.visibility``, the one place
that decides what a side may see; ``campaign.web.common.campaign_view`` is the door."""
