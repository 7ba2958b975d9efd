-- The floor report by table and day (the hold plots of --html): the figures of floor_tables per day.
SELECT table_id, date,
       sum(rounds) AS rounds, sum(handle) AS handle, sum(win) AS win,
       sum(win) / nullif(sum(handle), 0) AS hold,
       sum(judged_handle) AS judged_handle, sum(judged_win) AS judged_win, sum(expected_win) AS expected_win,
       sum(judged_win) / nullif(sum(judged_handle), 0) AS judged_hold,
       sum(expected_win) / nullif(sum(judged_handle), 0) AS expected_hold,
       sqrt(sum(variance)) AS win_sd,
       (sum(judged_win) - sum(expected_win)) / nullif(sqrt(sum(variance)), 0) AS z,
       100.0 * sum(violations) / sum(rounds) AS violations_per_100,
       100.0 * sum(holds) / sum(rounds) AS holds_per_100,
       sum(mismatches) AS settlement_mismatches, sum(faults) AS faults,
       sum(pen_sum) / nullif(sum(pen_n), 0) AS penetration
FROM cells
GROUP BY table_id, date
ORDER BY table_id, date
