INSERT INTO scan_findings (task_id, attempt, round, rule, line, message)
VALUES ($task_id, $attempt, $round, $rule, $line, $message);
