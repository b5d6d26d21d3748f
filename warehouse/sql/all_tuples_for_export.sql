-- One row per tuple with its spec and final scripts: the Parquet export of the whole dataset.
SELECT s.task_id, s.run_id, s.family, s.template, s.apps, s.platform, s.domain, s.difficulty,
       s.scenario, s.persona, s.taxonomy_leaf, s.seed, s.instruction, s.spec,
       t.status, t.attempt, t.rounds, t.reward_initial, t.reward_golden, t.reject_reason, t.error,
       t.bundle_path, t.seconds, t.provenance,
       r.initial_setup_py, r.golden_patch_py, r.reward_py, r.review_md
FROM specs s
JOIN tuples t USING (task_id)
LEFT JOIN rounds r ON r.task_id = t.task_id AND r.attempt = t.attempt AND r.round = t.rounds
ORDER BY s.task_id
