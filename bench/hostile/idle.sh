#!/bin/sh
# Prints one line and waits quietly until killed: the no-load baseline.
echo "idle agent $$ waiting"
exec sleep "${IDLE_SLEEP:-3600}"
