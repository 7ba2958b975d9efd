-- The floor report's building block: one row per table, dealer and day within [$from, $to]
-- (dates, inclusive). Every figure is a sum, so tables, dealers and days roll up from it.
-- bank: who banks the game (game_banks: "house", or "player": a Designated Player or player-dealer).
-- win: the bank's result (house or player-dealer) = minus the players' net, cents.
-- handle: the initial wagers settled (bets a decision adds - Play, War, Raise - are not handle;
-- nor bets returned as no-action). The bets of voided rounds are left out.
-- judged_*: the wagers tablectl.gamemath analyses (wager_math.edge not null; under a limit to the
-- bank's stake, only in rounds whose stake covers the most the bank could pay): their win, the
-- expected win (stake x house edge) and its exact variance: the rounds' variances, each the sum of
-- stake^2 x variance per unit over its wagers and stake_i x stake_j x covariance per unit over
-- every two of its wagers (one seat's, or two seats' of the round: wager_cov).
-- theo_*: the rounds whose theoretical win from the play made is known (rounds.theo_win): their
-- theoretical win, handle and number; theo_judged_*: the rounds whose spread about it is known too
-- (rounds.theo_var): their win, theoretical win and summed theo_var.
WITH b AS (
    SELECT bets.*, CASE WHEN m.stake_limited AND EXISTS (SELECT 1 FROM stake_binds s WHERE s.table_id = bets.table_id AND s.round_id = bets.round_id) THEN NULL ELSE m.edge END AS edge, m.variance
    FROM bets
    LEFT JOIN wager_math m USING (game, decks, rules_id, wager)
    WHERE bets.date BETWEEN $from AND $to
      AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = bets.table_id AND v.round_id = bets.round_id
                      AND v.status = 'voided')
),
money AS (
    SELECT table_id, game, coalesce(dealer, '(none)') AS dealer, date,
           sum(stake) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action') AS handle,
           sum(-net) AS win,
           sum(stake) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS judged_handle,
           sum(-net) FILTER (WHERE edge IS NOT NULL) AS judged_win,
           sum(stake * edge) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS expected_win,
           sum(stake::DOUBLE * stake * variance) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS variance
    FROM b GROUP BY ALL
),
initial AS (
    SELECT table_id, round_id, game, decks, rules_id, coalesce(dealer, '(none)') AS dealer, date, seat, wager, stake
    FROM b WHERE bet = wager AND edge IS NOT NULL AND outcome IS DISTINCT FROM 'no-action'
),
pairs AS (
    SELECT i.table_id, i.game, i.dealer, i.date, sum(i.stake::DOUBLE * j.stake * c.covariance) AS covariance
    FROM initial i
    JOIN initial j ON j.table_id = i.table_id AND j.round_id = i.round_id AND (j.seat <> i.seat OR j.wager <> i.wager)
    JOIN wager_cov c ON c.game = i.game AND c.decks = i.decks AND c.rules_id = i.rules_id AND c.wager_a = i.wager
         AND c.wager_b = j.wager AND c.seats = CASE WHEN i.seat = j.seat THEN 'same' ELSE 'other' END
    GROUP BY ALL
),
shoe_pen AS (  -- the deepest card of each shoe, per dealer and day that dealt from it
    SELECT table_id, coalesce(dealer, '(none)') AS dealer, date, session, shoe, max(penetration) AS pen
    FROM rounds WHERE date BETWEEN $from AND $to AND penetration IS NOT NULL GROUP BY ALL
),
play AS (
    SELECT table_id, game, coalesce(dealer, '(none)') AS dealer, date,
           count(*) AS rounds,
           count(*) FILTER (WHERE status = 'complete') AS complete,
           sum(violations) AS violations, sum(holds) AS holds,
           count(*) FILTER (WHERE settlement = 'mismatch') AS mismatches,
           sum(theo_win) AS theo_win, sum(handle) FILTER (WHERE theo_win IS NOT NULL) AS theo_handle,
           count(theo_win) AS theo_rounds,
           sum(win) FILTER (WHERE theo_var IS NOT NULL) AS theo_judged_win,
           sum(theo_win) FILTER (WHERE theo_var IS NOT NULL) AS theo_judged_theo,
           sum(theo_var) AS theo_var, count(theo_var) AS theo_var_rounds
    FROM rounds WHERE date BETWEEN $from AND $to GROUP BY ALL
),
pen AS (
    SELECT table_id, dealer, date, sum(pen) AS pen_sum, count(*) AS pen_n FROM shoe_pen GROUP BY ALL
),
flt AS (
    SELECT r.table_id, coalesce(r.dealer, '(none)') AS dealer, r.date, count(*) AS faults
    FROM faults f JOIN rounds r ON f.table_id = r.table_id AND f.ts BETWEEN r.start_ts AND r.end_ts
    WHERE r.date BETWEEN $from AND $to GROUP BY ALL
)
SELECT play.*, coalesce(gb.bank, 'house') AS bank, coalesce(money.handle, 0) AS handle, coalesce(money.win, 0) AS win,
       coalesce(money.judged_handle, 0) AS judged_handle, coalesce(money.judged_win, 0) AS judged_win,
       coalesce(money.expected_win, 0) AS expected_win, coalesce(money.variance, 0) + coalesce(pairs.covariance, 0) AS variance,
       coalesce(flt.faults, 0) AS faults, coalesce(pen.pen_sum, 0) AS pen_sum, coalesce(pen.pen_n, 0) AS pen_n
FROM play
LEFT JOIN money USING (table_id, game, dealer, date)
LEFT JOIN pairs USING (table_id, game, dealer, date)
LEFT JOIN pen USING (table_id, dealer, date)
LEFT JOIN flt USING (table_id, dealer, date)
LEFT JOIN game_banks gb USING (game)
