"""A headless Chromium driven over the DevTools protocol, standard library only.

Chromium is started with ``--remote-debugging-pipe``: it reads protocol
commands (JSON, each ended by a NUL byte) on file descriptor 3 and answers on
4.  Enough of the protocol for the report tests: open a page, wait until its
script says it is done, evaluate JavaScript (layout measurements), capture a
screenshot.  No selenium, no websocket library, no node.
"""
from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Optional


def chromium_path() -> Optional[str]:
    for cand in (shutil.which("chromium"), "/usr/bin/chromium", shutil.which("chromium-browser"),
                 shutil.which("google-chrome")):
        if cand and os.path.exists(cand):
            return cand
    return None


class Browser:
    """One headless Chromium; ``with Browser() as b: b.open(url, width, height)``."""

    def __init__(self, exe: Optional[str] = None, timeout: float = 60.0):
        self.exe = exe or chromium_path()
        if not self.exe:
            raise FileNotFoundError("no chromium")
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix="synagree-cdp-")
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()

        def fds():  # in the child: the pipe ends as fds 3 and 4, inheritable
            # (first out of the way: a pipe end may itself be fd 3 or 4)
            a = fcntl.fcntl(to_child_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [self.exe, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--disable-extensions", "--hide-scrollbars",
             f"--user-data-dir={self.profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=fds, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buf = b""
        self._id = 0
        self.session: Optional[str] = None
        self.console: list = []

    # -- the protocol ---------------------------------------------------------
    def _read_message(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("no answer from chromium")
            ready, _, _ = select.select([self._from_child], [], [], left)
            if ready:
                chunk = os.read(self._from_child, 1 << 16)
                if not chunk:
                    raise RuntimeError("chromium closed the pipe: "
                                       + self.proc.stderr.read().decode(errors="replace")[-2000:])
                self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def send(self, method: str, params: Optional[dict] = None, session: bool = True) -> dict:
        self._id += 1
        cmd: dict = {"id": self._id, "method": method, "params": params or {}}
        if session and self.session:
            cmd["sessionId"] = self.session
        os.write(self._to_child, json.dumps(cmd).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            msg = self._read_message(deadline)
            if msg.get("id") == self._id:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if msg.get("method") in ("Runtime.consoleAPICalled", "Runtime.exceptionThrown",
                                     "Log.entryAdded"):
                self.console.append(msg["params"])

    # -- pages --------------------------------------------------------------------
    def open(self, url: str, width: int = 1300, height: int = 1600) -> None:
        target = self.send("Target.createTarget", {"url": "about:blank"}, session=False)
        self.session = self.send("Target.attachToTarget",
                                 {"targetId": target["targetId"], "flatten": True},
                                 session=False)["sessionId"]
        for m in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.send(m)
        self.send("Emulation.setDeviceMetricsOverride",
                  {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
        self.send("Page.navigate", {"url": url})
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            state = self.eval("document.readyState === 'complete' && document.body && "
                              "document.body.getAttribute('data-rendered')")
            if state == "1":
                return
            time.sleep(0.1)
        raise TimeoutError(f"{url} did not finish rendering")

    def eval(self, expression: str) -> Any:
        res = self.send("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                             "awaitPromise": True})
        if "exceptionDetails" in res:
            raise RuntimeError(f"JavaScript: {res['exceptionDetails']}")
        return res["result"].get("value")

    def screenshot(self, path: Path, full_page: bool = True) -> Path:
        params: dict = {"format": "png"}
        if full_page:
            size = self.eval("[document.documentElement.scrollWidth, "
                             "document.documentElement.scrollHeight]")
            params.update(captureBeyondViewport=True,
                          clip={"x": 0, "y": 0, "width": size[0], "height": size[1],
                                "scale": 1})
        data = self.send("Page.captureScreenshot", params)["data"]
        path.write_bytes(base64.b64decode(data))
        return path

    def close(self) -> None:
        try:
            self.send("Browser.close", session=False)
        except Exception:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        for fd in (self._to_child, self._from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        shutil.rmtree(self.profile, ignore_errors=True)

    def __enter__(self) -> "Browser":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
