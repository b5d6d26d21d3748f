-- Analyst views. Re-created on every migration so they always match the code.
CREATE OR REPLACE VIEW tuple_status AS
SELECT s.task_id, s.apps, s.platform, s.domain, s.difficulty, s.family, s.template,
       coalesce(t.status, 'pending') AS status, coalesce(t.rounds, 0) AS rounds,
       t.reward_initial, t.reward_golden, t.reject_reason, t.attempt, s.run_id, t.bundle_path,
       t.seconds, s.instruction
FROM specs s LEFT JOIN tuples t USING (task_id);

CREATE OR REPLACE VIEW round_log AS
SELECT task_id, attempt, round, verdict, reject_reason, reward_initial, reward_golden,
       CAST(json_extract(timings, '$.total_s') AS DOUBLE) AS seconds, started_at
FROM rounds;

-- LLM usage per tuple (all attempts and roles): the paper reports ~10k input + 5k output tokens
-- per accepted tuple; compare with `SELECT avg(input_tokens) FROM tuple_llm_usage WHERE status = …`.
CREATE OR REPLACE VIEW tuple_llm_usage AS
SELECT c.task_id, any_value(t.status) AS status,
       count(*) FILTER (WHERE c.status IN ('ok', 'cached')) AS calls,
       count(*) FILTER (WHERE c.status IN ('retry', 'error')) AS failed_tries,
       sum(c.input_tokens) AS input_tokens, sum(c.cached_input_tokens) AS cached_input_tokens,
       sum(c.output_tokens) AS output_tokens,
       sum(c.cost_usd) AS cost_usd, sum(c.latency_s) AS latency_s
FROM llm_calls c LEFT JOIN tuples t USING (task_id)
WHERE c.task_id IS NOT NULL
GROUP BY c.task_id;

-- Per role and model: where the tokens and the failures go.
CREATE OR REPLACE VIEW llm_usage_by_role AS
SELECT role, model, status, count(*) AS tries, sum(input_tokens) AS input_tokens,
       sum(output_tokens) AS output_tokens, sum(cost_usd) AS cost_usd, avg(latency_s) AS mean_latency_s
FROM llm_calls GROUP BY ALL;

-- LLM calls per role and model (`cuagym report llm`): answered calls, tries that failed, the local
-- response cache's hits, input tokens with the share the provider's prompt cache served, output
-- tokens, cost and latency percentiles over the answered calls (cache hits take no time: left out).
-- llm_usage(run) is the same over one run's calls (NULL: every run).
CREATE OR REPLACE MACRO llm_usage(run) AS TABLE
SELECT role, model,
       count(*) FILTER (WHERE status IN ('ok', 'cached')) AS calls,
       count(*) FILTER (WHERE status IN ('retry', 'error')) AS failed_tries,
       count(*) FILTER (WHERE status = 'cached') AS response_cache_hits,
       coalesce(sum(input_tokens), 0) AS input_tokens,
       coalesce(sum(cached_input_tokens), 0) AS cached_input_tokens,
       coalesce(sum(input_tokens) - sum(cached_input_tokens), 0) AS uncached_input_tokens,
       sum(cached_input_tokens) / nullif(sum(input_tokens), 0) AS prompt_cache_share,
       coalesce(sum(output_tokens), 0) AS output_tokens,
       sum(cost_usd) AS cost_usd,
       quantile_cont(latency_s, 0.5) FILTER (WHERE status = 'ok') AS latency_p50_s,
       quantile_cont(latency_s, 0.95) FILTER (WHERE status = 'ok') AS latency_p95_s
FROM llm_calls WHERE run IS NULL OR run_id = run GROUP BY ALL;

CREATE OR REPLACE VIEW llm_by_role AS SELECT * FROM llm_usage(NULL);

