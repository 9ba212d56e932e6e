// What identifies this program's code: the GNU build ID the linker writes
// into the binary (a hash of its code and data). Copies and installs of one
// build share it; any rebuild that changes the code changes it. The site
// build records it, so a new paperpress re-renders everything once.
#pragma once

#include <string>

namespace pp {

// The build ID in hex; without one (a linker that wrote none), the
// version and the executable's size and modification time.
const std::string& program_identity();

} // namespace pp
