-- first_player_advantage: does starting a round help? Points by place in the turn order.
--
-- Measures: every scored round (rounds ended by forfeits left out), by ruleset, number of
-- players dealt in, and place in the turn order (0 = the round's first player, 1 = the next
-- seat, ...).
--
-- How to read: avg_points is what players in that place scored per round (lower is better);
-- vs_table is that minus the mean of all places at the same table size (negative = an
-- advantage); lowest_rate is how often that place held the round's lowest hand total (ties
-- count for every tied player, so the rates of a table can add up to more than 1); the fair
-- share is 1 / players. called_rate is how often that place called Cabo.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @score-sheets left out: a score sheet need not say who started each round
-- @chart bar x=place y=vs_table series=ruleset,players title="Points per round against the table's mean, by place in the turn order (below 0 = an advantage)"
-- @chart rate x=place y=lowest_rate series=ruleset,players title="How often each place held the lowest hand"
WITH places AS (
    SELECT s.ruleset, r.n_players, s.order_in_round, s.points, s.lowest_total, s.called
    FROM round_scores AS s
    JOIN rounds AS r USING (game_id, round)
    JOIN games AS g USING (game_id)
    WHERE r.end_reason <> 'forfeit'
      AND g.record = 'full'   -- a score sheet need not say who started
      AND ($ruleset IS NULL OR s.ruleset = $ruleset)
),
by_place AS (
    SELECT ruleset, n_players AS players, order_in_round AS place,
           count(*) AS rounds,
           avg(points) AS avg_points,
           avg(CASE WHEN lowest_total THEN 1.0 ELSE 0.0 END) AS lowest_rate,
           avg(CASE WHEN called THEN 1.0 ELSE 0.0 END) AS called_rate
    FROM places
    GROUP BY ruleset, n_players, order_in_round
),
tables AS (
    SELECT ruleset, n_players AS players, avg(points) AS table_points
    FROM places
    GROUP BY ruleset, n_players
)
SELECT b.ruleset, b.players, b.place, b.rounds, b.avg_points,
       b.avg_points - t.table_points AS vs_table,
       b.lowest_rate, 1.0 / b.players AS fair_share, b.called_rate
FROM by_place AS b
JOIN tables AS t USING (ruleset, players)
ORDER BY b.ruleset, b.players, b.place;
