#!/usr/bin/env python3
# Starts a child in a process group of its own, as Python's subprocess does with process_group=0
# (a preexec_fn calling os.setpgid(0, 0) before 3.11): out of reach of a signal to the agent's
# group, still in the agent's session. AGENT_EXIT=1: answer and exit, leaving the child running.
import os
import subprocess
import sys

argv = ["sleep", os.environ.get("JOB_SLEEP", "3600")]
if sys.version_info >= (3, 11):
    child = subprocess.Popen(argv, process_group=0)
else:
    child = subprocess.Popen(argv, preexec_fn=lambda: os.setpgid(0, 0))
print(f"child {child.pid} in its own process group", flush=True)
if os.environ.get("AGENT_EXIT") == "1":
    print("answer", flush=True)
    sys.exit(0)
child.wait()
