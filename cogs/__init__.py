"""One cog per game system plus shared ones: thin adapters from interactions to rules and store."""
