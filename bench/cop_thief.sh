#!/usr/bin/env bash
# The cop and the thief: solving on the fly against materialise-then-solve.
#
#   bench/cop_thief.sh [SIZE...]        default sizes: 20 40 70 100
#
# For each size n, generates an open n x n board with about 15% walls (seeded,
# bench/gen_board.awk), then runs `retrograde cop-thief BOARD` (on the fly) and
# `retrograde cop-thief BOARD --explicit` (materialise the graph, then solve it)
# REPEAT times each (default 3) under /usr/bin/time, keeping the fastest run
# (wall-clock); CPU time is user + system.
# The explicit run is skipped above EXPLICIT_MAX (default 70), where the graph
# alone would take more than 10 GiB. Prints a Markdown table: wall-clock and
# user CPU seconds, peak resident memory, and the explicit/on-the-fly ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("$@")
[ ${#sizes[@]} -eq 0 ] && sizes=(20 40 70 100)
REPEAT=${REPEAT:-3}
EXPLICIT_MAX=${EXPLICIT_MAX:-70}
SEED=${SEED:-1}

cargo build --release -q -p retrograde-cli
bin=target/release/retrograde
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Best of REPEAT runs (by wall-clock time): "wall_s cpu_s peak_kib", CPU = user + system.
measure() {
    for _ in $(seq "$REPEAT"); do
        t0=$(date +%s%N)
        /usr/bin/time -f "%U %S %M" -o "$tmp/time" "$bin" cop-thief "$@" >/dev/null
        t1=$(date +%s%N)
        read -r user sys peak <"$tmp/time"
        awk -v ms=$(((t1 - t0) / 1000000)) -v u="$user" -v s="$sys" -v m="$peak" \
            'BEGIN { printf "%.3f %.2f %d\n", ms / 1000, u + s, m }'
    done | sort -n | head -1
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.1fx", a / b; else print "-" }'; }

echo "$(nproc) cores, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo); load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| board | free cells | positions | verdict | on the fly: wall / CPU / peak | explicit: wall / CPU / peak | time ratio | memory ratio |"
echo "|---|---|---|---|---|---|---|---|"
for n in "${sizes[@]}"; do
    board="$tmp/board$n.txt"
    awk -v n="$n" -v seed="$SEED" -f bench/gen_board.awk >"$board"
    json=$("$bin" cop-thief "$board" --json)
    field() { echo "$json" | sed -E "s/.*\"$1\":\"?([^,\"]*).*/\1/"; }
    read -r fw fu fm <<<"$(measure "$board")"
    fly="$fw s / $fu s / $(mib "$fm") MiB"
    if [ "$n" -le "$EXPLICIT_MAX" ]; then
        read -r ew eu em <<<"$(measure "$board" --explicit)"
        exp="$ew s / $eu s / $(mib "$em") MiB"
        tr="$(ratio "$ew" "$fw") (CPU $(ratio "$eu" "$fu"))"
        mr=$(ratio "$em" "$fm")
    else
        exp="not run"; tr="-"; mr="-"
    fi
    echo "| ${n}x${n} | $(field free_cells) | $(field positions) | $(field verdict) | $fly | $exp | $tr | $mr |"
done
