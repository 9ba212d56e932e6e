// The record-file reader (util/record_file.h), which every state and cache
// file goes through: any bytes give records or an error, within the
// format's bounds. The input gets the header and a valid checksum, so the
// fuzzer explores the kinds' lines and the records; what is read is written
// again and must read back the same.
#include "util/record_file.h"
#include "target.h"

#include <cstdlib>
#include <optional>

namespace {

const pp::RecordFormat format{.name = "fuzz records",
                              .version = 1,
                              .kinds = {{'A', {"name", "count", "list*"}}, {'B', {"hash"}}},
                              .max_line = 4096,
                              .max_values = 64};

// Every record of `bytes`, as the writer would write it again; nothing for an error.
std::optional<std::string> rewrite(std::string_view bytes) {
    auto reader = pp::RecordReader::open(bytes, format, "fuzz");
    if (!reader) return std::nullopt;
    std::string out;
    pp::RecordWriter writer(format, [&](std::string_view piece) { out += piece; });
    for (;;) {
        auto record = reader->next();
        if (!record) return std::nullopt;
        if (!*record) break;
        const pp::Record& r = **record;
        if (r.list().size() > format.max_values) std::abort();
        writer.begin(format.kinds[r.kind].tag);
        const std::size_t fields = format.kinds[r.kind].fields.size() - (r.kind == 0 ? 1 : 0);
        for (std::size_t f = 0; f < fields; ++f) writer.text(r.text(f));
        for (auto value : r.list()) writer.text(pp::unescape_value(value));
        writer.end();
    }
    writer.finish();
    return out;
}

} // namespace

PAPERPRESS_FUZZ_TARGET(record_file) {
    std::string text = "fuzz records 1\n";
    text += input;
    if (!text.ends_with('\n')) text += '\n';
    const std::string summed = text + "C\t" + pp::hex64(pp::hash_bytes(text)) + "\n";
    for (const std::string& candidate : {std::string(input), summed}) {
        auto once = rewrite(candidate);
        if (!once) continue;
        auto twice = rewrite(*once);
        if (!twice || *twice != *once) std::abort();
    }
}
