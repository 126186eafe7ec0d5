"""Tests of the cogs, mirroring cogs/: one package per game and feature."""
