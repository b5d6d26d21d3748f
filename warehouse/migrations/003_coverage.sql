-- Coverage bookkeeping: the quotas each run sampled under (after the feasibility check), and the
-- data-quality checks run at the end of each run.
CREATE TABLE run_quotas (
    run_id    VARCHAR NOT NULL,
    quota     VARCHAR NOT NULL,
    asked     DOUBLE NOT NULL,
    effective DOUBLE NOT NULL,
    feasible  BOOLEAN NOT NULL,
    why       VARCHAR,
    PRIMARY KEY (run_id, quota)
);

CREATE TABLE data_checks (
    run_id      VARCHAR NOT NULL,
    suite       VARCHAR NOT NULL,
    expectation VARCHAR NOT NULL,
    column_name VARCHAR,
    success     BOOLEAN NOT NULL,
    unexpected  INTEGER,
    details     JSON,
    checked_at  TIMESTAMP NOT NULL
);
