// The benchmark baseline in C++: the FIFO retrograde algorithm written as
// tight as a careful single-threaded C++ program gets it, so that ratios
// against it mean what they say.
//
//   g++ -O3 -march=native -o baseline-cpp bench/baseline/baseline.cpp
//   baseline-cpp GRAPH.txt
//
// - parse: the text edge list (`u v` per line, `#`/`%` comment lines) is
//   memory-mapped and parsed by a byte loop into two flat arrays reserved
//   from the file size up front (never reallocated or copied);
// - build: out- and in-degrees in one pass over the edges, then the reverse
//   adjacency by counting sort (prefix sum, one scatter);
// - solve: normal play, outcome, remoteness and the deciding move of every
//   decided position, from a FIFO queue over one flat array. Draws get no
//   move (retrograde computes one for every draw).
//
// It prints counts and phase times in the format bench/speed.sh reads.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

using u32 = uint32_t;
using u64 = uint64_t;

static double since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// An array of plain values that is never initialised: pages are touched
// only when written, like a careful C program's malloc. With `random`, a big
// array is aligned to 2 MiB and asked for transparent huge pages, as
// retrograde's are: random access into it then misses the TLB far less
// often. (Arrays written in order keep small pages: faulting in huge ones
// cost the parse more than it saved.)
template <class T> static T* raw(size_t n, bool random = true) {
    size_t bytes = n * sizeof(T) + 1;
    const size_t huge = size_t(2) << 20;
    void* p = nullptr;
    if (random && bytes >= 2 * huge) {
        bytes = (bytes + huge - 1) / huge * huge;
        p = std::aligned_alloc(huge, bytes);
        if (p) madvise(p, bytes, MADV_HUGEPAGE);
    } else {
        p = std::malloc(bytes);
    }
    if (!p) {
        std::perror("malloc");
        std::exit(1);
    }
    return static_cast<T*>(p);
}

// raw(), zeroed.
template <class T> static T* zeroed(size_t n) {
    T* p = raw<T>(n);
    std::memset(p, 0, n * sizeof(T));
    return p;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: baseline-cpp GRAPH.txt\n");
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    int fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
        std::perror(argv[1]);
        return 1;
    }
    struct stat st;
    fstat(fd, &st);
    size_t size = st.st_size;
    const unsigned char* data = static_cast<const unsigned char*>(
        mmap(nullptr, size ? size : 1, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0));
    if (data == MAP_FAILED) {
        std::perror("mmap");
        return 1;
    }
    madvise(const_cast<unsigned char*>(data), size, MADV_SEQUENTIAL);

    // Parse. A line holds at least 4 bytes ("u v\n"), so size / 4 + 1 edges
    // always fit; the untouched tail of the reservation costs no memory.
    size_t cap = size / 4 + 1;
    u32* src = raw<u32>(cap, false);
    u32* dst = raw<u32>(cap, false);
    size_t m = 0;
    u32 vmax = 0;
    const unsigned char* p = data;
    const unsigned char* end = data + size;
    while (p < end) {
        unsigned char c = *p;
        if (c == '#' || c == '%' || c == '\n' || c == '\r') {
            while (p < end && *p != '\n') ++p;
            ++p;
            continue;
        }
        u32 f[2];
        for (int k = 0; k < 2; ++k) {
            while (p < end && (*p == ' ' || *p == '\t')) ++p;
            u32 x = 0;
            while (p < end && (unsigned)(*p - '0') < 10) x = x * 10 + (*p++ - '0');
            f[k] = x;
        }
        while (p < end && *p != '\n') ++p;
        ++p;
        src[m] = f[0];
        dst[m] = f[1];
        u32 hi = f[0] > f[1] ? f[0] : f[1];
        if (hi > vmax) vmax = hi;
        ++m;
    }
    munmap(const_cast<unsigned char*>(data), size);
    size_t n = m ? size_t(vmax) + 1 : 0;
    double t_parse = since(t0);

    // Build: degrees, prefix sum, scatter.
    u32* counter = zeroed<u32>(n + 1);
    u64* start = zeroed<u64>(n + 2);
    for (size_t e = 0; e < m; ++e) {
        counter[src[e]]++;
        start[dst[e] + 1]++;
    }
    for (size_t v = 0; v < n; ++v) start[v + 1] += start[v];
    u64* fill = raw<u64>(n + 1);
    std::memcpy(fill, start, (n + 1) * sizeof(u64));
    u32* preds = raw<u32>(m);
    for (size_t e = 0; e < m; ++e) preds[fill[dst[e]]++] = src[e];
    std::free(fill);
    std::free(src);
    std::free(dst);
    double t_build = since(t0);

    // Solve. outcome: 0 unknown, 1 win, 2 lose.
    uint8_t* outcome = zeroed<uint8_t>(n + 1);
    u32* remoteness = zeroed<u32>(n + 1);
    u32* best = raw<u32>(n + 1);
    std::memset(best, 0xff, (n + 1) * sizeof(u32));
    u32* queue = raw<u32>(n + 1);
    size_t tail = 0;
    for (size_t v = 0; v < n; ++v)
        if (counter[v] == 0) {
            outcome[v] = 2;
            queue[tail++] = u32(v);
        }
    for (size_t head = 0; head < tail; ++head) {
        u32 u = queue[head];
        uint8_t ou = outcome[u];
        u32 ru = remoteness[u] + 1;
        for (u64 k = start[u], e = start[u + 1]; k < e; ++k) {
            u32 q = preds[k];
            if (outcome[q]) continue;
            if (ou == 2) {
                outcome[q] = 1;
            } else if (--counter[q] == 0) {
                outcome[q] = 2;
            } else {
                continue;
            }
            remoteness[q] = ru;
            best[q] = u;
            queue[tail++] = q;
        }
    }
    double t_solve = since(t0);

    size_t wins = 0, losses = 0, moves = 0;
    u32 longest = 0;
    for (size_t v = 0; v < n; ++v) {
        wins += outcome[v] == 1;
        losses += outcome[v] == 2;
        moves += best[v] != ~0u;
        if (outcome[v] && remoteness[v] > longest) longest = remoteness[v];
    }
    std::printf("baseline: %zu vertices, %zu edges: %zu win, %zu lose, %zu draw, longest remoteness %u\n",
                n, m, wins, losses, n - wins - losses, longest);
    std::printf("baseline: parse %.3f s, build %.3f s, solve %.3f s, total %.3f s (best moves kept: %zu)\n",
                t_parse, t_build - t_parse, t_solve - t_build, t_solve, moves);
    return 0;
}
