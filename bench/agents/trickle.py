# An agent-like pace: `rate` lines a second for `seconds`, each ~85 characters, flushed one by
# one as a model streaming its steps would. One process per task (a shell loop would fork a
# `sleep` per line and load the machine more than the dashboards under test).
import os
import random
import sys
import time

rate = float(sys.argv[1])
seconds = float(sys.argv[2])
total = int(rate * seconds)
started = time.monotonic()
# BENCH_TRICKLE_VARIED=1: each line different from the one before (words drawn at random), as
# a real agent's are, for figures that depend on how alike consecutive lines are (the bytes a
# dashboard sends its terminal: bench/terminal-bytes.mjs).
varied = os.environ.get("BENCH_TRICKLE_VARIED") == "1"
words = ("reading files thinking about the patch running tests again grep found three matches in src "
         "core config parse route plan cache write result answer tool call model token budget").split()
pick = random.Random(os.getpid())
for i in range(total):
    if varied:
        text = " ".join(pick.choice(words) for _ in range(pick.randint(6, 14)))
        sys.stdout.write(f"▸ {text}\n")
    else:
        sys.stdout.write(f"▸ step {i:6d}: reading files, thinking about the patch, running the tests again\n")
    sys.stdout.flush()
    delay = started + (i + 1) / rate - time.monotonic()
    if delay > 0:
        time.sleep(delay)
