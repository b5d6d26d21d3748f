-- The Parquet export with bundle paths under a staging folder ({local}) rewritten to where the
-- bundles were published ({published}): a template filled by Warehouse.export_parquet.
SELECT * REPLACE (
    CASE WHEN starts_with(bundle_path, {local})
         THEN {published} || substr(bundle_path, length({local}) + 1)
         ELSE bundle_path END AS bundle_path
)
FROM ({query})
