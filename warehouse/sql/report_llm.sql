-- `cuagym report llm`: LLM calls per role and model (view llm_by_role), most input tokens first.
SELECT *
FROM llm_by_role
WHERE $role IS NULL OR role = $role
ORDER BY input_tokens DESC, role, model;
