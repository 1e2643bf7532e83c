// A fixture for the docs names check: a header whose comment names a
// function that does not exist, merilo::core::hash64_of, beside one that
// does, merilo::core::hash128_of. Never compiled.
#ifndef MERILO_TESTS_DOCS_STALE_HPP
#define MERILO_TESTS_DOCS_STALE_HPP
// The code of this file is not read as code: merilo::core::not_in_code
// below is still a stale name.
int not_in_code = 0;
#endif
