"""Review of card logs: integrity, round replay, anomalies and shuffle quality."""
