-- cuagym report contamination: the share of checked tuples contaminated, per app and family.
SELECT * FROM contamination_by_family
WHERE $app IS NULL OR list_contains(string_split(app, '+'), $app)
ORDER BY contaminated_share DESC, checked DESC, app, family;
