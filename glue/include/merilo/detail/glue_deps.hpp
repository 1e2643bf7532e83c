// merilo/detail/glue_deps.hpp — what the glue calls (glue_calls.hpp) use,
// included once by each framework's glue header before its namespace opens.
#ifndef MERILO_DETAIL_GLUE_DEPS_HPP
#define MERILO_DETAIL_GLUE_DEPS_HPP

#include <string>       // failure texts
#include <string_view>  // spec expressions, pin tokens
#include <type_traits>  // std::remove_cvref_t
#include <utility>      // std::forward, std::move

#include <merilo/core/framework.hpp>        // Framework
#include <merilo/core/type_name.hpp>        // Spelled, MERILO_EXPR
#include <merilo/explore/explore.hpp>       // explore, ExploreOptions, ExploreResult
#include <merilo/explore/framework.hpp>     // explore_failure, replay_ok_failure, ...
#include <merilo/explore/replay.hpp>        // Trace, ViolationKind
#include <merilo/fsm/total.hpp>             // total, Totality
#include <merilo/parallel/detail/glue.hpp>  // parallel's failure text and pinned test
#include <merilo/parallel/parallel.hpp>     // parallel::check, replay
#include <merilo/statem/detail/glue.hpp>    // statem's failure text
#include <merilo/statem/statem.hpp>         // statem::check

#endif  // MERILO_DETAIL_GLUE_DEPS_HPP
