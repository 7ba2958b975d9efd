-- Violations and holds per 100 rounds by dealer, worst first.
SELECT coalesce(dealer, '(none)') AS dealer, count(*) AS rounds, sum(violations) AS violations,
       100.0 * sum(violations) / count(*) AS violations_per_100, 100.0 * sum(holds) / count(*) AS holds_per_100
FROM rounds WHERE date BETWEEN $from AND $to
GROUP BY ALL ORDER BY violations_per_100 DESC, dealer
