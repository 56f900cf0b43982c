# An agent-like pace: `rate` lines a second for `seconds`, each ~85 characters, flushed one by
# one as a model streaming its steps would. One process per task (a shell loop would fork a
# `sleep` per line and load the machine more than the dashboards under test).
import sys
import time

rate = float(sys.argv[1])
seconds = float(sys.argv[2])
total = int(rate * seconds)
started = time.monotonic()
for i in range(total):
    sys.stdout.write(f"▸ step {i:6d}: reading files, thinking about the patch, running the tests again\n")
    sys.stdout.flush()
    delay = started + (i + 1) / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)
