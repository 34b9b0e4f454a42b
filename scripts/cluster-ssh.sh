#!/usr/bin/env bash
# Starts one retrograde process on every host of a host list, over ssh, and
# waits for them all; process 0's standard output is this script's.
#
#   scripts/cluster-ssh.sh HOSTFILE RETROGRADE-ARGS...
#
# HOSTFILE has one `host:port` line per process, process 0 first (`#`
# comments allowed), and must be at the same path on every host, like the
# binary (`retrograde` on the PATH, or set RETROGRADE) and the input. Each
# host runs
#
#   cd "$PWD" && retrograde RETROGRADE-ARGS... --cluster HOSTFILE --process K
#
# through `$SSH host` (default `ssh -o BatchMode=yes`). Standard error of
# process K goes to process-K.log here. Exits with the first non-zero exit
# code of any process (2 for a run that failed everywhere at once).
#
# Example: a board solved by four machines, each with a quarter of it.
#   printf 'node1:7000\nnode2:7000\nnode3:7000\nnode4:7000\n' > hosts.txt
#   scripts/cluster-ssh.sh hosts.txt cop-thief examples/boards/open100.txt --stats
set -euo pipefail
if [ $# -lt 2 ]; then
    sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2
    exit 2
fi
HOSTS=$1
shift
SSH=${SSH:-ssh -o BatchMode=yes}
RETROGRADE=${RETROGRADE:-retrograde}
mapfile -t hosts < <(grep -v '^[[:space:]]*\(#\|$\)' "$HOSTS" | sed 's/[[:space:]]*#.*//; s/:[0-9]*$//; s/^\[\(.*\)\]$/\1/')
[ ${#hosts[@]} -gt 0 ] || { echo "$HOSTS: no hosts" >&2; exit 2; }

quote() { printf '%q ' "$@"; }
pids=()
for k in "${!hosts[@]}"; do
    cmd="cd $(quote "$PWD") && exec $(quote "$RETROGRADE" "$@" --cluster "$HOSTS" --process "$k")"
    if [ "$k" -eq 0 ]; then
        $SSH "${hosts[k]}" "$cmd" 2> "process-$k.log" &
    else
        $SSH "${hosts[k]}" "$cmd" > /dev/null 2> "process-$k.log" &
    fi
    pids+=($!)
done
status=0
for k in "${!pids[@]}"; do
    wait "${pids[k]}" || {
        code=$?
        echo "process $k (${hosts[k]}) exited with $code; see process-$k.log" >&2
        [ "$status" -ne 0 ] || status=$code
    }
done
exit "$status"
