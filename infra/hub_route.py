"""Guest side of the hub route: a tiny TCP-to-unix-socket forwarder that runs *inside* a sandbox.

    python3 hub_route.py --uds /run/cuagym/hub.sock --port 8400 -- python3 script.py

It listens on 127.0.0.1:PORT in the sandbox's private network namespace before starting the
command, forwards every connection to the hub's unix socket (the only door bound in), and exits
with the command's exit code. Standard library only: it runs on the guest Python.
"""

import argparse
import contextlib
import socket
import socketserver
import subprocess
import sys
import threading


def _pipe(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    finally:
        with contextlib.suppress(OSError):
            dst.shutdown(socket.SHUT_WR)


def make_handler(uds):
    class Forward(socketserver.BaseRequestHandler):
        def handle(self):
            upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                upstream.connect(uds)
            except OSError:
                self.request.close()
                return
            back = threading.Thread(target=_pipe, args=(upstream, self.request), daemon=True)
            back.start()
            _pipe(self.request, upstream)
            back.join()
            upstream.close()

    return Forward


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("--uds", required=True)
    parser.add_argument("--port", type=int, default=8400)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    server = _Server(("127.0.0.1", args.port), make_handler(args.uds))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # No server.shutdown(): it waits out serve_forever's poll interval (0.5 s) on every script; the
    # listener is a daemon thread and dies with this process.
    return subprocess.call(command)


if __name__ == "__main__":
    sys.exit(main())
