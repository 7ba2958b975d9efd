-- The floor report by day, the house's own games (house-banked): rounds, handle, win, hold; on the
-- wagers the game math analyses, their hold, the expected hold and its exact standard deviation, z
-- (win below expected: negative); violations and holds per 100 rounds, device faults, mean
-- penetration (deepest card per shoe). Player-banked tables apart (player_bank_*: the rounds,
-- handle and the banks' result there, never part of the house's win).
WITH house AS (SELECT * FROM cells WHERE bank = 'house'),
player AS (
    SELECT date, sum(rounds) AS player_bank_rounds, sum(handle) AS player_bank_handle, sum(win) AS player_bank_win
    FROM cells WHERE bank = 'player' GROUP BY date
),
days AS (
    SELECT date, @floor_rollup
    FROM house
    GROUP BY date
)
SELECT date, days.* EXCLUDE (date), coalesce(player_bank_rounds, 0) AS player_bank_rounds,
       coalesce(player_bank_handle, 0) AS player_bank_handle, coalesce(player_bank_win, 0) AS player_bank_win
FROM (SELECT DISTINCT date FROM cells) d LEFT JOIN days USING (date) LEFT JOIN player USING (date)
ORDER BY z NULLS LAST, date
