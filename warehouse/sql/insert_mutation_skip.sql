INSERT INTO mutation_skips (task_id, attempt, round, mutant_id, path, why)
VALUES ($task_id, $attempt, $round, $mutant, $path, $why);
