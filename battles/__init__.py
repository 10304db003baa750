"""Battles: stored tactical battles, played by the rules engine in rules/."""
