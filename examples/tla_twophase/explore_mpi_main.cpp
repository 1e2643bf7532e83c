// explore_mpi_main.cpp — TwoPhase on Open MPI ranks, for `make explore-mpi`
// and for a cluster (docs/explore.md, "On many machines"):
//
//   mpirun -np 4 tla_twophase_mpi 7          # 7 RMs, every world
//   mpirun -np 4 tla_twophase_mpi 7 --bug    # the seeded early commit
//   tla_twophase_mpi 10 --in-process         # explore() in one process, to compare
//
// RMs: 3, 5, 7, 8, 9, 10, 11 or 12. Rank 0 prints the summary line and, for
// the seeded bug, the violation with its trace. Exit status 0 when the
// search gives what it should (every world, or the seeded bug found).
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include <merilo/explore/mpi.hpp>

#include <tla_twophase/system.hpp>

namespace {

template <unsigned N>
int run(bool bug, bool in_process) {
  const merilo::explore::ExploreOptions options{.max_states = 4'000'000'000,
                                                .require_complete = !bug};
  if (in_process) {  // the same search by the in-process explorer, on one thread
    tla_twophase::System<N> sys;
    return merilo::explore::explore(sys, options).ok() ? 0 : 1;
  }
  if (bug) {
    tla_twophase::System<N, tla_twophase::Bug::early_commit> sys;
    return merilo::explore::mpi_main(sys, options) == 1 ? 0 : 1;  // the violation is expected
  }
  tla_twophase::System<N> sys;
  return merilo::explore::mpi_main(sys, options);
}

}  // namespace

int main(int argc, char** argv) {
  merilo::explore::MpiSession session(argc, argv);
  const int rms = argc > 1 ? std::atoi(argv[1]) : 7;
  const std::string_view flag = argc > 2 ? argv[2] : "";
  const bool bug = flag == "--bug";
  const bool in_process = flag == "--in-process";
  switch (rms) {
    case 3:
      return run<3>(bug, in_process);
    case 5:
      return run<5>(bug, in_process);
    case 7:
      return run<7>(bug, in_process);
    case 8:
      return run<8>(bug, in_process);
    case 9:
      return run<9>(bug, in_process);
    case 10:
      return run<10>(bug, in_process);
    case 11:
      return run<11>(bug, in_process);
    case 12:
      return run<12>(bug, in_process);
    default:
      if (session.rank() == 0) {
        std::fprintf(stderr, "tla_twophase_mpi: RMs must be 3, 5, 7, 8, 9, 10, 11 or 12, not %s\n",
                     argv[1]);
      }
      return 2;
  }
}
