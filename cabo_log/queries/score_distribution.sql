-- score_distribution: the spread of hand totals, round points and final scores, by ruleset.
--
-- Measures, one row per (ruleset, measure):
--   hand_total   - every scored player's hand total at the end of a round;
--   round_points - the points they scored for that round (after Cabo, Kamikaze, ...);
--   final_score  - match totals of finished games, players who forfeited left out.
-- Rounds that ended because players forfeited are unscored and left out.
--
-- How to read: percentiles are nearest-rank (p50 is a value that occurred: the smallest value
-- with at least half of the data at or below it). histogram maps each bucket's lower bound to
-- the number of values in [bound, bound + $bucket). Compare rulesets: a lower median
-- round_points means that ruleset's rounds are cheaper; a long right tail means costly failures.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @param bucket int 1..1000 default 5  width of the histogram buckets
-- @score-sheets counted
-- @chart box x=measure y=p10,p25,p50,p75,p90 series=ruleset title="Hand totals, round points and final scores (box: p25 to p75, line: median, whiskers: p10 to p90)"
-- @chart histogram y=histogram series=ruleset where=measure:round_points title="Points scored in a round"
-- @chart histogram y=histogram series=ruleset where=measure:final_score title="Final scores of finished games"
WITH scored AS (
    SELECT s.ruleset, s.total, s.points
    FROM round_scores AS s
    JOIN rounds AS r USING (game_id, round)
    WHERE r.end_reason <> 'forfeit'
      AND ($ruleset IS NULL OR s.ruleset = $ruleset)
),
data AS (
    SELECT ruleset, 'hand_total' AS measure, 0 AS measure_order, total AS x FROM scored
    UNION ALL
    SELECT ruleset, 'round_points', 1, points FROM scored
    UNION ALL
    SELECT p.ruleset, 'final_score', 2, p.final_score
    FROM game_players AS p
    JOIN games AS g USING (game_id)
    WHERE g.complete AND NOT p.forfeited
      AND ($ruleset IS NULL OR p.ruleset = $ruleset)
)
SELECT ruleset, measure,
       count(*) AS n,
       avg(x) AS mean,
       min(x) AS min,
       quantile_disc(x, 0.10) AS p10,
       quantile_disc(x, 0.25) AS p25,
       quantile_disc(x, 0.50) AS p50,
       quantile_disc(x, 0.75) AS p75,
       quantile_disc(x, 0.90) AS p90,
       max(x) AS max,
       histogram(floor(x / $bucket)::INTEGER * $bucket) AS histogram
FROM data
GROUP BY ruleset, measure, measure_order
ORDER BY ruleset, measure_order;
