// merilo/core/html.hpp — what every HTML page merilo writes needs: text
// escaped for the page, and the page written to a file.
//
// merilo draws a few results as self-contained HTML pages (linearize's
// history timeline, explore's trace page). Each page puts user data — a
// command, a response, a world's `show()` — into its markup, so all of that
// goes through one escape: `html_escape` makes `<script>` show as text,
// never run, inside element text and inside double- or single-quoted
// attribute values alike.
//
// Example:
//
//   std::string cell = "<td>" + merilo::core::html_escape(sys.show()) + "</td>";
//   std::string error = merilo::core::write_file("trace.html", page);  // "" when written
#ifndef MERILO_CORE_HTML_HPP
#define MERILO_CORE_HTML_HPP

#include <string>       // std::string
#include <string_view>  // std::string_view

namespace merilo::core {

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by their character
/// references, so it is inert in element text and in quoted attributes.
[[nodiscard]] std::string html_escape(std::string_view text);

/// Writes `text` to the file `path` (created or replaced). Returns "" when
/// every byte was written, else "cannot write PATH: REASON". Never throws.
[[nodiscard]] std::string write_file(const std::string& path, std::string_view text) noexcept;

}  // namespace merilo::core

#endif  // MERILO_CORE_HTML_HPP
