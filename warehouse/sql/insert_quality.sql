INSERT OR REPLACE INTO quality (run_id, family, app, seed, task_id, reward_initial, reward_golden, mistakes,
                                mistakes_told, mutants, killed, skipped, survivors, error, teacher_ran,
                                teacher_passed, teacher_error, mutation_s, teacher_s, created_at)
VALUES ($run_id, $family, $app, $seed, $task_id, $reward_initial, $reward_golden, $mistakes, $mistakes_told,
        $mutants, $killed, $skipped, $survivors, $error, $teacher_ran, $teacher_passed, $teacher_error,
        $mutation_s, $teacher_s, $created_at);
