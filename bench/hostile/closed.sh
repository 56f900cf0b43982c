#!/bin/sh
# Says one line, closes stdout and stderr, and keeps running: the pipes reach EOF long before
# the process exits.
echo "closing my output now and staying alive for ${CLOSED_SLEEP:-30}s"
exec >&- 2>&-
sleep "${CLOSED_SLEEP:-30}"
