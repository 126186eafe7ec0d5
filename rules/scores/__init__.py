"""Scores and leagues, the pure part: results, ratings, standings, history, export and entry checks.

Everything here is a function of a list of `ResultRecord`s; the bot's score service loads them from
the store and lays them out for Discord (bot/scores/), and nothing here knows about either.
"""

from rules.scores.export import COLUMNS, CsvError, parse_csv, to_csv, to_csv_bytes
from rules.scores.model import (
    MAX_SCORE,
    ResultRecord,
    ResultStatus,
    check_manual_entry,
    confirmed_in_order,
    record_from_outcome,
    winner_from_scores,
)
from rules.scores.ratings import INITIAL, Rating, RatingBook, RatingChange, RatingLedger, replay
from rules.scores.standings import HeadToHead, PlayerSummary, Standing, history, player_summary, standings

__all__ = [
    "COLUMNS",
    "INITIAL",
    "MAX_SCORE",
    "CsvError",
    "HeadToHead",
    "PlayerSummary",
    "Rating",
    "RatingBook",
    "RatingChange",
    "RatingLedger",
    "ResultRecord",
    "ResultStatus",
    "Standing",
    "check_manual_entry",
    "confirmed_in_order",
    "history",
    "parse_csv",
    "player_summary",
    "record_from_outcome",
    "replay",
    "standings",
    "to_csv",
    "to_csv_bytes",
    "winner_from_scores",
]
