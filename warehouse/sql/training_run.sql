SELECT run_id, kind, model, output_dir, status, resumed_from, samples, dropped, summary
FROM training_runs WHERE run_id = $run_id;
