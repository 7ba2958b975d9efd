-- Each player the pit entered (the `player` column of bets and decisions), over every table and
-- seat he sat at: the tables and rounds he played, his handle, what the house expects to win from
-- his wagers and the decisions he made (theo_win, as floor_seats: NULL when a decision of his is not
-- valued), what the house won (win) and his edge as played (-theo_win / handle). Bets returned as
-- no-action and the bets of voided rounds are no handle. Rows with no player entered are left out.
WITH b AS (
    SELECT bets.*, CASE WHEN m.stake_limited AND EXISTS (SELECT 1 FROM stake_binds s WHERE s.table_id = bets.table_id AND s.round_id = bets.round_id) THEN NULL ELSE m.edge END AS edge FROM bets LEFT JOIN wager_math m USING (game, decks, rules_id, wager)
    WHERE bets.date BETWEEN $from AND $to AND bets.player IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = bets.table_id AND v.round_id = bets.round_id AND v.status = 'voided')
),
judged AS (
    SELECT d.player, sum(d.cost) AS cost, count(*) FILTER (WHERE d.cost IS NULL) AS unjudged
    FROM decisions d
    WHERE d.date BETWEEN $from AND $to AND NOT d.banker AND d.player IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM rounds v WHERE v.table_id = d.table_id AND v.round_id = d.round_id AND v.status = 'voided')
    GROUP BY ALL
),
player AS (
    SELECT player,
           count(DISTINCT table_id) AS tables,
           count(DISTINCT (table_id, round_id)) AS rounds,
           sum(stake) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action') AS handle,
           sum(net) AS player_net,
           -sum(stake * edge) FILTER (WHERE bet = wager AND outcome IS DISTINCT FROM 'no-action' AND edge IS NOT NULL) AS expected_player_net
    FROM b GROUP BY ALL
)
SELECT p.player, p.tables, p.rounds, p.handle, p.player_net, p.expected_player_net,
       CASE WHEN coalesce(j.unjudged, 0) = 0 THEN -p.expected_player_net + coalesce(j.cost, 0) END AS theo_win,
       -p.player_net AS win,
       (p.expected_player_net - coalesce(j.cost, 0)) / nullif(p.handle, 0) * CASE WHEN coalesce(j.unjudged, 0) = 0 THEN 1 END AS edge_as_played
FROM player p LEFT JOIN judged j USING (player)
ORDER BY p.player
