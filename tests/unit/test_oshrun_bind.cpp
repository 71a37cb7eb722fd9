// oshrun's CPU binding plan on machines other than this one: hardware threads of a core, two
// packages with the same core ids, CPUs numbered with the siblings far apart, a short machine.
#include <gtest/gtest.h>

#include "oshrun_bind.hpp"

using gshmem::oshrun::BindRequest;
using gshmem::oshrun::BindTo;
using gshmem::oshrun::Cpu;
using gshmem::oshrun::plan_binding;

namespace {

// Two packages of two cores with two hardware threads each, numbered as Linux numbers them on
// most x86 hosts: CPUs 0-3 the first thread of every core, 4-7 their siblings (the key is the
// core's sibling list, as sysfs gives it).
std::vector<Cpu> smt_machine() {
  std::vector<Cpu> cpus;
  for (int c = 0; c < 8; ++c) {
    const int first = c % 4;  // the core's first thread; its sibling is first + 4
    cpus.push_back({c, std::to_string(first) + "," + std::to_string(first + 4)});
  }
  return cpus;
}

TEST(OshrunBind, CoreTakesEveryThreadOfTheCore) {
  std::vector<std::vector<int>> out;
  std::string why;
  ASSERT_TRUE(plan_binding({BindTo::core, 1}, 4, smt_machine(), &out, &why)) << why;
  const std::vector<std::vector<int>> want = {{0, 4}, {1, 5}, {2, 6}, {3, 7}};
  EXPECT_EQ(out, want);
}

TEST(OshrunBind, CoresPerPe) {
  std::vector<std::vector<int>> out;
  std::string why;
  ASSERT_TRUE(plan_binding({BindTo::core, 2}, 2, smt_machine(), &out, &why)) << why;
  const std::vector<std::vector<int>> want = {{0, 1, 4, 5}, {2, 3, 6, 7}};
  EXPECT_EQ(out, want);
}

TEST(OshrunBind, HwthreadTakesOneCpu) {
  std::vector<std::vector<int>> out;
  std::string why;
  ASSERT_TRUE(plan_binding({BindTo::hwthread, 3}, 2, smt_machine(), &out, &why)) << why;
  const std::vector<std::vector<int>> want = {{0, 1, 2}, {3, 4, 5}};
  EXPECT_EQ(out, want);
}

TEST(OshrunBind, PartOfACoreAllowed) {
  // Only one thread of core 0 in the mask: the unit is what the mask allows of that core.
  std::vector<Cpu> cpus = smt_machine();
  cpus.erase(cpus.begin() + 4);  // CPU 4
  std::vector<std::vector<int>> out;
  std::string why;
  ASSERT_TRUE(plan_binding({BindTo::core, 1}, 2, cpus, &out, &why)) << why;
  const std::vector<std::vector<int>> want = {{0}, {1, 5}};
  EXPECT_EQ(out, want);
}

TEST(OshrunBind, TooFewCoresSaysWhatIsShort) {
  std::vector<std::vector<int>> out;
  std::string why;
  EXPECT_FALSE(plan_binding({BindTo::core, 3}, 2, smt_machine(), &out, &why));
  EXPECT_NE(why.find("2 PEs x 3 cores need 6 cores"), std::string::npos) << why;
  EXPECT_NE(why.find("may run on 4"), std::string::npos) << why;
  EXPECT_NE(why.find("CPUs 0-7"), std::string::npos) << why;
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(plan_binding({BindTo::hwthread, 9}, 1, smt_machine(), &out, &why));
  EXPECT_NE(why.find("1 PE x 9 hardware threads need 9 hardware threads"), std::string::npos) << why;
}

TEST(OshrunBind, LauncherArgs) {
  using gshmem::oshrun::launcher_bind_args;
  EXPECT_TRUE(launcher_bind_args("mpirun", BindRequest{}).empty());
  EXPECT_EQ(launcher_bind_args("mpirun", {BindTo::core, 1}), (std::vector<std::string>{"--bind-to", "core"}));
  EXPECT_EQ(launcher_bind_args("srun", {BindTo::hwthread, 2}),
            (std::vector<std::string>{"--cpu-bind=threads", "--cpus-per-task=2"}));
  EXPECT_EQ(launcher_bind_args("srun", {BindTo::core, 3}),
            (std::vector<std::string>{"--cpu-bind=cores", "--threads-per-core=1", "--cpus-per-task=3"}));
  EXPECT_EQ(launcher_bind_args("prterun", {BindTo::hwthread, 2}),
            (std::vector<std::string>{"--map-by", "slot:PE=2:HWTCPUS", "--bind-to", "hwthread"}));
  EXPECT_EQ(launcher_bind_args("mpirun", {BindTo::core, 3}),
            (std::vector<std::string>{"--map-by", "slot:PE=3", "--bind-to", "core"}));
}

TEST(OshrunBind, CpuList) {
  EXPECT_EQ(gshmem::oshrun::cpu_list({8, 0, 1, 2, 3, 3, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(gshmem::oshrun::cpu_list({}), "");
}

}  // namespace
