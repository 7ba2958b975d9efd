-- The rules each table played under, per day: the rules id (the registry _manifests/_rules.json
-- says what it stands for), its rounds and the log lines they span. cover_may_bind: its rounds
-- where a limit to the bank's stake could change the settlement (cover_binds true, or unknown in
-- files written before the column); it matters only where the rules limit payouts to the stake.
SELECT table_id, date, game, decks, rules_id, count(*) AS rounds, min(start_seq) AS seq_from,
       max(end_seq) AS seq_to, arg_min(round_id, start_seq) AS first_round, arg_max(round_id, end_seq) AS last_round,
       count(*) FILTER (WHERE cover_binds IS NOT FALSE) AS cover_may_bind
FROM rounds
WHERE date BETWEEN $from AND $to AND game IS NOT NULL
GROUP BY ALL
ORDER BY table_id, date, seq_from
