"""Quality, two ways: the great-expectations suites every synthesis run ends with (data_checks), and
the quality flow's per-family sweep over many seeds — endpoints, near misses and mutants in the
sandbox (sweep), GUI teachers on real desktops (teachers). The suites' names stay importable from
`tasks.quality`, where the synthesis flow has always found them."""

from tasks.quality.data_checks import CheckResult, bundle_frame, check_warehouse, run_suites

__all__ = ["CheckResult", "bundle_frame", "check_warehouse", "run_suites"]
