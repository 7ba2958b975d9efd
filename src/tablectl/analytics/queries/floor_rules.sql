-- The rules each table played under, per day: the rules id (the registry _manifests/_rules.json
-- says what it stands for), its rounds and the log lines they span.
SELECT "table", date, game, decks, rules_id, count(*) AS rounds, min(start_seq) AS seq_from,
       max(end_seq) AS seq_to, min(round_id) AS first_round, max(round_id) AS last_round
FROM rounds
WHERE date BETWEEN $from AND $to AND game IS NOT NULL
GROUP BY ALL
ORDER BY "table", date, seq_from
