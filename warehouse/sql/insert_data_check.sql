INSERT INTO data_checks (run_id, suite, expectation, column_name, success, unexpected, details, checked_at)
VALUES ($run_id, $suite, $expectation, $column_name, $success, $unexpected, $details, $checked_at);
