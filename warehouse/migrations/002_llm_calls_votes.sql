-- LLM usage and dataset-level votes (issue: LLM roles through litellm).

-- One row per *try* of a model call (a 429 then a success is two rows), so retries, cache hits and
-- failures are all counted. attempt is the tuple's attempt when the call was made.
CREATE TABLE llm_calls (
    call_id       VARCHAR PRIMARY KEY,
    run_id        VARCHAR,
    task_id       VARCHAR,                  -- NULL for a call that produced no spec (failed task writer)
    attempt       INTEGER,
    round         INTEGER,                  -- co-generation round (NULL for task writer / critics)
    step          INTEGER,                  -- step of the agent's tool loop
    role          VARCHAR NOT NULL,         -- task_writer | generator | discriminator | critic | judge
    model         VARCHAR NOT NULL,
    status        VARCHAR NOT NULL,         -- ok | cached | retry | error
    error_kind    VARCHAR,                  -- rate_limited | server_error | timeout | connection | auth | …
    error         VARCHAR,
    try_no        INTEGER NOT NULL,
    input_tokens  BIGINT NOT NULL DEFAULT 0,
    output_tokens BIGINT NOT NULL DEFAULT 0,
    cost_usd      DOUBLE,                   -- NULL when litellm does not know the model's price
    latency_s     DOUBLE NOT NULL,
    started_at    TIMESTAMP NOT NULL
);

-- One row per critic vote on a verified tuple (paper §2, dataset-level verification).
CREATE TABLE votes (
    task_id   VARCHAR NOT NULL,
    attempt   INTEGER NOT NULL,
    critic    INTEGER NOT NULL,             -- 1..n
    model     VARCHAR NOT NULL,
    decision  VARCHAR NOT NULL,             -- keep | modify_query | reject | error (no usable vote)
    reason    VARCHAR NOT NULL,
    criteria  JSON NOT NULL,                -- {criterion: {ok, note}} for the seven criteria
    created_at TIMESTAMP NOT NULL,
    PRIMARY KEY (task_id, attempt, critic)
);

-- The strict-majority aggregate of a tuple attempt's votes.
CREATE TABLE vote_results (
    task_id      VARCHAR NOT NULL,
    attempt      INTEGER NOT NULL,
    decision     VARCHAR NOT NULL,          -- keep | modify_query | reject
    keep         INTEGER NOT NULL,
    modify_query INTEGER NOT NULL,
    reject       INTEGER NOT NULL,
    errors       INTEGER NOT NULL,
    created_at   TIMESTAMP NOT NULL,
    PRIMARY KEY (task_id, attempt)
);
