#!/usr/bin/python3
"""PID 1 of the `libvirt` provider's guest (the kernel runs it as `init=/opt/cuagym/init`).

Self-contained (Debian's python3 and its standard library only): it is copied into the guest image.

1. mounts what the initramfs did not hand over (/proc, /sys, /dev, /run, /dev/shm, /dev/pts, /tmp),
   loads the virtio NIC and serial drivers (there is no udev) and brings up the NIC at 10.0.2.15,
   the address QEMU's user network forwards the host's loopback port to;
2. reads the access token as the first line of the virtio-serial port named `org.cuagym.handshake`
   (the host writes it there: it never appears on the kernel command line or in a file);
3. starts the in-guest server (infra/desktop_server, `--tcp 0.0.0.0:<port>`) as the guest user with
   exactly the sandbox protocol: the token as the server's first stdin line, its one JSON ready line
   back — which this init copies to the port for the host;
4. holds the server's stdin open for as long as the guest lives (the session ends with the VM, not
   when the host lets go of the port: a snapshot revert or a reconnecting host must find it running),
   reaps orphans, and powers the guest off when the server exits (so the host sees it stop);
5. keeps reading the port: a line `clock <unix ns>` sets the guest's clock (a snapshot revert brings
   back the clock of the snapshot's moment, so the host sends the time after each one).

Settings come from `cuagym.*` words of the kernel command line (port, width, height, start timeout).
"""

import ctypes
import glob
import json
import os
import subprocess
import sys
import threading
import time

CHANNEL = "org.cuagym.handshake"
GUEST_ADDRESS = "10.0.2.15/24"  # QEMU's user network hands the first guest this address
GUEST_UID = 1000
HOME = "/home/user"
PYTHON = "/opt/cuagym/python/bin/python3"
SERVER_ROOT = "/opt/cuagym/server"
BOOT = (
    f"import runpy, sys; sys.path.insert(0, {SERVER_ROOT!r}); "
    "runpy.run_module('desktop_server', run_name='__main__', alter_sys=True)"
)
MOUNTS = (
    ("proc", "/proc", "nosuid,noexec,nodev"),
    ("sysfs", "/sys", "nosuid,noexec,nodev"),
    ("devtmpfs", "/dev", "mode=0755,nosuid"),
    ("tmpfs", "/run", "mode=0755,nosuid,nodev"),
    ("tmpfs", "/dev/shm", "mode=1777,nosuid,nodev"),
    ("devpts", "/dev/pts", "gid=5,mode=0620,ptmxmode=0666"),
    ("tmpfs", "/tmp", "mode=1777,nosuid,nodev"),
)
SERVER_ENV = {
    "HOME": HOME,
    "USER": "user",
    "LOGNAME": "user",
    "SHELL": "/bin/bash",
    "PATH": "/opt/cuagym/python/bin:/usr/local/bin:/usr/bin:/bin",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TMPDIR": "/tmp",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONUNBUFFERED": "1",
}


def say(message):
    """One line on the serial console (the host keeps it as console.log)."""
    print(f"cuagym-init: {message}", file=sys.stderr, flush=True)


def settings(cmdline=None):
    """The `cuagym.KEY=VALUE` words of the kernel command line."""
    if cmdline is None:
        with open("/proc/cmdline") as fh:
            cmdline = fh.read()
    words = cmdline.split()
    return dict(w[len("cuagym.") :].split("=", 1) for w in words if w.startswith("cuagym.") and "=" in w)


def mount_basics():
    for fstype, target, options in MOUNTS:
        os.makedirs(target, exist_ok=True)
        if not os.path.ismount(target):
            subprocess.run(["mount", "-t", fstype, "-o", options, fstype, target], check=False)
    os.makedirs("/tmp/.X11-unix", exist_ok=True)  # Xvfb, not run as root, cannot make it itself
    os.chmod("/tmp/.X11-unix", 0o1777)


def wait_for(what, test, timeout_s):
    deadline = time.monotonic() + timeout_s
    while not (found := test()):
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not appear within {timeout_s:g} s")
        time.sleep(0.05)
    return found


