INSERT INTO mutants (task_id, attempt, round, mutant_id, base, kind, unit_kind, path, what, score, outcome, error)
VALUES ($task_id, $attempt, $round, $id, $base, $kind, $unit_kind, $path, $what, $score, $outcome, $error);
