// explore_main.cpp — `make explore` for the order: one summary line.
// With --dot, also prints the order's control-state graph as Graphviz DOT
// on stdout (`order_explore --dot | dot -Tsvg > order.svg`).
#include <merilo/explore/explore.hpp>

#include <cstdio>
#include <string_view>

#include <order/system.hpp>

int main(int argc, char** argv) {
  const bool dot = argc > 1 && std::string_view(argv[1]) == "--dot";
  merilo::explore::TupleGraph graph;
  order::System sys;
  const auto r = merilo::explore::explore(sys, {.max_states = 100'000,
                                                .require_complete = true,
                                                .name = "order",
                                                .graph = dot ? &graph : nullptr});
  if (dot) std::fputs(graph.to_dot("order").c_str(), stdout);
  return r.ok() ? 0 : 1;
}
