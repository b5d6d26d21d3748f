"""The seccomp filter every sandboxed command runs under (bwrap `--seccomp FD`), assembled here.

Why a filter, when cuagym runs as root: the uid inside the sandbox maps to host root, so a file the
script makes is root's on the host, and the script may chmod what it owns. A `chmod 4755` copy of
python3 in the home would be a setuid-root binary on the host. The filter refuses, with EPERM, every
way to set S_ISUID or S_ISGID (chmod, fchmod, fchmodat, fchmodat2, and the creating calls open,
openat, creat, mkdir, mkdirat, mknod, mknodat), as systemd's RestrictSUIDSGID= does; openat2 takes
its mode in a struct the filter cannot read, so it answers ENOSYS and libc falls back to openat.

It also refuses what a guest script never needs and what has been a way out of sandboxes: io_uring
(its operations bypass seccomp), ptrace and process_vm_* (attaching to the sandbox's pid 1 stops it
until the run times out), bpf, perf_event_open, userfaultfd, the kernel keyring, kexec and module
loading, mounts, swap, reboot, accounting, quotactl, syslog and open_by_handle_at. Calls of a foreign
ABI (i386 through int 0x80, x32) never reach the table: the process is killed.

The program is classic BPF, written out with struct (the tool venv has no libseccomp bindings).
"""

from __future__ import annotations

import errno
import platform
import struct
from dataclasses import dataclass

from infra.errors import SandboxUnavailableError

_LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS: A = seccomp_data[k]
_JEQ = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
_JGE = 0x35  # BPF_JMP | BPF_JGE | BPF_K
_JSET = 0x45  # BPF_JMP | BPF_JSET | BPF_K
_RET = 0x06  # BPF_RET | BPF_K
RET_ALLOW = 0x7FFF0000
RET_KILL_PROCESS = 0x80000000
_RET_ERRNO = 0x00050000
_NR, _ARCH = 0, 4  # offsets in struct seccomp_data; args[i] at 16 + 8 * i (low word first)
X32_BIT = 0x40000000
SETID_BITS = 0o6000  # S_ISUID | S_ISGID
CREATE_FLAGS = 0o100 | 0o20000000  # O_CREAT | __O_TMPFILE: only then does open read its mode


@dataclass(frozen=True)
class Abi:
    audit_arch: int
    denied: dict[str, int]  # syscall -> number, refused with EPERM
    mode_checked: dict[str, tuple[int, int, int | None]]  # syscall -> (nr, mode arg, flags arg)
    no_sys: dict[str, int]  # refused with ENOSYS (callers fall back)
    x32: bool = False


_DENIED_GENERIC = {
    "io_uring_setup": 425,
    "io_uring_enter": 426,
    "io_uring_register": 427,
    "open_tree": 428,
    "move_mount": 429,
    "fsopen": 430,
    "fsconfig": 431,
    "fsmount": 432,
    "fspick": 433,
    "mount_setattr": 442,
}
X86_64 = Abi(
    audit_arch=0xC000003E,
    denied=_DENIED_GENERIC
    | {
        "ptrace": 101,
        "process_vm_readv": 310,
        "process_vm_writev": 311,
        "kexec_load": 246,
        "kexec_file_load": 320,
        "bpf": 321,
        "perf_event_open": 298,
        "userfaultfd": 323,
        "keyctl": 250,
        "add_key": 248,
        "request_key": 249,
        "open_by_handle_at": 304,
        "name_to_handle_at": 303,
        "init_module": 175,
        "finit_module": 313,
        "delete_module": 176,
        "mount": 165,
        "umount2": 166,
        "pivot_root": 155,
        "swapon": 167,
        "swapoff": 168,
        "reboot": 169,
        "acct": 163,
        "quotactl": 179,
        "syslog": 103,
        "lookup_dcookie": 212,
        "iopl": 172,
        "ioperm": 173,
        "uselib": 134,
    },
    mode_checked={
        "open": (2, 2, 1),
        "openat": (257, 3, 2),
        "creat": (85, 1, None),
        "chmod": (90, 1, None),
        "fchmod": (91, 1, None),
        "fchmodat": (268, 2, None),
        "fchmodat2": (452, 2, None),
        "mkdir": (83, 1, None),
        "mkdirat": (258, 2, None),
        "mknod": (133, 1, None),
        "mknodat": (259, 2, None),
    },
    no_sys={"openat2": 437},
    x32=True,
)
# asm-generic numbering (no open/creat/chmod/mkdir/mknod: only their *at forms exist).
AARCH64 = Abi(
    audit_arch=0xC00000B7,
    denied=_DENIED_GENERIC
    | {
        "ptrace": 117,
        "process_vm_readv": 270,
        "process_vm_writev": 271,
        "kexec_load": 104,
        "kexec_file_load": 294,
        "bpf": 280,
        "perf_event_open": 241,
        "userfaultfd": 282,
        "keyctl": 219,
        "add_key": 217,
        "request_key": 218,
        "open_by_handle_at": 265,
        "name_to_handle_at": 264,
        "init_module": 105,
        "finit_module": 273,
        "delete_module": 106,
        "mount": 40,
        "umount2": 39,
        "pivot_root": 41,
        "swapon": 224,
        "swapoff": 225,
        "reboot": 142,
        "acct": 89,
        "quotactl": 60,
        "syslog": 116,
        "lookup_dcookie": 18,
    },
    mode_checked={
        "openat": (56, 3, 2),
        "fchmod": (52, 1, None),
        "fchmodat": (53, 2, None),
        "fchmodat2": (452, 2, None),
        "mkdirat": (34, 2, None),
        "mknodat": (33, 2, None),
    },
    no_sys={"openat2": 437},
)
ABIS = {"x86_64": X86_64, "aarch64": AARCH64}


