-- round_length: how long rounds last and how they end, by ruleset and table size.
--
-- Measures: every finished round, by ruleset and the number of players dealt in.
--
-- How to read: turns counts the turns started in the round (a Cabo call is a turn; snaps are
-- not). median and p90 are nearest-rank percentiles. The *_ends columns count how rounds
-- ended: by Cabo (its final turns played), by the empty deck (edition2), or by forfeits
-- (online). avg_reshuffles is the mean number of times the discard pile became the deck.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @score-sheets left out: a score sheet records no turns
-- @chart bar x=players y=avg_turns series=ruleset title="Mean turns per round, by table size"
-- @chart bar x=ruleset y=cabo_ends,deck_empty_ends,forfeit_ends stack=true title="How rounds end"
SELECT ruleset,
       n_players AS players,
       count(*) AS rounds,
       avg(turns) AS avg_turns,
       quantile_disc(turns, 0.5) AS median_turns,
       quantile_disc(turns, 0.9) AS p90_turns,
       max(turns) AS max_turns,
       count(*) FILTER (WHERE end_reason = 'cabo') AS cabo_ends,
       count(*) FILTER (WHERE end_reason = 'deck_empty') AS deck_empty_ends,
       count(*) FILTER (WHERE end_reason = 'forfeit') AS forfeit_ends,
       avg(reshuffles) AS avg_reshuffles
FROM rounds
WHERE ($ruleset IS NULL OR ruleset = $ruleset)
  AND game_id IN (SELECT game_id FROM games WHERE record = 'full')   -- score sheets: no turns
GROUP BY ruleset, n_players
ORDER BY ruleset, players;
