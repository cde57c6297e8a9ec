"""Run as a script by the race tests: swaps PATH for a symlink to OUTSIDE and back, in a tight loop, for SECONDS
or until it gets SIGTERM (the test has made enough attempts).

    python tests/race_swapper.py PATH OUTSIDE SECONDS

It prints "ready" once it starts; on exit PATH is its real self again.
"""
import os
import signal
import sys
import time

path, outside, seconds = sys.argv[1], sys.argv[2], float(sys.argv[3])
end = time.monotonic() + seconds
saved = path + ".real"
stop = []
signal.signal(signal.SIGTERM, lambda *_: stop.append(True))  # finish the swap under way, then restore PATH
print("ready", flush=True)
while time.monotonic() < end and not stop:
    try:
        os.rename(path, saved)
        os.symlink(outside, path)
        os.unlink(path)
        os.rename(saved, path)
    except OSError:
        pass
if os.path.islink(path):
    os.unlink(path)
if os.path.exists(saved):
    os.rename(saved, path)
