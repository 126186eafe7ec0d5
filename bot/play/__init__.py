"""The game platform every game cog shares: the registry of games, sessions and their steps,
the table each player sees, questions, the game cog base, dice, packs and quiet-game reminders."""
