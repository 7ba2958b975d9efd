-- Shuffle quality per serial number across its shoes, shuffles or loads: each table's latest
-- figure for it (an export analyses everything of the table's log so far), then per serial.
-- A shuffling machine (csm, shuffler) is judged itself; a card-reading shoe shows the quality of
-- the hand shuffles loaded into it. The floor report combines the p-values across tables (Fisher).
WITH latest AS (
    SELECT table_id, serial, kind, model, quality_test, quality_figure, quality_expected, quality_p,
           quality_verdict, quality_samples,
           row_number() OVER (PARTITION BY table_id, serial ORDER BY quality_through_seq DESC) AS n
    FROM shoes WHERE serial IS NOT NULL AND date BETWEEN $from AND $to
),
counts AS (
    SELECT serial, count(*) AS shoes, count(DISTINCT table_id) AS tables, sum(cards_drawn) AS cards
    FROM shoes WHERE serial IS NOT NULL AND date BETWEEN $from AND $to GROUP BY serial
)
SELECT l.serial, any_value(l.kind) AS kind,
       CASE WHEN any_value(l.kind) = 'shoe' THEN 'hand' ELSE 'machine' END AS shuffled_by, any_value(l.model) AS model, c.shoes, c.tables, c.cards,
       any_value(l.quality_test) AS test, avg(l.quality_figure) AS figure, avg(l.quality_expected) AS expected,
       list(l.quality_p ORDER BY l.table_id) FILTER (WHERE l.quality_p IS NOT NULL) AS p_values,
       list(l.quality_verdict ORDER BY l.table_id) AS verdicts, sum(l.quality_samples) AS samples
FROM latest l JOIN counts c USING (serial)
WHERE l.n = 1
GROUP BY l.serial, c.shoes, c.tables, c.cards
ORDER BY l.serial
