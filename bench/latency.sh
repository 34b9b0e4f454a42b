#!/usr/bin/env bash
# How the timely engine's round per ply behaves as the latency between
# processes grows.
#
#   bench/latency.sh [PROCESSES] [DELAYS_MS...]     (default 4, delays 0 1 5 20)
#
# Solves a serpentine corridor board (long best play: many rounds, few
# positions) and the open 30 x 30 board with PROCESSES processes on loopback,
# first directly, then with every connection through bench/delay_relay.py,
# which passes bytes on after a fixed one-way delay (the kernel here has no
# `tc netem`). Each process gets its own host list: its own address, and a
# relay in front of every other process. Prints a Markdown table: rounds,
# wall time, and the time per round beyond the direct run's.
set -euo pipefail
cd "$(dirname "$0")/.."

P=${1:-4}
shift || true
DELAYS=("${@:-0 1 5 20}")
# shellcheck disable=SC2206
DELAYS=(${DELAYS[*]})
BIN=target/release/retrograde
cargo build --release --quiet -p retrograde-cli
DIR=$(mktemp -d)
RELAY=
trap '[ -n "$RELAY" ] && kill "$RELAY" 2> /dev/null; rm -rf "$DIR"' EXIT

# A serpentine corridor: free rows joined at alternating ends.
serpentine() {
    local rows=$1 cols=$2
    echo "# a serpentine corridor"
    echo "$rows $cols"
    for ((r = 0; r < rows; r++)); do
        local line=""
        for ((c = 0; c < cols; c++)); do
            if ((r % 2 == 0)); then
                if ((r == 0 && c == 0)); then line+="P"
                elif ((r == rows - 1 && c == cols - 1)); then line+="T"
                else line+="."; fi
            elif (((r / 2) % 2 == 0 && c == cols - 1)) || (((r / 2) % 2 == 1 && c == 0)); then
                line+="."
            else
                line+="*"
            fi
        done
        echo "$line"
    done
}
open_board() {
    local n=$1
    echo "# open"
    echo "$n $n"
    for ((r = 0; r < n; r++)); do
        local line=""
        for ((c = 0; c < n; c++)); do
            if ((r == 0 && c == 0)); then line+="P"
            elif ((r == n - 1 && c == n - 1)); then line+="T"
            else line+="."; fi
        done
        echo "$line"
    done
}
serpentine 25 25 > "$DIR/snake.txt"
open_board 30 > "$DIR/open30.txt"

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

echo "$P processes x 1 worker thread; $(nproc) cores; one-way delay added on every connection"
echo
echo "| board | positions | rounds | one-way delay | wall time | beyond direct, per round |"
echo "| --- | --- | --- | --- | --- | --- |"
for board in snake open30; do
    B="$DIR/$board.txt"
    WANT=$("$BIN" cop-thief "$B" --map --stats 2> "$DIR/want.stats")
    WANT_SOLVED=$(grep '^solved:' "$DIR/want.stats")
    POSITIONS=$(grep -o '[0-9,]* positions' "$DIR/want.stats" | cut -d' ' -f1)
    BASE=
    for delay in direct "${DELAYS[@]}"; do
        ports=() relays=()
        for ((p = 0; p < P; p++)); do ports+=("$(free_port)"); relays+=("$(free_port)"); done
        for ((k = 0; k < P; k++)); do
            : > "$DIR/hosts$k"
            for ((j = 0; j < P; j++)); do
                if [ "$delay" = direct ] || ((j == k)); then
                    echo "127.0.0.1:${ports[j]}" >> "$DIR/hosts$k"
                else
                    echo "127.0.0.1:${relays[j]}" >> "$DIR/hosts$k"
                fi
            done
        done
        if [ "$delay" != direct ]; then
            pairs=()
            for ((j = 0; j < P; j++)); do pairs+=("${relays[j]}:${ports[j]}"); done
            python3 bench/delay_relay.py "$delay" "${pairs[@]}" &
            RELAY=$!
            sleep 0.5
        fi
        start=$(date +%s.%N)
        pids=()
        for ((k = 1; k < P; k++)); do
            "$BIN" cop-thief "$B" --cluster "$DIR/hosts$k" --process "$k" -q &
            pids+=($!)
        done
        "$BIN" cop-thief "$B" --cluster "$DIR/hosts0" --process 0 --map --stats 2> "$DIR/stats" > "$DIR/got.txt"
        for pid in "${pids[@]}"; do wait "$pid"; done
        end=$(date +%s.%N)
        if [ -n "$RELAY" ]; then kill "$RELAY" 2> /dev/null || true; wait "$RELAY" 2> /dev/null || true; RELAY=; fi
        [ "$(cat "$DIR/got.txt")" = "$WANT" ] && [ "$(grep '^solved:' "$DIR/stats")" = "$WANT_SOLVED" ] ||
            { echo "the cluster's answer differs ($board, $delay)"; exit 1; }
        ROUNDS=$(grep -o '[0-9]* rounds' "$DIR/stats" | cut -d' ' -f1)
        WALL=$(python3 -c "print($end - $start)")
        if [ "$delay" = direct ]; then
            BASE=$WALL
            printf '| %s | %s | %s | none (direct) | %.2f s | |\n' "$board" "$POSITIONS" "$ROUNDS" "$WALL"
        else
            PER=$(python3 -c "print(($WALL - $BASE) * 1000 / $ROUNDS)")
            printf '| %s | %s | %s | %s ms | %.2f s | %.1f ms |\n' "$board" "$POSITIONS" "$ROUNDS" "$delay" "$WALL" "$PER"
        fi
    done
done
echo
echo "every answer is identical to the single-process one"
