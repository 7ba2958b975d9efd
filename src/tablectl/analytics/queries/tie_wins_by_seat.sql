-- How often each seat's Tie wager (One Card Poker) wins, against the rate the math gives (about
-- 7.4% of Tie wagers at six decks): a seat far above it is worth a look.
SELECT "table", seat, count(*) AS tie_wagers, count(*) FILTER (WHERE net > 0) AS won,
       count(*) FILTER (WHERE net > 0) / count(*) AS win_rate
FROM bets WHERE bet = 'tie' AND date BETWEEN $from AND $to
GROUP BY ALL ORDER BY win_rate DESC, "table", seat
