"""Tests of what the Warcry cog shows: its words in every language, its refusals and messages."""
