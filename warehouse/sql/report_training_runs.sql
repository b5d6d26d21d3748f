-- Every training run with its totals, newest start first (what `cuagym report training` can show):
-- the view training_run_totals, so the report and `cuagym sql` give the same figures.
SELECT * FROM training_run_totals
ORDER BY started_at DESC, run_id;
