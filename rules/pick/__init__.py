"""Pick: the smallest whole game, the worked example of docs/NEW_GAME.md.

Both players pick a number in secret (1 to the pack's highest, 3 in the shipped pack); the higher
pick wins, equal picks draw. Either player may call the game a draw before the reveal, which takes
the other's Confirm. It is played through the same platform code as the real games, and is loaded
only by the tests (bot/app.py leaves it out of a real server).

- `models.py`: the state and the pack's shape.
- `actions.py`: what a player does (pick, call a draw, answer the call).
- `events.py`: what happened, beside the sealed round's own events.
- `pack.py`: the shipped pack (`data/pack.yaml`) and a server's own, read by rules/packs.py.
- `procedure.py`: `start`, `step`, who is awaited, and `PROCEDURE`.
- `questions.py`: what each player is asked, and an answer as an action.
- `views.py`: read-only facts for the board.
"""
