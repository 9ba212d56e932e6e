#include "util/program.h"

#include "util/files.h"

#include <cstring>
#include <elf.h>
#include <link.h>

namespace pp {

namespace {

// The NT_GNU_BUILD_ID note of the main program (the first object
// dl_iterate_phdr reports), in hex; empty when there is none.
std::string read_build_id() {
    std::string hex;
    ::dl_iterate_phdr(
        [](dl_phdr_info* info, std::size_t, void* out) -> int {
            auto& result = *static_cast<std::string*>(out);
            for (int i = 0; i < info->dlpi_phnum && result.empty(); ++i) {
                const auto& segment = info->dlpi_phdr[i];
                if (segment.p_type != PT_NOTE) continue;
                const char* p = reinterpret_cast<const char*>(info->dlpi_addr + segment.p_vaddr);
                const char* end = p + segment.p_memsz;
                while (p + sizeof(ElfW(Nhdr)) <= end) {
                    ElfW(Nhdr) note;
                    std::memcpy(&note, p, sizeof note);
                    const char* name = p + sizeof note;
                    const char* desc = name + ((note.n_namesz + 3) & ~3u);
                    const char* next = desc + ((note.n_descsz + 3) & ~3u);
                    if (next > end) break;
                    if (note.n_type == NT_GNU_BUILD_ID && note.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
                        static const char digits[] = "0123456789abcdef";
                        for (unsigned k = 0; k < note.n_descsz; ++k) {
                            auto byte = static_cast<unsigned char>(desc[k]);
                            result += digits[byte >> 4];
                            result += digits[byte & 15];
                        }
                        break;
                    }
                    p = next;
                }
            }
            return 1; // the main program comes first: stop there
        },
        &hex);
    return hex;
}

} // namespace

const std::string& program_identity() {
    static const std::string identity = [] {
        std::string id = read_build_id();
        if (!id.empty()) return "build-id " + id;
        id = "paperpress " PAPERPRESS_VERSION;
        if (auto self = stamp_of("/proc/self/exe"))
            id += " " + std::to_string(self->size) + " " + std::to_string(self->mtime_ns);
        return id;
    }();
    return identity;
}

} // namespace pp
