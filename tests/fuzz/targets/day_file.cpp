// The day-file reader (content/day_file.h), and the promise that whatever
// it accepts, the writer writes back into a file it accepts again.
#include "content/day_file.h"
#include "target.h"

#include <cstdlib>

PAPERPRESS_FUZZ_TARGET(day_file) {
    auto day = pp::read_day(input, "fuzz.md");
    if (!day) return;
    if (!pp::read_day(pp::write_day(*day), "rewritten.md")) std::abort();
}
