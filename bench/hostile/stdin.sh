#!/bin/sh
# Tries to read stdin, then the controlling terminal: either would steal the operator's keys.
echo "reading stdin..."
if IFS= read -r line; then echo "stdin gave: $line"; else echo "stdin: EOF or error"; fi
echo "reading /dev/tty..."
if IFS= read -r line </dev/tty; then echo "/dev/tty gave: $line"; else echo "/dev/tty: could not read"; fi 2>&1
echo "done reading; idling"
sleep "${STDIN_SLEEP:-20}"
