#!/usr/bin/env bash
# Compares the timely engine with the in-process engines (sequential, and
# parallel on all cores) on one random graph.
#
#   bench/timely.sh [VERTICES] [EDGES] [SEED]      (default 1000000 6000000 1)
#
# Generates a uniform random multigraph (self-loops and parallel edges
# included), solves it with the sequential engine, then with the timely engine
# in 1, 2 and 4 processes (one worker thread each) on loopback, from the text
# edge list and from the same graph in the binary format (each worker reading
# the file once and keeping its own rows), and with one process of 2 worker
# threads. Every timely output is compared byte for byte
# with the sequential one. Prints a Markdown table: wall time and peak
# resident memory (from /usr/bin/time -v) of each process.
set -euo pipefail
cd "$(dirname "$0")/.."

N=${1:-1000000}
M=${2:-6000000}
SEED=${3:-1}
BIN=target/release/retrograde

cargo build --release --quiet -p retrograde-cli
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

"$BIN" generate -q -n "$N" -m "$M" -s "$SEED" "$DIR/g.txt"
"$BIN" convert -q "$DIR/g.txt" "$DIR/g.rgb"
echo "graph: $N vertices, $M edges, $(du -h "$DIR/g.txt" | cut -f1) of text; $(nproc) cores"
echo

# "seconds peak-MiB" from a /usr/bin/time -v report.
stats() {
    awk -F': ' '
        /Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i] }
        /Maximum resident set size/ { kb = $2 }
        END { printf "%.2f s | %.0f MiB", s, kb / 1024 }' "$1"
}

echo "| engine | processes x threads | process | wall time | peak memory |"
echo "| --- | --- | --- | --- | --- |"

/usr/bin/time -v -o "$DIR/seq.time" "$BIN" -j 1 solve "$DIR/g.txt" -q -o "$DIR/seq.tsv" --engine sequential
echo "| sequential | 1 x 1 | 0 | $(stats "$DIR/seq.time") |"
/usr/bin/time -v -o "$DIR/par.time" "$BIN" -j "$(nproc)" solve "$DIR/g.txt" -q -o "$DIR/par.tsv" --engine parallel
cmp "$DIR/seq.tsv" "$DIR/par.tsv"
echo "| parallel | 1 x $(nproc) | 0 | $(stats "$DIR/par.time") |"

port_base() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

for INPUT in txt rgb; do
    for P in 1 2 4; do
        : > "$DIR/hosts"
        for ((p = 0; p < P; p++)); do echo "127.0.0.1:$(port_base)" >> "$DIR/hosts"; done
        pids=()
        for ((p = 0; p < P; p++)); do
            /usr/bin/time -v -o "$DIR/t$P.$p.time" "$BIN" solve "$DIR/g.$INPUT" -q -o "$DIR/t$P.tsv" \
                --cluster "$DIR/hosts" --process "$p" --threads 1 &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid"; done
        cmp "$DIR/seq.tsv" "$DIR/t$P.tsv"
        for ((p = 0; p < P; p++)); do
            echo "| timely, .$INPUT | $P x 1 | $p | $(stats "$DIR/t$P.$p.time") |"
        done
    done
done

/usr/bin/time -v -o "$DIR/w2.time" "$BIN" solve "$DIR/g.txt" -q -o "$DIR/w2.tsv" --engine timely --threads 2
cmp "$DIR/seq.tsv" "$DIR/w2.tsv"
echo "| timely | 1 x 2 | 0 | $(stats "$DIR/w2.time") |"
echo
echo "all timely outputs are identical to the sequential one"
