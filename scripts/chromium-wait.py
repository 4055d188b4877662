#!/usr/bin/env python3
"""Loads a page in headless Chromium in real time and prints an attribute of <html> once set.

    python3 scripts/chromium-wait.py CHROMIUM URL [--attribute data-result] [--timeout 120]
                                     [--window-size 1400,1000] [--profile DIR]

For browser tests whose page script needs real frames: `--dump-dom` with
`--virtual-time-budget` runs timers on virtual time, which can pass without a rendered frame,
so an IntersectionObserver or requestAnimationFrame may never answer (seen in CI). Here the
page runs in real time, and this script asks the page, over the DevTools protocol on a pipe
(`--remote-debugging-pipe`: commands on fd 3, replies on fd 4, each message ends in NUL),
for `document.documentElement.getAttribute(ATTRIBUTE)` until it is set, then prints it.

Exit status: 0 with the value printed; 1 when the timeout passed first (the page's text so
far goes to standard error); 2 when Chromium could not be driven. Python's standard library
only.
"""
import argparse
import fcntl
import json
import os
import subprocess
import sys
import tempfile
import time


class Pipe:
    def __init__(self, write_fd, read_fd):
        self.write_fd, self.read_fd = write_fd, read_fd
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write_fd, json.dumps(message).encode() + b"\0")
        return self.next_id

    def receive(self, deadline):
        while b"\0" not in self.buffer:
            if time.monotonic() > deadline:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self.read_fd, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method, params=None, session=None, deadline=None):
        deadline = deadline or time.monotonic() + 60
        wanted = self.send(method, params, session)
        while True:
            reply = self.receive(deadline)
            if reply.get("id") == wanted:
                if "error" in reply:
                    raise RuntimeError("%s: %s" % (method, reply["error"]))
                return reply.get("result", {})


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chromium")
    ap.add_argument("url")
    ap.add_argument("--attribute", default="data-result")
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--window-size", default="1400,1000")
    ap.add_argument("--profile", default=None)
    a = ap.parse_args()

    profile = a.profile or tempfile.mkdtemp(prefix="chromium-wait-")
    # Chromium reads commands on its fd 3 and writes replies on its fd 4.
    to_chromium_r, to_chromium_w = os.pipe()
    from_chromium_r, from_chromium_w = os.pipe()

    def wire():
        # Out of the way first (the pipes may themselves be fds 3 or 4), then onto 3 and 4,
        # which dup2 leaves open across exec; every other descriptor is close-on-exec.
        r = fcntl.fcntl(to_chromium_r, fcntl.F_DUPFD_CLOEXEC, 10)
        w = fcntl.fcntl(from_chromium_w, fcntl.F_DUPFD_CLOEXEC, 10)
        os.dup2(r, 3)
        os.dup2(w, 4)

    args = [a.chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions",
            "--user-data-dir=" + profile, "--window-size=" + a.window_size, "--remote-debugging-pipe", "about:blank"]
    process = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               preexec_fn=wire, close_fds=False)
    os.close(to_chromium_r)
    os.close(from_chromium_w)
    pipe = Pipe(to_chromium_w, from_chromium_r)
    deadline = time.monotonic() + a.timeout
    status = 2
    try:
        target = pipe.call("Target.createTarget", {"url": "about:blank"}, deadline=deadline)["targetId"]
        session = pipe.call("Target.attachToTarget", {"targetId": target, "flatten": True}, deadline=deadline)["sessionId"]
        pipe.call("Page.navigate", {"url": a.url}, session=session, deadline=deadline)
        probe = "document.documentElement ? document.documentElement.getAttribute(%s) : null" % json.dumps(a.attribute)
        value = None
        while value is None and time.monotonic() < deadline:
            result = pipe.call("Runtime.evaluate", {"expression": probe, "returnByValue": True},
                               session=session, deadline=deadline)
            value = result.get("result", {}).get("value")
            if value is None:
                time.sleep(0.2)
        if value is not None:
            sys.stdout.write(value)
            status = 0
        else:
            text = pipe.call("Runtime.evaluate", {"expression": "document.documentElement.outerHTML.slice(0, 2000)",
                                                  "returnByValue": True}, session=session,
                             deadline=time.monotonic() + 30)
            sys.stderr.write("chromium-wait: %s was not set in %g s; the page begins:\n%s\n"
                             % (a.attribute, a.timeout, text.get("result", {}).get("value")))
            status = 1
        try:
            pipe.call("Browser.close", deadline=time.monotonic() + 10)
        except Exception:
            pass
    except Exception as error:  # noqa: BLE001 - any failure to drive the browser is exit 2
        sys.stderr.write("chromium-wait: %s\n" % error)
        status = 2 if status != 1 else 1
    finally:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if a.profile is None:
            subprocess.run(["rm", "-rf", profile])
    return status


if __name__ == "__main__":
    sys.exit(main())
