"""What a sandboxed run may use, and the exit codes that say which limit ended it."""

from __future__ import annotations

from dataclasses import dataclass

EXIT_TIMEOUT = 124  # as coreutils' `timeout`
EXIT_MEMORY = 137  # 128 + SIGKILL, what the OOM killer leaves
EXIT_DISK = 153  # 128 + SIGXFSZ, what a file over RLIMIT_FSIZE leaves


@dataclass(frozen=True)
class Limits:
    timeout_s: float = 120.0
    memory_mb: int = 2048
    max_procs: int = 256
    max_file_mb: int = 512
    max_home_mb: int = 1024  # the whole home: several files under max_file_mb must not fill the disk
    max_home_files: int = 50_000  # inodes are disk too
    max_tmp_mb: int = 512  # /tmp is a tmpfs: memory, charged to the memory cgroup when there is one
    max_output_bytes: int = 1024 * 1024  # per stream
    max_open_files: int = 1024
