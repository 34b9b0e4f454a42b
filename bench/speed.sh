#!/usr/bin/env bash
# Speed and memory of `retrograde solve` against a tight single-threaded C++
# program of the same algorithm (bench/baseline/baseline.cpp, built here with
# g++ -O3 -march=native), measured in the same run on the same graph. The
# Rust version of that program (bench/baseline) is shown too.
#
#   bench/speed.sh [VERTICES] [EDGES] [RUNS]     (default 4000000 24000000 3)
#
# Generates a random graph (text and binary) under target/bench/ unless it is
# there already, then runs each configuration RUNS times and keeps the fastest
# run. Times are wall-clock for the whole process (end to end: read, build,
# solve; no output file); peak memory is the maximum resident set size.
set -euo pipefail
cd "$(dirname "$0")/.."
V=${1:-4000000}
E=${2:-24000000}
RUNS=${3:-3}
DIR=target/bench
BIN=target/release/retrograde
BASE=target/release/baseline-cpp
RUST_BASE=target/release/baseline
cargo build --release -q -p retrograde-cli -p retrograde-baseline
command -v "${CXX:-g++}" >/dev/null || { echo "speed.sh needs a C++ compiler (g++, or CXX=...)" >&2; exit 1; }
"${CXX:-g++}" -O3 -march=native -o "$BASE" bench/baseline/baseline.cpp
mkdir -p "$DIR"
TXT="$DIR/random-$V-$E.txt"
RGB="$DIR/random-$V-$E.rgb"
[ -f "$TXT" ] || "$BIN" generate -q -n "$V" -m "$E" -s 42 "$TXT"
[ -f "$RGB" ] || "$BIN" convert -q "$TXT" "$RGB"
echo "graph: $V vertices, $E edges; text $(du -h "$TXT" | cut -f1), binary $(du -h "$RGB" | cut -f1)"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo); best of $RUNS runs"

# best "seconds peak_kib phases" of RUNS runs of a command
measure() {
    local best="" out
    for _ in $(seq "$RUNS"); do
        out=$( { /usr/bin/time -f "TIME %e %M" "$@" 2>&1 1>&3 3>&-; } 3>&1 )
        local t m phases
        t=$(echo "$out" | awk '/^TIME/ {print $2}')
        m=$(echo "$out" | awk '/^TIME/ {print $3}')
        phases=$(echo "$out" | awk '
            /^baseline: parse/ {gsub(",", ""); printf "parse %s build %s solve %s", $3, $6, $9}
            /^(read|solve) / && $3 == "s" {printf "%s %s ", $1, $2}')
        if [ -z "$best" ] || awk "BEGIN {exit !($t < ${best%% *})}"; then
            best="$t $m $phases"
        fi
    done
    echo "$best"
}

printf "\n%-28s %8s %7s %10s %9s %7s  %s\n" "configuration" "time s" "ratio" "edges/s" "peak MiB" "ratio" "phases (s)"
base=$(measure "$BASE" "$TXT")
bt=${base%% *}
bm=$(echo "$base" | cut -d' ' -f2)
row() {
    local name=$1 res=$2 t m
    t=$(echo "$res" | cut -d' ' -f1)
    m=$(echo "$res" | cut -d' ' -f2)
    printf "%-28s %8.2f %6.2fx %9.1fM %9.0f %6.2fx  %s\n" "$name" "$t" \
        "$(awk "BEGIN {print $t / $bt}")" "$(awk "BEGIN {print $E / ($t > 0 ? $t : 0.01) / 1e6}")" \
        "$(awk "BEGIN {print $m / 1024}")" "$(awk "BEGIN {print $m / $bm}")" \
        "$(echo "$res" | cut -d' ' -f3-)"
}
row "C++ baseline (1 thread, text)" "$base"
row "Rust baseline (1 thread, text)" "$(measure "$RUST_BASE" "$TXT")"
for threads in 1 2; do
    for input in "$TXT" "$RGB"; do
        kind=text; [ "$input" = "$RGB" ] && kind=binary
        row "retrograde -j $threads $kind" "$(measure "$BIN" -j "$threads" solve "$input" -q --stats)"
    done
done
