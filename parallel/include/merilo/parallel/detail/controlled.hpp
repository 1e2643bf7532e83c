// merilo/parallel/detail/controlled.hpp — the names parallel uses from the
// scheduling runtime (sync/): the controller of a controlled run, its
// decisions and its choosers. parallel drives the runtime through these;
// it defines no scheduling of its own.
#ifndef MERILO_PARALLEL_DETAIL_CONTROLLED_HPP
#define MERILO_PARALLEL_DETAIL_CONTROLLED_HPP

#include <merilo/sync/detail/controller.hpp>  // the runtime

namespace merilo::parallel::detail {

using sync::detail::active_controller;
using sync::detail::Chooser;
using sync::detail::Controller;
using sync::detail::Decision;
using sync::detail::default_choice;
using sync::detail::is_preemption;
using sync::detail::kFairSteps;
using sync::detail::kMaxControlledThreads;
using sync::detail::kNoThread;
using sync::detail::Misuse;
using sync::detail::RunStatus;
using sync::detail::SyncOp;

}  // namespace merilo::parallel::detail

#endif  // MERILO_PARALLEL_DETAIL_CONTROLLED_HPP
