#!/bin/sh
# 5 MiB of random bytes on stdout: every control byte and broken UTF-8 there is. A copy goes to
# $HOSTILE_COPY_DIR/binary.bin (when set) so the log can be compared byte for byte with cmp.
if [ -n "$HOSTILE_COPY_DIR" ]; then
	head -c 5M /dev/urandom | tee "$HOSTILE_COPY_DIR/binary.bin"
else
	head -c 5M /dev/urandom
fi
