"""Muster's runtime: the Discord client, configuration, the store and the services every game shares."""
