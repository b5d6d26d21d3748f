"""What library calls and attributes mean to the scan: reads of file content, folder listings,
existence probes and metadata, hub requests, calls that end the script, and inputs that are not the
state (environment, argv, clock, randomness). file_index.py classifies calls with these."""

from __future__ import annotations

import builtins
import re

EXIT_CALLS = {"sys.exit", "exit", "quit", "os._exit", "os.abort"}
EXISTS_CALLS = {
    "exists",
    "isfile",
    "isdir",
    "lexists",
    "islink",
    "is_file",
    "is_dir",
    "is_symlink",
    "ismount",
}
# metadata that says a file is there (and how big or how old), never what it holds
META_CALLS = {"getsize", "getmtime", "getctime", "getatime", "access", "stat", "lstat", "samefile"}
# (inode, device, link and block counts too: they say which file is there, not what it holds)
META_ATTRS = {"st_size", "st_mtime", "st_ctime", "st_atime", "st_mtime_ns", "st_ctime_ns", "st_atime_ns"} | {
    "st_ino",
    "st_dev",
    "st_nlink",
    "st_blocks",
    "st_blksize",
    "st_rdev",
    "st_birthtime",
    "st_flags",
}
CONTENT_ATTRS = {"st_mode", "st_uid", "st_gid"}  # what a chmod/chown task sets
LISTING_CALLS = {"glob", "iglob", "rglob", "iterdir", "listdir", "scandir", "walk"}
READ_CALLS = {
    "open",
    "read",
    "readlines",
    "read_file",
    "read_text",
    "read_bytes",
    "load_workbook",
    "Document",
    "Presentation",
    "PdfReader",
    "PdfFileReader",
    "ZipFile",
    "TarFile",
    "read_csv",
    "read_excel",
    "readlink",
    "realpath",
    "owner",
    "group",
}
PATH_METHODS = {  # methods whose receiver is the path they look at
    "read_text",
    "read_bytes",
    "open",
    "iterdir",
    "glob",
    "rglob",
    "stat",
    "lstat",
    "exists",
    "is_file",
    "is_dir",
    "is_symlink",
    "readlink",
    "owner",
    "group",
    "samefile",
}
XML_PARSERS = re.compile(r"ElementTree|etree|minidom|^ET$|^ET\.")
REQUEST_METHODS = {"get", "post", "put", "patch", "delete", "head", "options", "request"}
TRUTH_CALLS = {"bool", "len", "any", "all"}
BUILTIN_NAMES = frozenset(dir(builtins))

# --- nondeterminism: inputs a grader must not have (DESIGN.md §3.1: the score is a function of the state)
ALLOWED_ENV = {"CUAGYM_HUB_URL", "CUAGYM_SID", "HOME"}  # the hub helper's documented reads; HOME is ~
NONDET_CALLS = re.compile(
    r"^(time\.(time|time_ns|monotonic|monotonic_ns|perf_counter|perf_counter_ns|process_time|"
    r"process_time_ns|thread_time|clock_gettime|clock_gettime_ns)"
    r"|datetime\.(datetime\.)?(now|utcnow|today)|datetime\.date\.today"
    r"|random\.\w+|secrets\.\w+|numpy\.random\.\w+|uuid\.uuid[14]"
    r"|os\.(urandom|getrandom|getpid|getppid|getuid|geteuid|getgid|getegid|getlogin|uname|times|"
    r"cpu_count|getloadavg)"
    r"|socket\.(gethostname|getfqdn)|platform\.\w+|getpass\.getuser|input)$"
)
NO_ARG_CLOCK = re.compile(r"^time\.(localtime|gmtime|ctime|asctime)$")  # with an argument: a conversion
NONDET_ATTRS = {"sys.argv", "sys.orig_argv", "sys.stdin", "os.environ", "os.environb", "environ"}
