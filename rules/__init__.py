"""Korona's rules: the tactical battle rule sets and (later) the campaign rules.

Plain Python with no Django import anywhere below this package (an import-linter
contract enforces it), so every rule can be run and tested without a database.
"""
