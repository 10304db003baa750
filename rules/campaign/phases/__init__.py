"""The phases of a Korona campaign turn, one module each, in the order
``rules.campaign.turn`` plays them (its ``START_PHASES`` and ``FINISH_PHASES``): the
naval and aerial ``events``, ``supply``, ``initiative``, ``movement``, the pairing of the
``battles``, then, once they are fought, their ``results``, ``control`` and the ``end``.
Each phase reads and adds to one ``common.TurnInPlay``."""
