// What the incremental build reads of the world's time (LevelDB's Env, ninja's
// DiskInterface): the wall clock and the stamps (size, modification time) that
// tell it a file changed. The build asks an Env (BuildOptions::env) and never
// the system, so its tests can set any stamp exactly, as ninja's
// VirtualFileSystem does. Waits and sleeps go through util/clock.h.
#pragma once

#include "util/files.h"

#include <cstdint>
#include <optional>
#include <string>

#include <time.h>

namespace pp {

// Each member is the real one unless a test overrides it.
class Env {
public:
    virtual ~Env() = default;
    // The wall clock, in nanoseconds since the epoch (file times' unit).
    virtual std::int64_t now_ns() {
        timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
    }
    // `path` relative to the folder `dir` (an open_directory() handle), or a
    // whole path; nothing when it is missing or not a regular file.
    virtual std::optional<FileStamp> stamp_at(const Fd& dir, const std::string& path) {
        return pp::stamp_at(dir, path);
    }
    virtual std::optional<FileStamp> stamp_of(const fs::path& path) { return pp::stamp_of(path); }
};

// The real clock and file system: the default everywhere.
inline Env& real_env() {
    static Env env;
    return env;
}

} // namespace pp
