"""Battle state: no models yet."""
