// One format for the program's own state and cache files (the build state,
// the publish cache): text, a record a line, versioned, with named fields
// and a checksum, so a damaged or foreign file is found and named, never
// half used.
//
//   <format name> <version>\n            what the file is, and which version of it
//   #<tag>\t<field>\t<field>...\n        a line a record kind: the names of its fields
//   <tag>\t<value>\t<value>...\n         the records, values in the order named
//   C\t<16 hex digits>\n                 the hash (util/hash.h) of every byte before this line
//
// Values escape backslash, tab, newline and carriage return. A kind's last
// field may be a list (its name ends in '*'): it takes the remaining values.
// The reader finds the caller's fields by name, so a field may be added
// without a new version (a reader ignores fields it does not know, and
// records of kinds it does not know); a field it needs and does not find,
// a line longer than the format allows, a wrong version or a bad checksum
// is an error naming the file, the line and what was expected. For a cache
// such an error means "rebuild it".
#pragma once

#include "util/error.h"
#include "util/hash.h"

#include <charconv>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct XXH3_state_s; // libxxhash

namespace pp {

struct RecordKind {
    char tag = 0;                         // the first byte of its lines: not 'C' nor '#'
    std::vector<std::string_view> fields; // the names; the last may end in '*' (a list)
};

struct RecordFormat {
    std::string_view name; // "paperpress build state"
    int version = 1;
    std::vector<RecordKind> kinds;
    std::size_t max_line = std::size_t{1} << 20; // bytes a line, newline included
    std::size_t max_values = 4096;               // values a line
};

// Writes a file of `format` to `out`, a piece at a time: the header and the
// kinds' lines first, then each record (begin, values, end), then finish().
class RecordWriter {
public:
    RecordWriter(const RecordFormat& format, std::function<void(std::string_view)> out);
    void begin(char tag);
    void text(std::string_view value);
    // A value of `size` bytes written in place by `fill`, which must write no
    // tab, newline, carriage return or backslash (a bulk encoding, not text).
    template <class Fill>
    void plain(std::size_t size, Fill&& fill) {
        line_ += '\t';
        const std::size_t at = line_.size();
        line_.resize(at + size);
        fill(line_.data() + at);
    }
    void hex(std::uint64_t value);
    template <class T>
    void number(T value) {
        char buffer[24];
        line_ += '\t';
        line_.append(buffer, std::to_chars(buffer, buffer + sizeof buffer, value).ptr);
    }
    void end();
    void finish(); // the checksum line

private:
    void emit(std::string_view bytes);
    std::function<void(std::string_view)> out_;
    std::string line_;
    std::unique_ptr<XXH3_state_s, void (*)(XXH3_state_s*)> checksum_; // XXH3 of the bytes, as hash_bytes
};

// One record as read: its values in the order of the caller's RecordKind.
class Record {
public:
    std::size_t kind = 0; // index into RecordFormat::kinds
    std::string_view raw(std::size_t field) const { return values_[field]; }
    std::string text(std::size_t field) const;
    bool hex(std::size_t field, std::uint64_t& value) const { return parse(values_[field], value, 16); }
    template <class T>
    bool number(std::size_t field, T& value) const {
        return parse(values_[field], value, 10);
    }
    // The list field's values (the kind's last field, when its name ends in '*').
    const std::vector<std::string_view>& list() const { return list_; }

    template <class T>
    static bool parse(std::string_view text, T& value, int base) {
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
        return ec == std::errc() && end == text.data() + text.size() && !text.empty();
    }

private:
    friend class RecordReader;
    std::vector<std::string_view> values_, list_;
};

// Reads a file of `format` from `bytes` (which must outlive the reader).
class RecordReader {
public:
    // Checks the header, the kinds' lines and the checksum.
    static Result<RecordReader> open(std::string_view bytes, const RecordFormat& format, std::string file);
    // The next record, or nullptr after the last.
    Result<const Record*> next();
    // "file:line: expected ..." at the record read last.
    Error problem(const std::string& expected) const;

private:
    struct Columns {
        int kind = -1;             // the caller's kind; -1: a kind it does not know (skipped)
        std::vector<int> of_field; // the file's column of each of the caller's fields
        bool list = false;         // the kind ends with a list
    };
    RecordReader(const RecordFormat& format, std::string file) : format_(&format), file_(std::move(file)) {}
    Result<void> read_header(std::string_view& rest);
    Result<void> read_kind(std::string_view line);
    Result<std::string_view> next_line();

    const RecordFormat* format_;
    std::string file_;
    std::string_view rest_;
    int line_ = 0;
    Columns columns_[256];
    std::vector<std::string_view> fields_;
    Record record_;
};

// The escaping the values use, for callers that compare raw values.
void append_escaped(std::string& out, std::string_view text);
std::string unescape_value(std::string_view text);

} // namespace pp
