// The native anchor of bench/bench_url_columns.py: ada's own C++ parser, no Python.
//
// Built by bench/native_ada.py from the ada-url sdist's amalgamation (ada.cpp, ada.h)
// with g++ -O3; never part of the package.  Reads a file of URLs, one a line, and
// prints, for each mode, the best of N passes in nanoseconds per row (CPU time of
// the thread, CLOCK_THREAD_CPUTIME_ID: on a shared machine, time spent waiting for
// a CPU is not the parser's; the Python side times its one-thread calls the same
// way, time.thread_time):
//   host: ada::parse<ada::url_aggregator> + get_hostname
//   ten:  the same parse + the ten getters a URL column holds (href, protocol,
//         username, password, host, hostname, port, pathname, search, hash)
// A row that does not parse counts as a row (its getters are not read).
//
//   native_ada FILE [PASSES]   ->   "rows N\nhost NS\nten NS\n"
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <time.h>
#include <vector>

#include "ada.h"

namespace {

volatile size_t sink;  // keeps the getters' lengths alive past the optimizer

double thread_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec * 1e9 + t.tv_nsec;
}

template <typename F>
double best_ns_per_row(const std::vector<std::string>& rows, int passes, F f) {
  double best = 1e300;
  for (int p = 0; p < passes; p++) {
    double t0 = thread_ns();
    size_t acc = 0;
    for (const std::string& s : rows) acc += f(s);
    double t1 = thread_ns();
    sink = acc;
    double ns = (t1 - t0) / rows.size();
    if (ns < best) best = ns;
  }
  return best;
}

size_t host(const std::string& s) {
  auto u = ada::parse<ada::url_aggregator>(s);
  return u ? u->get_hostname().size() : 0;
}

size_t ten(const std::string& s) {
  auto u = ada::parse<ada::url_aggregator>(s);
  if (!u) return 0;
  return u->get_href().size() + u->get_protocol().size() + u->get_username().size() +
         u->get_password().size() + u->get_host().size() + u->get_hostname().size() +
         u->get_port().size() + u->get_pathname().size() + u->get_search().size() +
         u->get_hash().size();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE [PASSES]\n", argv[0]);
    return 2;
  }
  int passes = argc > 2 ? std::atoi(argv[2]) : 15;
  std::ifstream in(argv[1]);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", argv[1]);
    return 2;
  }
  std::vector<std::string> rows;
  for (std::string line; std::getline(in, line);) rows.push_back(line);
  if (rows.empty()) return 2;
  std::printf("rows %zu\n", rows.size());
  std::printf("host %.2f\n", best_ns_per_row(rows, passes, host));
  std::printf("ten %.2f\n", best_ns_per_row(rows, passes, ten));
  return 0;
}
