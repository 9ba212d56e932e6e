#include "util/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace pp {

Result<std::string> read_file(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return fail(std::string("cannot open: ") + std::strerror(errno), path.string());
    std::ostringstream buffer;
    buffer << in.rdbuf();
    if (in.bad()) return fail("read error", path.string());
    return buffer.str();
}

Result<void> write_file_atomic(const fs::path& path, std::string_view bytes) {
    std::error_code ec;
    if (path.has_parent_path()) {
        fs::create_directories(path.parent_path(), ec);
        if (ec) return fail("cannot create folder: " + ec.message(), path.parent_path().string());
    }
    fs::path temp = path;
    temp += ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        if (!out) return fail(std::string("cannot write: ") + std::strerror(errno), temp.string());
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.flush();
        if (!out) {
            fs::remove(temp, ec);
            return fail("write failed (disk full?)", temp.string());
        }
    }
    fs::rename(temp, path, ec);
    if (ec) {
        fs::remove(temp, ec);
        return fail("cannot replace file: " + ec.message(), path.string());
    }
    return {};
}

Result<WriteOutcome> write_file_if_changed(const fs::path& path, std::string_view bytes) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec) && fs::file_size(path, ec) == bytes.size()) {
        auto current = read_file(path);
        if (current && *current == bytes) return WriteOutcome::unchanged;
    }
    auto written = write_file_atomic(path, bytes);
    if (!written) return std::unexpected(written.error());
    return WriteOutcome::written;
}

} // namespace pp
