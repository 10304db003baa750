"""Campaign state: no models yet."""
