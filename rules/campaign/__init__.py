"""The Korona campaign rules as pure functions over a plain snapshot of a campaign.

``state`` holds the snapshot types, ``scenario`` reads and writes scenario files, and
``turn`` plays the six phases of a turn. Django (``campaign/``) only loads a snapshot,
calls these and saves the outcome.
"""
