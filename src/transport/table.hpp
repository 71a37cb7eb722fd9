// The transport table: every transport gshmem has, one line each (table.cpp), in order of
// preference where two can reach a PE with the same capabilities. Adding a transport is a folder
// under transport/, a line here and a test against its engine.
//
// A line names the transport (the value GSHMEM_TRANSPORT and GSHMEM_PROXY_ENGINE take), says
// whether this PE can use it (probe: the library loads, the engine starts; what it can do here),
// and makes it (create). Core probes the transports a job may need on every PE, gathers which PE
// can use which, plans routes (core/route_plan.hpp) and creates, collectively, every off-node
// transport that some PE routes to.
#pragma once
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "transport/transport.hpp"

namespace gshmem::transport {

struct Probe {
  enum class State {
    usable,  // this PE can use it; caps says what it can do
    absent,  // its library or hardware is not on this machine (auto falls back to another)
    broken,  // present but it does not start (its settings, say): an error when it is needed
  };
  State state = State::absent;
  Caps caps;
  std::string why;  // absent or broken: what is missing or failed, naming the setting to change
};

struct Entry {
  const char* name;
  const char* summary;  // one line for gshmem-info
  Probe (*probe)(const Config& cfg, bool gpu);
  // peers: the PEs this PE reaches through it (may be empty). Collective for off-node transports.
  Result (*create)(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out);
};

std::span<const Entry> table();
// The index of the line named name, or -1.
int find(const std::string& name);

}  // namespace gshmem::transport