-- Coverage of each run's batch against the quotas it was sampled under (run_quotas holds the
-- asked and the effective value after the feasibility check). One row per (run, dimension, value).
CREATE OR REPLACE VIEW coverage AS
WITH batch AS (
    SELECT r.run_id, s.*, coalesce(t.status, 'pending') AS status
    FROM run_tasks r JOIN specs s USING (task_id) LEFT JOIN tuples t USING (task_id)
),
size AS (SELECT run_id, count(*) AS n FROM batch GROUP BY ALL),
cells AS (
    SELECT run_id, 'app' AS dimension, unnest(apps) AS value, status FROM batch
    UNION ALL SELECT run_id, 'domain', domain, status FROM batch
    UNION ALL SELECT run_id, 'difficulty', difficulty, status FROM batch
    UNION ALL SELECT run_id, 'scenario', scenario, status FROM batch
    UNION ALL SELECT run_id, 'platform', platform, status FROM batch
    UNION ALL SELECT run_id, 'scope', CASE WHEN len(apps) > 1 THEN 'cross' ELSE 'single' END, status FROM batch
),
counted AS (
    SELECT run_id, dimension, value, count(*) AS specs,
           count(*) FILTER (status IN ('verified', 'exported')) AS verified
    FROM cells GROUP BY ALL
),
bounds AS (
    SELECT run_id, quota, asked, effective, feasible,
           CASE quota WHEN 'max_app_share' THEN 'app' WHEN 'max_domain_share' THEN 'domain'
                      WHEN 'min_hard_share' THEN 'difficulty' WHEN 'min_cross_app_share' THEN 'scope' END AS dimension,
           CASE quota WHEN 'min_hard_share' THEN 'hard' WHEN 'min_cross_app_share' THEN 'cross' END AS only_value,
           CASE WHEN quota LIKE 'max_%' THEN 'max' ELSE 'min' END AS bound
    FROM run_quotas WHERE quota IN ('max_app_share', 'max_domain_share', 'min_hard_share', 'min_cross_app_share')
)
SELECT c.run_id, c.dimension, c.value, c.specs, c.verified, round(c.specs / size.n, 4) AS share,
       b.bound, b.asked AS quota_asked, b.effective AS quota_effective, b.feasible AS quota_feasible,
       CASE WHEN b.bound = 'max' THEN c.specs / size.n <= b.effective + 1e-6
            WHEN b.bound = 'min' THEN c.specs / size.n >= b.effective - 1e-6 END AS within_quota
FROM counted c JOIN size USING (run_id)
LEFT JOIN bounds b ON b.run_id = c.run_id AND b.dimension = c.dimension
                  AND (b.only_value IS NULL OR b.only_value = c.value);

-- How many of a run's specs reached each stage.
CREATE OR REPLACE VIEW yield_by_stage AS
SELECT r.run_id,
       count(*) AS sampled,
       count(t.task_id) AS generated,
       count(*) FILTER (t.status IN ('verified', 'exported')) AS verified,
       count(*) FILTER (t.status = 'exported') AS exported,
       count(*) FILTER (t.status = 'rejected') AS rejected,
       round(count(*) FILTER (t.status IN ('verified', 'exported')) / count(*), 4) AS yield
FROM run_tasks r LEFT JOIN tuples t USING (task_id)
GROUP BY ALL;

-- Why tuples were rejected, per app: a tuple counts once, under its apps joined with '+'
-- (a calc+writer tuple is its own row, not one under calc and another under writer).
CREATE OR REPLACE VIEW reject_reasons AS
SELECT array_to_string(s.apps, '+') AS app, t.reject_reason, count(*) AS tuples
FROM tuples t JOIN specs s USING (task_id) WHERE t.status = 'rejected'
GROUP BY ALL;

-- How many rounds verified tuples needed.
CREATE OR REPLACE VIEW rounds_to_convergence AS
SELECT t.rounds, count(*) AS tuples, round(avg(t.seconds), 3) AS mean_seconds
FROM tuples t WHERE t.status IN ('verified', 'exported')
GROUP BY ALL;

