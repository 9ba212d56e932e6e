// The program's version, from CMake's project(VERSION): the one place it is written.
#pragma once

#include <string>

namespace pp {

inline constexpr const char* program_version = PAPERPRESS_VERSION;

// What paperpress calls itself to a server: "paperpress/0.1.0", with an
// optional note: "paperpress/0.1.0 (notifications)".
inline std::string user_agent(const std::string& note = "") {
    std::string agent = std::string("paperpress/") + program_version;
    return note.empty() ? agent : agent + " (" + note + ")";
}

} // namespace pp
