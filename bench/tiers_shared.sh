#!/usr/bin/env bash
# A game solved tier by tier, its tiers shared out among processes, against
# the same game solved by one process.
#
#   bench/tiers_shared.sh [GAME TIER]     (default: nine-mens-morris 0.4-0.4)
#
# Solves TIER and every tier below it alone on one thread and on all
# threads, then as 2 processes of one thread each on loopback (each with a
# directory of its own). Process 0's report must equal the lone run's, and
# its directory the lone run's, file by file. Prints a Markdown table: wall
# time, peak resident memory (from /usr/bin/time -v) of each process, and
# each run's time as a ratio of the lone one-thread run's.
set -euo pipefail
cd "$(dirname "$0")/.."

GAME=${1:-nine-mens-morris}
TIER=${2:-0.4-0.4}
BIN=$PWD/target/release/retrograde
cargo build --release --quiet -p retrograde-cli
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

seconds() { awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; printf "%.2f", s }' "$1"; }
mib() { awk -F': ' '/Maximum resident set size/ { printf "%.0f", $2 / 1024 }' "$1"; }
# The report without its time line.
report() { grep -v '^time:' "$1"; }

# run NAME THREADS [ARGS...]: one process, timed into $DIR/NAME.time.
run() {
    local name=$1 threads=$2
    shift 2
    /usr/bin/time -v -o "$DIR/$name.time" "$BIN" -j "$threads" game "$GAME" "$TIER" \
        --tiers "$DIR/$name" -q "$@" > "$DIR/$name.out" 2> "$DIR/$name.err"
}

echo "game: $GAME $TIER; $(nproc) cores"
echo
echo "| run | process | wall time | peak memory | time / alone on 1 thread |"
echo "|---|---|---|---|---|"
run alone1 1
base=$(seconds "$DIR/alone1.time")
echo "| alone, 1 thread | 0 | $base s | $(mib "$DIR/alone1.time") MiB | 1.00 |"
run alone2 "$(nproc)"
t=$(seconds "$DIR/alone2.time")
echo "| alone, $(nproc) threads | 0 | $t s | $(mib "$DIR/alone2.time") MiB | $(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.2f", a / b }') |"

HOSTS=$DIR/hosts.txt
for p in 0 1; do
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    echo "127.0.0.1:$port" >> "$HOSTS"
done
run shared1 1 --cluster "$HOSTS" --process 1 &
run shared0 1 --cluster "$HOSTS" --process 0
wait
for p in 0 1; do
    t=$(seconds "$DIR/shared$p.time")
    echo "| 2 processes x 1 thread | $p | $t s | $(mib "$DIR/shared$p.time") MiB | $(awk -v a="$t" -v b="$base" 'BEGIN { printf "%.2f", a / b }') |"
done

# Process 0 reports what the lone run reports, and holds its files.
if ! diff <(report "$DIR/alone1.out") <(report "$DIR/shared0.out") > /dev/null; then
    echo "process 0's report differs from the lone run's" >&2
    exit 1
fi
for f in "$DIR"/alone1/*; do
    cmp -s "$f" "$DIR/shared0/$(basename "$f")" || { echo "$(basename "$f") differs" >&2; exit 1; }
done
echo
echo "process 0's report and files: the lone run's"
