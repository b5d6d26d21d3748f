-- Mutation score per family (and its primary app) over the tuples that reached the stage, for one
-- run or ($run_id NULL) every run: killed / total, how many tuples had a surviving mutant, how many
-- planned mutants were skipped, and how many tuples' stage could not test the reward.
SELECT family, app, count(*) AS tuples, sum(mutants) AS mutants, sum(killed) AS killed,
       sum(killed) / nullif(sum(mutants), 0) AS mutation_score,
       count(*) FILTER (WHERE survived > 0) AS tuples_with_survivors,
       sum(skipped) AS skipped, sum(skipped) / nullif(sum(mutants) + sum(skipped), 0) AS skipped_share,
       count(*) FILTER (WHERE mutation_error IS NOT NULL) AS stage_errors
FROM mutation_by_tuple
WHERE $run_id IS NULL OR run_id = $run_id
GROUP BY family, app
ORDER BY mutation_score NULLS LAST, family;
