#!/bin/sh
# Starts a child that calls setsid (a session of its own: out of reach of signals to the agent's
# group and of a scan of its session), with its output detached, and stays alive itself for
# AGENT_SLEEP seconds: while it does, the child is its descendant, which hermes-delegate watches.
setsid sleep "${ESCAPEE_SLEEP:-3600}" </dev/null >/dev/null 2>&1 &
echo "escapee $! in its own session"
exec sleep "${AGENT_SLEEP:-3600}"