class _Assembler:
    """Instructions with forward jumps to named labels, resolved when the program is packed."""

    def __init__(self) -> None:
        self.code: list[tuple[int, str | int, str | int, int]] = []
        self.labels: dict[str, int] = {}

    def emit(self, op: int, k: int, jt: str | int = 0, jf: str | int = 0) -> None:
        self.code.append((op, jt, jf, k))

    def label(self, name: str) -> None:
        self.labels[name] = len(self.code)

    def _offset(self, at: int, target: str | int) -> int:
        if isinstance(target, int):
            return target
        offset = self.labels[target] - at - 1
        if not 0 <= offset <= 255:  # classic BPF jumps are forward only, at most 255 instructions
            raise ValueError(f"seccomp jump to {target} out of range ({offset})")
        return offset

    def pack(self) -> bytes:
        return b"".join(
            struct.pack("=HBBI", op, self._offset(i, jt), self._offset(i, jf), k)
            for i, (op, jt, jf, k) in enumerate(self.code)
        )


def _arg_low(index: int) -> int:
    # The low 32 bits of args[index]: modes and flags are 32-bit, and the ABIs here are little-endian.
    return 16 + 8 * index


def assemble(abi: Abi) -> bytes:
    """The filter for `abi` as bwrap reads it from `--seccomp FD`: packed `struct sock_filter`s."""
    asm = _Assembler()
    asm.emit(_LD_W_ABS, _ARCH)
    asm.emit(_JEQ, abi.audit_arch, jt=1, jf=0)
    asm.emit(_RET, RET_KILL_PROCESS)
    asm.emit(_LD_W_ABS, _NR)
    if abi.x32:
        asm.emit(_JGE, X32_BIT, jt=0, jf=1)
        asm.emit(_RET, RET_KILL_PROCESS)
    for nr in abi.denied.values():
        asm.emit(_JEQ, nr, jt="deny")
    for nr in abi.no_sys.values():
        asm.emit(_JEQ, nr, jt="nosys")
    for name, (nr, _, _) in abi.mode_checked.items():
        asm.emit(_JEQ, nr, jt=name)
    asm.emit(_RET, RET_ALLOW)
    for name, (_, mode_arg, flags_arg) in abi.mode_checked.items():
        asm.label(name)
        if flags_arg is not None:  # without O_CREAT/O_TMPFILE the mode register is garbage
            asm.emit(_LD_W_ABS, _arg_low(flags_arg))
            asm.emit(_JSET, CREATE_FLAGS, jt=0, jf="allow")
        asm.emit(_LD_W_ABS, _arg_low(mode_arg))
        asm.emit(_JSET, SETID_BITS, jt="deny", jf="allow")
    # The returns come last: classic BPF only jumps forward.
    asm.label("allow")
    asm.emit(_RET, RET_ALLOW)
    asm.label("deny")
    asm.emit(_RET, _RET_ERRNO | errno.EPERM)
    asm.label("nosys")
    asm.emit(_RET, _RET_ERRNO | errno.ENOSYS)
    return asm.pack()


def native_filter() -> bytes:
    """The filter for the machine we run on; SandboxUnavailableError on an ABI it does not know."""
    abi = ABIS.get(platform.machine())
    if abi is None:
        raise SandboxUnavailableError(
            f"no seccomp filter for {platform.machine()}: scripts could set setuid bits on host files",
            hint=f"add its syscall numbers to infra/sandbox/seccomp.py (known: {', '.join(ABIS)})",
        )
    return assemble(abi)
