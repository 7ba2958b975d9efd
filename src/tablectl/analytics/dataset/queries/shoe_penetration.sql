-- Penetration per table and day: shoes, the mean and deepest card dealt before the shuffle.
SELECT table_id, date, count(*) AS shoes, avg(max_penetration) AS mean_penetration, max(max_penetration) AS deepest
FROM shoes WHERE date BETWEEN $from AND $to AND max_penetration IS NOT NULL
GROUP BY ALL ORDER BY table_id, date
