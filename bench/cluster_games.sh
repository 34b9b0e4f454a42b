#!/usr/bin/env bash
# A numbered game on the timely engine against the in-process engines.
#
#   bench/cluster_games.sh [BOARD]      (default examples/boards/open100.txt)
#
# Solves the cop-and-thief board with the queue engine on its explicit graph
# (--explicit), the lean engine on 1 and on all cores (the default), then the
# timely engine, every worker generating the moves of its own positions: 1
# process of 1 and of 2 workers, and 1, 2 and 4 processes of one worker on
# loopback; as root, also 4 processes in network namespaces of their own
# joined by veth links. Every answer (verdict, map, counts) is compared with
# the lean engine's. Prints a Markdown table: wall time and peak resident
# memory (from /usr/bin/time -v) of each process.
set -euo pipefail
cd "$(dirname "$0")/.."

BOARD=${1:-examples/boards/open100.txt}
BIN=$PWD/target/release/retrograde
cargo build --release --quiet -p retrograde-cli
DIR=$(mktemp -d)
NS=()
cleanup() {
    for n in "${NS[@]}"; do ip netns del "$n" 2> /dev/null || true; done
    rm -rf "$DIR"
}
trap cleanup EXIT

stats() {
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
        /Maximum resident set size/ { kb = $2 }
        END { printf "%.2f s | %.0f MiB", s, kb / 1024 }' "$1"
}
# The answer: the verdict and map (standard output) and the counts line.
answer() { cat "$1.out"; grep '^solved:' "$1.err"; }

"$BIN" cop-thief "$BOARD" --stats -q > /dev/null 2> "$DIR/size"
echo "board: $(grep '^board:' "$DIR/size" | cut -d' ' -f2-); $(nproc) cores"
echo
echo "| engine | processes x workers | process | wall time | peak memory |"
echo "| --- | --- | --- | --- | --- |"

run() { # NAME ARGS...: one process, its answer kept as NAME
    local name=$1
    shift
    /usr/bin/time -v -o "$DIR/$name.time" "$BIN" cop-thief "$BOARD" --map --stats -q "$@" \
        > "$DIR/$name.out" 2> "$DIR/$name.err"
}
run lean2
run lean1 -j 1
run explicit --explicit -j 1
answer "$DIR/lean2" > "$DIR/want"
for r in lean1 explicit; do cmp <(answer "$DIR/$r") "$DIR/want"; done
echo "| queue (--explicit) | 1 x 1 | 0 | $(stats "$DIR/explicit.time") |"
echo "| lean | 1 x 1 | 0 | $(stats "$DIR/lean1.time") |"
echo "| lean | 1 x $(nproc) | 0 | $(stats "$DIR/lean2.time") |"
for w in 1 2; do
    run "t1x$w" --engine timely -j "$w"
    cmp <(answer "$DIR/t1x$w") "$DIR/want"
    echo "| timely | 1 x $w | 0 | $(stats "$DIR/t1x$w.time") |"
done

port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cluster() { # NAME P WRAP...: P processes, process k run as WRAP(k) BIN ...
    local name=$1 p=$2
    shift 2
    local pids=()
    for ((k = 0; k < p; k++)); do
        local wrap=()
        [ $# -gt 0 ] && wrap=(ip netns exec "${NS[k]}")
        /usr/bin/time -v -o "$DIR/$name.$k.time" "${wrap[@]}" "$BIN" cop-thief "$BOARD" --map --stats -q \
            --cluster "$DIR/$name.hosts" --process "$k" > "$DIR/$name.$k.out" 2> "$DIR/$name.$k.err" &
        pids+=($!)
    done
    for pid in "${pids[@]}"; do wait "$pid"; done
    cmp <(answer "$DIR/$name.0") "$DIR/want"
    for ((k = 0; k < p; k++)); do
        echo "| timely, --cluster$([ $# -gt 0 ] && echo " in namespaces") | $p x 1 | $k | $(stats "$DIR/$name.$k.time") |"
    done
}
for P in 1 2 4; do
    : > "$DIR/c$P.hosts"
    for ((k = 0; k < P; k++)); do echo "127.0.0.1:$(port)" >> "$DIR/c$P.hosts"; done
    cluster "c$P" "$P"
done

# Four hosts: namespaces 10.78.0.1-4 on a bridge (root only).
if ip netns add "rgbench$$hub" 2> /dev/null; then
    NS=("rgbench$$h0" "rgbench$$h1" "rgbench$$h2" "rgbench$$h3" "rgbench$$hub")
    H="rgbench$$hub"
    ip -n "$H" link add br0 type bridge
    ip -n "$H" link set br0 up
    : > "$DIR/ns.hosts"
    for k in 0 1 2 3; do
        ip netns add "${NS[k]}"
        ip -n "$H" link add "b$k" type veth peer name "v$k" netns "${NS[k]}"
        ip -n "$H" link set "b$k" master br0 up
        ip -n "${NS[k]}" addr add "10.78.0.$((k + 1))/24" dev "v$k"
        ip -n "${NS[k]}" link set "v$k" up
        ip -n "${NS[k]}" link set lo up
        echo "10.78.0.$((k + 1)):47400" >> "$DIR/ns.hosts"
    done
    cluster ns 4 namespaces
else
    echo
    echo "(not root: no run across network namespaces)"
fi
echo
echo "every answer is identical to the lean engine's"
