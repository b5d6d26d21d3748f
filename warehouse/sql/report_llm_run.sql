-- The LLM calls of one run per role and model (what `cuagym synth --local-model` ends with): the
-- columns of view llm_by_role, over the run's calls only.
SELECT *
FROM llm_usage($run)
ORDER BY input_tokens DESC, role, model;
