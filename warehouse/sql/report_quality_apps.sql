-- `cuagym report quality`'s per-app summary (or one app's row).
SELECT *
FROM quality_by_app
WHERE $app IS NULL OR app = $app
ORDER BY app;
