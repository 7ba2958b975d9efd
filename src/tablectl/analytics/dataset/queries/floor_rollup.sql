-- The figures every floor roll-up gives for a group of cells (written @floor_rollup in a query):
-- rounds, handle, win, hold; on the wagers the game math analyses, their hold, the expected hold
-- and its exact standard deviation, z (win below expected: negative); violations and holds per 100
-- rounds, settlement mismatches, device faults, mean penetration (deepest card per shoe); the
-- theoretical win from the play made (theo_win, over theo_rounds rounds) and the players' edge as
-- played (minus theo_win over those rounds' handle); over the rounds whose spread about theo is
-- known (theo_var_rounds), at house-banked tables only: theo_sd, the root of their summed theo_var,
-- and theo_z, their win minus their theo over theo_sd (either side is a finding: see floor_theo).
-- A player bank's limited stake caps what it pays, so its expected result is not theo_win.
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
sum(pen_sum) / nullif(sum(pen_n), 0) AS penetration,
sum(theo_win) AS theo_win, sum(theo_rounds) AS theo_rounds,
-sum(theo_win) / nullif(sum(theo_handle), 0) AS edge_as_played,
sum(theo_var_rounds) FILTER (WHERE bank = 'house') AS theo_var_rounds,
sqrt(sum(theo_var) FILTER (WHERE bank = 'house')) AS theo_sd,
(sum(theo_judged_win) FILTER (WHERE bank = 'house') - sum(theo_judged_theo) FILTER (WHERE bank = 'house'))
  / nullif(sqrt(sum(theo_var) FILTER (WHERE bank = 'house')), 0) AS theo_z
