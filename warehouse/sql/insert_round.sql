INSERT INTO rounds (task_id, attempt, round, verdict, reject_reason, reward_initial, reward_golden,
                    conditions, review, review_md, timings, initial_setup_py, golden_patch_py,
                    reward_py, started_at, mutation_units, mutation_total, mutation_killed,
                    mutation_skipped, mutation_truncated, mutation_error)
VALUES ($task_id, $attempt, $round, $verdict, $reject_reason, $reward_initial, $reward_golden,
        $conditions, $review, $review_md, $timings, $initial_setup_py, $golden_patch_py,
        $reward_py, $started_at, $mutation_units, $mutation_total, $mutation_killed,
        $mutation_skipped, $mutation_truncated, $mutation_error);
