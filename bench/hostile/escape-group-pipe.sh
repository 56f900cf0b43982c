#!/bin/sh
# escape-group.sh whose escaped grandchild keeps writing to the agent's stdout.
ESCAPE_KEEP_PIPE=1 exec "$(dirname "$0")/escape-group.sh" "$@"
