#!/bin/bash
# A job-control shell (`bash -m`, or an interactive tool shell): every background job gets a
# process group of its own (setpgid), out of reach of a signal to the agent's group, though it
# stays in the agent's session. AGENT_EXIT=1: the agent answers and exits, leaving the job running.
set -m
sleep "${JOB_SLEEP:-3600}" &
echo "job $! in its own process group"
if [ "${AGENT_EXIT:-0}" = 1 ]; then
	echo "answer"
	exit 0
fi
wait
