INSERT INTO contamination (tuple_id, run_id, benchmark, task_id, ngram, embedding, target_overlap, rule,
                           decision, created_at)
SELECT $tuple_id, (SELECT run_id FROM tuples WHERE task_id = $tuple_id), $benchmark, $task_id, $ngram,
       $embedding, $target_overlap, $rule, $decision, $created_at;
