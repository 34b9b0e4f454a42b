#!/usr/bin/env bash
# Arenas (graphs whose vertices have owners) against the same game written as
# a strictly alternating graph: every move that keeps the turn split in two by
# a forced pass of the opponent (a new vertex with that one move). Both decide
# every position; the time per move is compared, in the same run.
#
#   bench/arenas.sh [VERTICES] [EDGES] [RUNS]     (default 1000000 6000000 3)
#
# Writes its inputs under target/bench/ unless they are there already; prints
# the solve phase (--stats) of the fastest of RUNS runs, on 1 and 2 threads.
set -euo pipefail
cd "$(dirname "$0")/.."
V=${1:-1000000}
E=${2:-6000000}
RUNS=${3:-3}
DIR=target/bench
BIN=target/release/retrograde
cargo build --release -q -p retrograde-cli
mkdir -p "$DIR"
G="$DIR/arena-$V-$E"
[ -f "$G.rgb" ] || {
    "$BIN" generate -q -n "$V" -m "$E" -s 42 "$G.txt"
    awk -v n="$V" 'BEGIN { srand(7); for (v = 0; v < n; v++) print v, (rand() < 0.5) ? 0 : 1 }' > "$G.owners"
    # Each move between two vertices of one owner, u v, becomes u x and x v.
    awk -v n="$V" 'NR == FNR { o[$1] = $2; next } /^#/ { next }
        { if (o[$1] == o[$2]) { print $1, n + k; print n + k, $2; k++ } else print $1, $2 }' \
        "$G.owners" "$G.txt" > "$G-passes.txt"
    "$BIN" convert -q "$G.txt" "$G.rgb"
    "$BIN" convert -q "$G-passes.txt" "$G-passes.rgb"
}
# fastest "seconds moves/s" of the solve phase over RUNS runs
fastest() {
    for _ in $(seq "$RUNS"); do
        "$@" --stats 2>&1 | awk '$1 == "solve" { print $2, $4, $5 }'
    done | sort -n | head -1
}
for j in 1 2; do
    echo "threads $j"
    echo "  arena, $E moves: $(fastest "$BIN" solve "$G.rgb" --owners "$G.owners" -j "$j" -q)"
    echo "  with forced passes, $(wc -l < "$G-passes.txt") moves: $(fastest "$BIN" solve "$G-passes.rgb" -j "$j" -q)"
done
