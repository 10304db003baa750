"""The battle kernel: what every rule set's battle shares.

- ``state``: the two forces and the battle state (the roster, the losses, the log);
- ``battle``: the driver (terrain, deployment, the turns, the end and the result) and
  withdrawal;
- ``oldbreed``: the Old Breed options (Combat Events, the Fog of War cup, Area of Control)
  applied to any rule set's pieces, over the rules themselves in ``rules.oldbreed``.

A rule set (``rules.korona``, ``rules.forceonforce``) subclasses the state and supplies
only what differs: its pieces, its phases, its deployment and its event effects. The
kernel imports neither rule set.
"""