def bring_up_network():
    subprocess.run(["modprobe", "-a", "virtio_net", "virtio_console"], check=False)
    subprocess.run(["ip", "link", "set", "lo", "up"], check=False)
    wait_for("the virtio NIC (eth0)", lambda: os.path.exists("/sys/class/net/eth0"), 30)
    subprocess.run(["ip", "addr", "add", GUEST_ADDRESS, "dev", "eth0"], check=False)
    subprocess.run(["ip", "link", "set", "eth0", "up"], check=False)


def handshake_port():
    """/dev/vportNpM of the named virtio-serial port (udev would link it under /dev/virtio-ports/)."""

    def find():
        for name_file in glob.glob("/sys/class/virtio-ports/*/name"):
            with open(name_file) as fh:
                if fh.read().strip() == CHANNEL:
                    device = "/dev/" + os.path.basename(os.path.dirname(name_file))
                    return device if os.path.exists(device) else None
        return None

    return wait_for(f"the virtio-serial port {CHANNEL}", find, 30)


def read_token(fd):
    """The first line the host writes. A read returns EOF while no host is connected: wait for one."""
    data = b""
    while b"\n" not in data:
        chunk = os.read(fd, 4096)
        if not chunk:
            time.sleep(0.1)
            continue
        data += chunk
    return data.split(b"\n", 1)[0].strip()


def serve_port(fd):
    buffer = b""
    while True:
        chunk = os.read(fd, 4096)
        if not chunk:  # no host connected now
            time.sleep(0.2)
            continue
        buffer += chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            words = line.split()
            if len(words) == 2 and words[0] == b"clock" and words[1].isdigit():
                time.clock_settime_ns(time.CLOCK_REALTIME, int(words[1]))


def start_server(config):
    argv = [
        PYTHON,
        "-c",
        BOOT,
        "--tcp",
        f"0.0.0.0:{config.get('port', '8000')}",
        "--width",
        config.get("width", "1280"),
        "--height",
        config.get("height", "800"),
        "--start-timeout",
        config.get("start_timeout", "120"),
        "--no-accessibility",
    ]
    return subprocess.Popen(
        argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        cwd=HOME,
        env=SERVER_ENV,
        user=GUEST_UID,
        group=GUEST_UID,
        extra_groups=[],
    )


def power_off():
    os.sync()
    ctypes.CDLL(None, use_errno=True).reboot(0x4321FEDC)  # LINUX_REBOOT_CMD_POWER_OFF
    while True:
        time.sleep(60)


def reap_forever(server):
    while True:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            time.sleep(1)
            continue
        if pid == server.pid:
            say(f"the server exited (status {status}); powering off")
            power_off()


def main():
    started = time.monotonic()
    mount_basics()
    config = settings()
    try:
        bring_up_network()
        port_fd = os.open(handshake_port(), os.O_RDWR)
    except (OSError, RuntimeError) as exc:
        say(f"cannot set the guest up: {exc}")
        power_off()
    say(f"up in {time.monotonic() - started:.1f} s; waiting for the host's token")
    token = read_token(port_fd)
    server = start_server(config)
    server.stdin.write(token + b"\n")
    server.stdin.flush()
    line = server.stdout.readline()
    if not line.strip():
        line = json.dumps({"ready": False, "error": f"the server exited ({server.poll()})"}).encode() + b"\n"
    try:
        os.write(port_fd, line)
    except OSError as exc:  # the host let go of the port meanwhile: it will see the server anyway
        say(f"cannot hand the ready line to the host: {exc}")
    say(f"server answered after {time.monotonic() - started:.1f} s: {line[:200]!r}")
    # Nothing else should come on the server's stdout; drained so a stray print can never block it.
    threading.Thread(target=lambda: [say(extra) for extra in server.stdout], daemon=True).start()
    threading.Thread(target=serve_port, args=(port_fd,), daemon=True).start()
    reap_forever(server)


if __name__ == "__main__":
    main()
