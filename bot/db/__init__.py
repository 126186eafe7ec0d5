"""The store: engine, models and one small repository per aggregate. The only place that speaks SQL."""
