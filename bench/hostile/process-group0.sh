#!/bin/sh
# process-group0.py for dispatch.sh, which runs only NAME.sh.
exec python3 "$(dirname "$0")/process-group0.py" "$@"
