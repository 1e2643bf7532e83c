// build_info.hpp — how this merilo-lincheck was compiled, as tools/CMakeLists.txt
// defines it, so `--version` can say whether its times mean anything.
#ifndef MERILO_TOOLS_LINCHECK_BUILD_INFO_HPP
#define MERILO_TOOLS_LINCHECK_BUILD_INFO_HPP

#ifndef MERILO_TOOLS_BUILD
#define MERILO_TOOLS_BUILD "built outside merilo's CMake: optimization unknown"
#endif

namespace merilo::lincheck {

/// "optimized (Test build, flags: -O1 -DNDEBUG -O2)" or "NOT optimized (...)".
inline constexpr const char* kBuildInfo = MERILO_TOOLS_BUILD;

}  // namespace merilo::lincheck

#endif  // MERILO_TOOLS_LINCHECK_BUILD_INFO_HPP
