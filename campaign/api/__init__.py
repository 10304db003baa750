"""The REST API: the same services and the same visibility rules as the pages."""
