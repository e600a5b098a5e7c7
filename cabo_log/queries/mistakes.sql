-- mistakes: who gives points away where, from `load --analyse` (the decisions table).
--
-- Measures: every analysed decision (a move chosen among several legal ones, evaluated from
-- the deciding player's own knowledge by bots playing the round on; see docs/analysis.md),
-- grouped by ruleset, player and decision kind (draw = deck, discard or Cabo at the start of a
-- turn; place = discard the held card or which positions it replaces; power = use a power,
-- and on which card, or skip it).
--
-- How to read: avg_loss is the mean of the expected round points a decision gave away against
-- the best option found (0 = always the best); blunders (??), mistakes (?) and dubious (?!)
-- count the marked decisions; accuracy is the mean per-decision accuracy in percent (100 for
-- the best move, 37 for 5 points given away). Empty until `cabo-log load --analyse` ran.
--
-- @param ruleset text from games.ruleset default null  only games of this ruleset (default: every ruleset)
-- @param player text default null  only this player (default: every player)
-- @score-sheets left out: a score sheet records no decisions to analyse
-- @chart bar x=player y=avg_loss series=kind title="Expected points given away per decision, by player and kind of decision"
-- @chart bar x=player y=blunders series=kind title="Blunders (??) by player and kind of decision"
SELECT ruleset,
       player,
       kind,
       count(*) AS decisions,
       round(avg(loss), 2) AS avg_loss,
       round(sum(loss), 1) AS total_loss,
       count(*) FILTER (WHERE mark = '??') AS blunders,
       count(*) FILTER (WHERE mark = '?') AS mistakes,
       count(*) FILTER (WHERE mark = '?!') AS dubious,
       round(avg(accuracy), 1) AS accuracy
FROM decisions
WHERE ($ruleset IS NULL OR ruleset = $ruleset)
  AND ($player IS NULL OR player = $player)
GROUP BY ruleset, player, kind
ORDER BY ruleset, player, kind;