-- Time, tokens and money per verified tuple, per run (tokens and cost are 0 for the procedural backend).
-- A tuple counts once, for the run that sampled it: its retries' time and model calls are part of
-- what its run's verified tuples cost (attempts says how many attempts that took in all).
CREATE OR REPLACE VIEW cost_per_verified AS
WITH spent AS (
    SELECT task_id, sum(seconds) AS seconds, count(*) AS attempts FROM attempts GROUP BY ALL
),
per_run AS (
    SELECT t.run_id, count(*) FILTER (t.status IN ('verified', 'exported')) AS verified,
           sum(coalesce(a.seconds, t.seconds)) AS seconds, sum(coalesce(a.attempts, 1)) AS attempts
    FROM tuples t LEFT JOIN spent a USING (task_id) GROUP BY ALL
),
llm AS (
    SELECT coalesce(t.run_id, c.run_id) AS run_id, sum(c.input_tokens) AS input_tokens,
           sum(c.output_tokens) AS output_tokens, sum(c.cost_usd) AS cost_usd
    FROM llm_calls c LEFT JOIN tuples t USING (task_id) GROUP BY ALL
)
SELECT p.run_id, p.verified, round(p.seconds, 2) AS seconds,
       round(p.seconds / nullif(p.verified, 0), 3) AS seconds_per_verified,
       coalesce(l.input_tokens, 0) / nullif(p.verified, 0) AS input_tokens_per_verified,
       coalesce(l.output_tokens, 0) / nullif(p.verified, 0) AS output_tokens_per_verified,
       l.cost_usd / nullif(p.verified, 0) AS cost_usd_per_verified, p.attempts
FROM per_run p LEFT JOIN llm l USING (run_id);

