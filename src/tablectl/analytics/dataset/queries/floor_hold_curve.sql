-- The hold through the day per table (the --html plot): after each round that ended, the table's
-- win over its handle so far that day. Voided rounds are left out.
SELECT table_id, date, end_ts,
       sum(win) OVER day_so_far / nullif(sum(handle) OVER day_so_far, 0) AS hold
FROM rounds
WHERE date BETWEEN $from AND $to AND end_ts IS NOT NULL AND status <> 'voided'
WINDOW day_so_far AS (PARTITION BY table_id, date ORDER BY end_ts ROWS UNBOUNDED PRECEDING)
ORDER BY table_id, date, end_ts
