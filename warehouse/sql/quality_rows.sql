SELECT * FROM quality WHERE run_id = $run_id ORDER BY family, seed;
