#!/bin/sh
# Stand-in for `hermes chat`: answers at once. Measures scheduling and spawn overhead only.
echo "ok"
