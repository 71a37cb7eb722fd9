// Shared by every perf suite: NVSHMEM-perftest-compatible options and one report format.
// Options: -b MIN -e MAX -f FACTOR (sizes in bytes, K/M/G suffixes), -n ITERS -w WARMUP,
// -c CTAS -t THREADS -s thread|warp|block (GPU suites), --bidir, --csv, --json, -h.
// Output (PE 0 only): a table by default; --csv / --json print one record per (size, metric) with
// the suite, the PE count and the options, so a runner can merge many suites into one file.
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace perf {

struct Options {
  size_t min_size = 8, max_size = 8, factor = 2;
  int iters = 1000, warmup = 100;
  int ctas = 1, threads = 1;
  std::string scope = "thread";
  bool bidir = false;
  enum Format { table, csv, json } format = table;
};

// A size with an optional K/M/G/T suffix (powers of 1024; a fraction is rounded up): false for a
// malformed or negative value. The NVSHMEM-perftest programs' options and shmem_st_placement.
inline bool parse_scaled(const char* s, size_t* out) {
  char* end = nullptr;
  const double v = strtod(s, &end);
  if (end == s || v < 0) return false;
  int shift = 0;
  switch (*end) {
    case '\0': break;
    case 'k': case 'K': shift = 10; break;
    case 'm': case 'M': shift = 20; break;
    case 'g': case 'G': shift = 30; break;
    case 't': case 'T': shift = 40; break;
    default: return false;
  }
  if (*end && end[1]) return false;
  const double bytes = std::ceil(v * std::pow(2.0, shift));
  if (!(bytes < 0x1p62)) return false;  // no conversion past size_t's range
  *out = static_cast<size_t>(bytes);
  return true;
}

inline size_t parse_size(const char* s) {
  char* end = nullptr;
  double v = strtod(s, &end);
  switch (end && *end ? *end : ' ') {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024; break;
    case 'g': case 'G': v *= 1024.0 * 1024 * 1024; break;
    default: break;
  }
  return static_cast<size_t>(v);
}

// defaults: the suite's own min/max (latency suites 8 B..., bandwidth suites larger).
inline Options parse(int argc, char** argv, const char* suite, Options d) {
  Options o = d;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&](const char* what) -> const char* {
      if (i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", suite, what);
        exit(2);
      }
      return argv[++i];
    };
    if (a == "-b") o.min_size = parse_size(next("-b"));
    else if (a == "-e") o.max_size = parse_size(next("-e"));
    else if (a == "-f") o.factor = parse_size(next("-f"));
    else if (a == "-n") o.iters = atoi(next("-n"));
    else if (a == "-w") o.warmup = atoi(next("-w"));
    else if (a == "-c") o.ctas = atoi(next("-c"));
    else if (a == "-t") o.threads = atoi(next("-t"));
    else if (a == "-s") o.scope = next("-s");
    else if (a == "--bidir") o.bidir = true;
    else if (a == "--csv") o.format = Options::csv;
    else if (a == "--json") o.format = Options::json;
    else {
      printf("usage: %s [-b min] [-e max] [-f factor] [-n iters] [-w warmup] [-c ctas] [-t threads]\n"
             "       [-s thread|warp|block] [--bidir] [--csv|--json]\n", suite);
      exit(a == "-h" || a == "--help" ? 0 : 2);
    }
  }
  if (o.factor < 2 || o.min_size == 0 || o.max_size < o.min_size || o.iters < 1 || o.warmup < 0 || o.ctas < 1 ||
      o.threads < 1 || (o.scope != "thread" && o.scope != "warp" && o.scope != "block")) {
    fprintf(stderr, "%s: invalid options (sizes %zu..%zu x%zu, iters %d, warmup %d, ctas %d, threads %d, scope %s)\n",
            suite, o.min_size, o.max_size, o.factor, o.iters, o.warmup, o.ctas, o.threads, o.scope.c_str());
    exit(2);
  }
  return o;
}

inline std::vector<size_t> sizes(const Options& o) {
  std::vector<size_t> v;
  for (size_t s = o.min_size; s <= o.max_size; s *= o.factor) {
    v.push_back(s);
    if (s > SIZE_MAX / o.factor) break;
  }
  return v;
}

struct Row {
  size_t size;
  std::string metric;  // e.g. "latency", "bandwidth", "fetch_add"
  double value;
  std::string unit;    // "us", "GB/s"
};

class Report {
 public:
  Report(std::string suite, const Options& o, int npes, std::string impl = "gshmem")
      : suite_(std::move(suite)), o_(o), npes_(npes), impl_(std::move(impl)) {}
  void add(size_t size, const std::string& metric, double value, const std::string& unit) {
    rows_.push_back({size, metric, value, unit});
  }
  void print(FILE* out = stdout) const {
    if (o_.format == Options::table) {
      fprintf(out, "# %s (%s, %d PEs, iters %d, warmup %d%s%s)\n", suite_.c_str(), impl_.c_str(), npes_, o_.iters,
              o_.warmup, o_.bidir ? ", bidir" : "", scope_note().c_str());
      fprintf(out, "%14s  %-22s %12s %s\n", "size (B)", "metric", "value", "unit");
      for (const Row& r : rows_)
        fprintf(out, "%14zu  %-22s %12.3f %s\n", r.size, r.metric.c_str(), r.value, r.unit.c_str());
    } else if (o_.format == Options::csv) {
      fprintf(out, "impl,suite,npes,size,metric,value,unit,iters,warmup,ctas,threads,scope,bidir\n");
      for (const Row& r : rows_)
        fprintf(out, "%s,%s,%d,%zu,%s,%.6f,%s,%d,%d,%d,%d,%s,%d\n", impl_.c_str(), suite_.c_str(), npes_, r.size,
                r.metric.c_str(), r.value, r.unit.c_str(), o_.iters, o_.warmup, o_.ctas, o_.threads, o_.scope.c_str(),
                o_.bidir);
    } else {
      for (const Row& r : rows_)
        fprintf(out,
                "{\"impl\":\"%s\",\"suite\":\"%s\",\"npes\":%d,\"size\":%zu,\"metric\":\"%s\",\"value\":%.6f,"
                "\"unit\":\"%s\",\"iters\":%d,\"warmup\":%d,\"ctas\":%d,\"threads\":%d,\"scope\":\"%s\",\"bidir\":%s}\n",
                impl_.c_str(), suite_.c_str(), npes_, r.size, r.metric.c_str(), r.value, r.unit.c_str(), o_.iters,
                o_.warmup, o_.ctas, o_.threads, o_.scope.c_str(), o_.bidir ? "true" : "false");
    }
    fflush(out);
  }

 private:
  std::string scope_note() const {
    return o_.ctas > 1 || o_.threads > 1 || o_.scope != "thread"
               ? ", " + std::to_string(o_.ctas) + " x " + std::to_string(o_.threads) + " " + o_.scope
               : "";
  }
  std::string suite_;
  Options o_;
  int npes_;
  std::string impl_;
  std::vector<Row> rows_;
};

template <typename T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? T() : v[v.size() / 2];
}

}  // namespace perf
