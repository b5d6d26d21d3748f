-- LLM usage of one tuple, all attempts and roles together (cache hits cost nothing but are counted).
SELECT count(*) FILTER (WHERE status IN ('ok', 'cached'))   AS calls,
       count(*) FILTER (WHERE status IN ('retry', 'error')) AS failed_tries,
       count(*) FILTER (WHERE status = 'cached')            AS cached,
       coalesce(sum(input_tokens), 0)                       AS input_tokens,
       coalesce(sum(cached_input_tokens), 0)                AS cached_input_tokens,
       coalesce(sum(output_tokens), 0)                      AS output_tokens,
       sum(cost_usd)                                        AS cost_usd,
       coalesce(sum(latency_s), 0)                          AS latency_s
FROM llm_calls WHERE task_id = $task_id;
