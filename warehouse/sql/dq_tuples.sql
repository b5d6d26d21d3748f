-- The frame the data-quality suites validate: one row per tuple with its spec fields.
SELECT s.task_id, s.instruction, s.apps, s.platform, s.domain, s.difficulty, s.scenario, s.family,
       t.status, t.rounds, t.reward_initial, t.reward_golden, t.bundle_path
FROM specs s JOIN tuples t USING (task_id)
ORDER BY s.task_id;
