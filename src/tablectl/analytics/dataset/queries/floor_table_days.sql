-- The floor report by table and day (the hold plots of --html): the figures of floor_tables per day.
SELECT table_id, date, @floor_rollup
FROM cells
GROUP BY table_id, date
ORDER BY table_id, date
