-- How many non-rejected specs the warehouse holds per coverage cell (the sampler's history).
WITH live AS (
    SELECT s.* FROM specs s LEFT JOIN tuples t USING (task_id)
    WHERE coalesce(t.status, 'pending') <> 'rejected'
)
SELECT 'app' AS dim, value, count(*) AS n FROM (SELECT unnest(apps) AS value FROM live) GROUP BY ALL
UNION ALL SELECT 'domain', domain, count(*) FROM live GROUP BY ALL
UNION ALL SELECT 'difficulty', difficulty, count(*) FROM live GROUP BY ALL
UNION ALL SELECT 'leaf', taxonomy_leaf, count(*) FROM live GROUP BY ALL
UNION ALL SELECT 'family', family, count(*) FROM live GROUP BY ALL;
