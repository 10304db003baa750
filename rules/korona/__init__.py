"""The Korona ("WWII in the Pacific") tactical rules."""
