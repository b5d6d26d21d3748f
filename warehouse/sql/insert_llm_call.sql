-- attempt: the tuple's current attempt when the call is recorded (calls happen inside it).
INSERT INTO llm_calls (call_id, run_id, task_id, attempt, round, step, role, model, status, error_kind,
                       error, try_no, input_tokens, cached_input_tokens, output_tokens, cost_usd, latency_s, started_at)
VALUES ($call_id, $run_id, $task_id,
        coalesce($attempt, (SELECT attempt FROM tuples WHERE task_id = $task_id)),
        $round, $step, $role, $model, $status, $error_kind, $error, $try_no, $input_tokens, $cached_input_tokens,
        $output_tokens, $cost_usd, $latency_s, $started_at)
ON CONFLICT (call_id) DO NOTHING;
