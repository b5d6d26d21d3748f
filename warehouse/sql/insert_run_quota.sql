INSERT INTO run_quotas (run_id, quota, asked, effective, feasible, why)
VALUES ($run_id, $quota, $asked, $effective, $feasible, $why)
ON CONFLICT (run_id, quota) DO UPDATE SET asked = excluded.asked, effective = excluded.effective,
    feasible = excluded.feasible, why = excluded.why;
