"""Pure game logic and rules data: no discord, no database, randomness injected."""