-- What each run did, synth and retry runs alike: the attempts it made and how they ended (a retry
-- run's verified attempts are tuples it rescued; the tuples still count for the run that sampled them).
CREATE OR REPLACE VIEW attempts_by_run AS
SELECT r.run_id, r.kind, r.status AS run_status, r.started_at, count(a.task_id) AS attempts,
       count(*) FILTER (a.status = 'verified') AS verified,
       count(*) FILTER (a.status = 'rejected') AS rejected,
       count(*) FILTER (a.status = 'generating') AS unfinished,
       sum(a.seconds) AS seconds
FROM runs r LEFT JOIN attempts a USING (run_id)
GROUP BY ALL;

-- Mutation testing per tuple: the latest round of its latest attempt that reached the stage.
-- skipped: planned mutants that could not be built or graded; a stage that could not test the
-- reward (mutation_error) failed its round.
CREATE OR REPLACE VIEW mutation_by_tuple AS
SELECT r.task_id, s.family, s.apps[1] AS app, t.run_id, t.status, r.attempt, r.round,
       r.mutation_units AS units, r.mutation_total AS mutants, r.mutation_killed AS killed,
       r.mutation_total - r.mutation_killed AS survived,
       CASE WHEN r.mutation_total > 0 THEN r.mutation_killed / r.mutation_total END AS mutation_score,
       coalesce(r.mutation_skipped, 0) AS skipped,
       coalesce(r.mutation_skipped, 0) / nullif(r.mutation_total + coalesce(r.mutation_skipped, 0), 0)
           AS skipped_share,
       coalesce(r.mutation_truncated, false) AS truncated, r.mutation_error
FROM rounds r JOIN specs s USING (task_id) LEFT JOIN tuples t USING (task_id)
WHERE r.mutation_total IS NOT NULL
QUALIFY row_number() OVER (PARTITION BY r.task_id ORDER BY r.attempt DESC, r.round DESC) = 1;

-- Killed / total over every tuple of a family, an app (the primary one) or a run.
CREATE OR REPLACE VIEW mutation_by_family AS
SELECT family, count(*) AS tuples, sum(mutants) AS mutants, sum(killed) AS killed,
       sum(killed) / nullif(sum(mutants), 0) AS mutation_score,
       count(*) FILTER (WHERE survived > 0) AS tuples_with_survivors,
       sum(skipped) AS skipped, sum(skipped) / nullif(sum(mutants) + sum(skipped), 0) AS skipped_share,
       count(*) FILTER (WHERE mutation_error IS NOT NULL) AS tuples_with_stage_errors
FROM mutation_by_tuple GROUP BY family;

CREATE OR REPLACE VIEW mutation_by_app AS
SELECT app, count(*) AS tuples, sum(mutants) AS mutants, sum(killed) AS killed,
       sum(killed) / nullif(sum(mutants), 0) AS mutation_score
FROM mutation_by_tuple GROUP BY app;

CREATE OR REPLACE VIEW mutation_by_run AS
SELECT run_id, count(*) AS tuples, sum(mutants) AS mutants, sum(killed) AS killed,
       sum(killed) / nullif(sum(mutants), 0) AS mutation_score
FROM mutation_by_tuple GROUP BY run_id;

-- The mutants a round planned but could not build or grade, and why.
CREATE OR REPLACE VIEW skipped_mutants AS
SELECT k.task_id, s.family, k.attempt, k.round, k.mutant_id, k.path, k.why
FROM mutation_skips k JOIN specs s USING (task_id);

-- The mutants a reward gave full credit to: what to fix, family by family.
CREATE OR REPLACE VIEW surviving_mutants AS
SELECT m.task_id, s.family, m.attempt, m.round, m.mutant_id, m.kind, m.unit_kind, m.path, m.what
FROM mutants m JOIN specs s USING (task_id)
WHERE m.outcome = 'survived';

-- Rollouts per tuple and model: success (reward 1.0) rate, pass@k (k = the tuple's rollouts: did
-- any succeed?), mean reward over scored rollouts, and how many the grader could not score.
CREATE OR REPLACE VIEW rollout_by_tuple AS
SELECT r.tuple_id, r.family, r.app, r.model, r.policy, count(*) AS k,
       count(*) FILTER (WHERE r.reward = 1.0) AS successes,
       count(*) FILTER (WHERE r.reward = 1.0) / count(*) AS success_rate,
       (count(*) FILTER (WHERE r.reward = 1.0) > 0)::INTEGER AS pass_at_k,
       avg(r.reward) AS mean_reward, count(*) FILTER (WHERE r.reward IS NULL) AS null_rewards,
       avg(r.model_steps) AS mean_steps
FROM rollouts r
GROUP BY ALL;

CREATE OR REPLACE VIEW rollout_by_family AS
SELECT family, model, count(*) AS tuples, sum(k) AS rollouts, sum(successes) / sum(k) AS success_rate,
       avg(pass_at_k) AS pass_at_k, avg(mean_reward) AS mean_reward, sum(null_rewards) AS null_rewards,
       avg(mean_steps) AS mean_steps
FROM rollout_by_tuple GROUP BY ALL;

CREATE OR REPLACE VIEW rollout_by_app AS
SELECT app, model, count(*) AS tuples, sum(k) AS rollouts, sum(successes) / sum(k) AS success_rate,
       avg(pass_at_k) AS pass_at_k, avg(mean_reward) AS mean_reward, sum(null_rewards) AS null_rewards
FROM rollout_by_tuple GROUP BY ALL;

-- Episode lengths and how they ended, per model and family.
CREATE OR REPLACE VIEW rollout_steps_per_episode AS
SELECT r.model, r.family, count(*) AS rollouts, avg(r.model_steps) AS mean_steps,
       median(r.model_steps) AS median_steps, max(r.model_steps) AS max_steps,
       avg(r.terminated::INTEGER) AS terminated_share, avg(r.failed_calls / greatest(r.calls, 1)) AS failed_call_share
FROM rollouts r
GROUP BY ALL;

-- Reward histogram per model (NULL is its own bucket: the grader gave no score).
CREATE OR REPLACE VIEW rollout_rewards AS
SELECT model, CASE WHEN reward IS NULL THEN 'null' WHEN reward = 1.0 THEN '1.0'
                   WHEN reward = 0.0 THEN '0.0' ELSE printf('%.1f-%.1f', floor(reward * 5) / 5, floor(reward * 5) / 5 + 0.2) END AS bucket,
       count(*) AS rollouts
FROM rollouts GROUP BY ALL;

CREATE OR REPLACE VIEW rollout_null_rewards AS
SELECT model, count(*) AS rollouts, count(*) FILTER (WHERE reward IS NULL) AS null_rewards,
       count(*) FILTER (WHERE reward IS NULL) / count(*) AS null_rate
FROM rollouts GROUP BY ALL;

-- Teacher rollouts whose programmatic reward and the judge's verdict on the final state disagree:
-- a reward that accepts a state the judge calls unfinished (or the reverse) is suspect.
CREATE OR REPLACE VIEW reward_judge_disagreements AS
SELECT r.tuple_id, r.family, r.rollout_id, r.model, r.reward, r.judge_success, r.judge_reason
FROM rollouts r
WHERE r.reward_judge_disagree;

-- Training curves: per run and logged step, the loss (and a 10-row moving average), the learning
-- rate, throughput, and running totals of tokens and time.
CREATE OR REPLACE VIEW training_curves AS
SELECT r.run_id, r.kind, r.model, s.step, s.epoch, s.loss,
       avg(s.loss) OVER (PARTITION BY s.run_id ORDER BY s.step ROWS BETWEEN 9 PRECEDING AND CURRENT ROW) AS loss_avg10,
       s.learning_rate, s.grad_norm, s.tokens, s.trained_tokens, s.seconds,
       s.tokens / nullif(s.seconds, 0) AS tokens_per_s,
       sum(s.tokens) OVER (PARTITION BY s.run_id ORDER BY s.step) AS tokens_total,
       sum(s.seconds) OVER (PARTITION BY s.run_id ORDER BY s.step) AS seconds_total,
       -- the run's throughput so far (its last row is training_run_totals.tokens_per_s); the mean of
       -- tokens_per_s is not the run's throughput: it weights a 0.1 s step like a 10 s one
       sum(s.tokens) OVER (PARTITION BY s.run_id ORDER BY s.step)
           / nullif(sum(s.seconds) OVER (PARTITION BY s.run_id ORDER BY s.step), 0) AS tokens_per_s_so_far
FROM training_steps s JOIN training_runs r USING (run_id);

-- One row per training run: its totals, the numbers `cuagym report training` prints. tokens_per_s is
-- all input tokens over all step seconds (SFT: the optimizer steps; GSPO: the updates, rollouts
-- excluded); GSPO also sums the completion tokens its rollouts sampled (sampled_tokens), which an
-- iteration whose groups all had zero variance samples without training any.
CREATE OR REPLACE VIEW training_run_totals AS
SELECT r.run_id, r.kind, r.model, r.output_dir, r.status, r.started_at, r.finished_at, r.samples, r.dropped,
       count(s.step) AS logged, max(s.step) AS steps, max(s.iteration) AS iterations,
       arg_min(s.loss, s.step) AS first_loss, arg_max(s.loss, s.step) AS last_loss,
       coalesce(sum(s.tokens), 0) AS tokens, coalesce(sum(s.trained_tokens), 0) AS trained_tokens,
       sum(s.seconds) AS seconds, sum(s.tokens) / nullif(sum(s.seconds), 0) AS tokens_per_s,
       g.sampled_tokens, sum(s.rollout_seconds) AS rollout_seconds
FROM training_runs r LEFT JOIN training_steps s USING (run_id)
LEFT JOIN (SELECT run_id, sum(completion_tokens) AS sampled_tokens FROM gspo_rollouts GROUP BY ALL) g
    USING (run_id)
GROUP BY ALL;

CREATE OR REPLACE VIEW gspo_curves AS
SELECT r.run_id, r.model, s.iteration, s.step, s.loss, s.reward_mean, s.unscored, s.advantage_abs_mean,
       s.groups, s.zero_variance_groups, s.rollouts, s.ratio_mean, s.clip_low_fraction, s.clip_high_fraction,
       s.grad_norm, s.tokens, s.trained_tokens, s.seconds, s.rollout_seconds,
       s.tokens / nullif(s.seconds, 0) AS tokens_per_s,
       s.trained_tokens / nullif(s.seconds, 0) AS trained_tokens_per_s
FROM training_steps s JOIN training_runs r USING (run_id)
WHERE r.kind = 'gspo';

-- Held-out evaluations per training run (training/evaluate.py): success rate and mean reward of the
-- weights at each evaluated step on tuples the run never trains on; the first row is before training.
CREATE OR REPLACE VIEW training_eval_curves AS
SELECT r.run_id, r.kind, r.model, e.step, e.iteration, e.tuples, e.episodes, e.scored, e.successes,
       e.success_rate, e.reward_mean,
       e.success_rate - first_value(e.success_rate) OVER (PARTITION BY e.run_id ORDER BY e.step)
           AS success_gain,
       e.seconds
FROM training_evals e JOIN training_runs r USING (run_id);

-- Frontier sampling per GSPO run and task: its latest success EMA and frontier weight, how often it
-- was drawn, its scored and unscored rollouts, and when it was last drawn. Tasks near weight 1.0
-- are where training concentrates.
CREATE OR REPLACE VIEW gspo_frontier AS
SELECT e.run_id, r.model, e.tuple_id, e.success_ema, e.weight, e.success_rate AS last_rate,
       e.attempts, e.unscored, d.draws, e.iteration AS last_iteration, e.recorded_at AS updated_at
FROM gspo_frontier_emas e
JOIN training_runs r USING (run_id)
JOIN (SELECT run_id, tuple_id, count(*) AS draws FROM gspo_frontier_emas GROUP BY ALL) d USING (run_id, tuple_id)
QUALIFY row_number() OVER (PARTITION BY e.run_id, e.tuple_id ORDER BY e.iteration DESC) = 1;

-- The quality flow per family, from each family's latest quality run: seeds checked, mutants killed,
-- near misses told apart, endpoints held, GUI teacher runs passed (NULL rates: nothing to rate).
CREATE OR REPLACE VIEW quality_by_family AS
WITH latest AS (
    SELECT family, arg_max(run_id, created_at) AS run_id FROM quality GROUP BY family
)
SELECT q.family, any_value(q.app) AS app, q.run_id, count(*) AS seeds,
       sum(q.mutants) AS mutants, sum(q.killed) AS killed,
       sum(q.killed) / nullif(sum(q.mutants), 0) AS kill_rate,
       sum(json_array_length(q.survivors)) AS survivors,
       sum(q.skipped) AS skipped,
       sum(q.mistakes) AS mistakes, sum(q.mistakes_told) AS mistakes_told,
       count(*) FILTER (WHERE q.reward_initial IS DISTINCT FROM 0.0 OR q.reward_golden IS DISTINCT FROM 1.0)
           AS endpoint_failures,
       count(*) FILTER (WHERE q.error IS NOT NULL) AS errors,
       count(*) FILTER (WHERE q.teacher_ran) AS teacher_runs,
       count(*) FILTER (WHERE q.teacher_passed) AS teacher_passed,
       count(*) FILTER (WHERE q.teacher_passed) / nullif(count(*) FILTER (WHERE q.teacher_ran), 0)
           AS teacher_pass_rate,
       max(q.created_at) AS checked_at
FROM quality q JOIN latest USING (family, run_id)
GROUP BY q.family, q.run_id;

-- The quality flow per app (a family counts for its primary app), from each family's latest run: the
-- families checked, mutants killed, teacher runs passed and the families with a teacher.
CREATE OR REPLACE VIEW quality_by_app AS
SELECT app, count(*) AS families, sum(seeds) AS seeds, sum(mutants) AS mutants, sum(killed) AS killed,
       sum(killed) / nullif(sum(mutants), 0) AS kill_rate,
       count(*) FILTER (WHERE teacher_runs > 0) AS taught_families,
       sum(teacher_runs) AS teacher_runs, sum(teacher_passed) AS teacher_passed,
       sum(teacher_passed) / nullif(sum(teacher_runs), 0) AS teacher_pass_rate,
       sum(endpoint_failures) AS endpoint_failures, sum(errors) AS errors
FROM quality_by_family
GROUP BY app;

-- Decontamination per app and family, from each tuple's latest check: tuples checked, contaminated,
-- their share, and the benchmarks that contaminated them. A cross-app tuple counts once, apps '+'-joined.
CREATE OR REPLACE VIEW contamination_by_family AS
WITH latest AS (
    SELECT * FROM contamination
    QUALIFY row_number() OVER (PARTITION BY tuple_id ORDER BY created_at DESC) = 1
)
SELECT array_to_string(s.apps, '+') AS app, s.family, count(*) AS checked,
       count(*) FILTER (l.decision = 'contaminated') AS contaminated,
       round(count(*) FILTER (l.decision = 'contaminated') / count(*), 4) AS contaminated_share,
       string_agg(DISTINCT l.benchmark, ',') FILTER (l.decision = 'contaminated') AS benchmarks,
       max(l.embedding) AS max_embedding, max(l.ngram) AS max_ngram, max(l.target_overlap) AS max_target_overlap
FROM latest l JOIN specs s ON s.task_id = l.tuple_id
GROUP BY ALL;
