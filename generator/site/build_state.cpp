#include "site/build_state.h"

#include "site/urls.h"
#include "util/text.h"

#include <charconv>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>

namespace pp {

namespace {

constexpr std::string_view header = "paperpress build state 3\n";
std::string hex(std::uint64_t value) { return hex64(value); }

void escape_field(std::string& out, std::string_view text) {
    static constexpr ByteSet specials("\\\t\n\r");
    append_replacing(out, text, specials, [](char c) {
        return c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : "\\r";
    });
}

std::string unescape_field(std::string_view text) {
    if (text.find('\\') == std::string_view::npos) return std::string(text);
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\\' || i + 1 == text.size()) {
            out += text[i];
            continue;
        }
        char c = text[++i];
        out += c == 't' ? '\t' : c == 'n' ? '\n' : c == 'r' ? '\r' : c;
    }
    return out;
}

template <class T>
bool number(std::string_view text, T& value, int base = 10) {
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
    return ec == std::errc() && end == text.data() + text.size();
}

template <class T>
void put_number(std::string& out, T value) {
    char buffer[24];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, end);
}

void put_optional(std::string& out, const std::optional<long long>& value) {
    out += '\t';
    if (value) put_number(out, *value);
    else out += '-';
}

bool get_optional(std::string_view text, std::optional<long long>& value) {
    if (text == "-") return true;
    long long n = 0;
    if (!number(text, n)) return false;
    value = n;
    return true;
}

bool parse_day(const std::vector<std::string_view>& f, BuildState& state) {
    // D date size mtime hash status papers remedial arxiv scanned relevant prompt ntitles titles...
    if (f.size() < 13) return false;
    auto date = parse_iso_date(f[1]);
    DayRecord r;
    long long papers = 0, titles = 0;
    auto status = parse_day_status(f[5]);
    if (!date || !status || !number(f[2], r.size) || !number(f[3], r.mtime_ns) || !number(f[4], r.hash, 16) ||
        !number(f[6], papers) || (f[7] != "0" && f[7] != "1") || !get_optional(f[8], r.summary.counts.arxiv) ||
        !get_optional(f[9], r.summary.counts.scanned) || !get_optional(f[10], r.summary.counts.relevant) ||
        !number(f[12], titles) || f.size() != 13 + static_cast<std::size_t>(titles))
        return false;
    r.summary.date = *date;
    r.summary.status = *status;
    r.summary.papers = static_cast<int>(papers);
    r.summary.remedial = f[7] == "1";
    r.prompt = unescape_field(f[11]);
    for (std::size_t i = 13; i < f.size(); ++i) r.summary.top_titles.push_back(unescape_field(f[i]));
    state.days.emplace_hint(state.days.end(), *date, std::move(r)); // the file is in date order
    return true;
}

bool parse_output(const std::vector<std::string_view>& f, BuildState& state) {
    // O path key size [bytes]
    if (f.size() != 4 && f.size() != 5) return false;
    OutputRecord r;
    if (!number(f[2], r.key, 16) || !number(f[3], r.size) || (f.size() == 5 && !number(f[4], r.bytes, 16)))
        return false;
    std::string path = unescape_field(f[1]);
    if (!is_plain_relative_path(output_file_of(path))) return false; // never a path out of the output folder
    state.outputs.emplace_hint(state.outputs.end(), std::move(path), r); // in path order
    return true;
}

} // namespace

fs::path state_path(const fs::path& out_dir) { return beside_folder(out_dir, ".paperpress-state"); }

namespace {

// The last line: "C", then the hash of the lines before it, each hashed as
// serialize_state hands it out.
constexpr std::string_view checksum_tag = "C\t";

BuildState rejected(std::string why) {
    BuildState state;
    state.rejected = std::move(why);
    return state;
}

} // namespace

BuildState load_state(const fs::path& out_dir) {
    const auto path = state_path(out_dir);
    auto stamp = stamp_of(path);
    if (!stamp) return BuildState{};
    auto file = MappedFile::open(path);
    if (!file) return rejected("cannot be read");
    // One second of slack for coarse file-system timestamps.
    return parse_state(file->bytes(), stamp->mtime_ns - 1'000'000'000);
}

BuildState parse_state(std::string_view bytes, std::int64_t trusted_before_ns) {
    if (!bytes.starts_with(header)) return rejected("was written by another version");
    BuildState state;
    state.trusted_before_ns = trusted_before_ns;
    std::string_view rest = bytes.substr(header.size());
    Hasher checksum;
    checksum.add(header);
    std::vector<std::string_view> fields;
    while (!rest.empty()) {
        auto end = rest.find('\n');
        if (end == std::string_view::npos) return rejected("is cut short");
        const std::string_view line = rest.substr(0, end + 1);
        rest.remove_prefix(end + 1);
        if (line.starts_with(checksum_tag)) {
            std::uint64_t recorded = 0;
            if (!rest.empty() || !number(line.substr(checksum_tag.size(), line.size() - checksum_tag.size() - 1), recorded, 16) ||
                recorded != checksum.value())
                return rejected("does not match its checksum");
            return state;
        }
        checksum.add(line);
        split_into(line.substr(0, line.size() - 1), '\t', fields);
        bool ok = !fields.empty() && ((fields[0] == "D" && parse_day(fields, state)) ||
                                      (fields[0] == "O" && parse_output(fields, state)) ||
                                      (fields[0] == "P" && fields.size() == 2 && number(fields[1], state.program, 16)));
        if (!ok) return rejected("has a damaged line");
    }
    return rejected("has no checksum");
}

void serialize_state(const BuildState& state, const std::function<void(std::string_view)>& write_out) {
    Hasher checksum;
    auto write = [&](std::string_view bytes) {
        checksum.add(bytes);
        write_out(bytes);
    };
    write(header);
    std::string out; // a line at a time
    auto line = [&] {
        out += '\n';
        write(out);
        out.clear();
    };
    auto field = [&out](std::string_view text) {
        out += '\t';
        out += text;
    };
    auto count = [&out](auto value) {
        out += '\t';
        put_number(out, value);
    };
    out += 'P';
    field(hex(state.program));
    line();
    for (const auto& [date, r] : state.days) {
        out += 'D';
        field(date.iso());
        count(r.size);
        count(r.mtime_ns);
        field(hex(r.hash));
        field(to_string(r.summary.status));
        count(r.summary.papers);
        field(r.summary.remedial ? "1" : "0");
        put_optional(out, r.summary.counts.arxiv);
        put_optional(out, r.summary.counts.scanned);
        put_optional(out, r.summary.counts.relevant);
        out += '\t';
        escape_field(out, r.prompt);
        count(r.summary.top_titles.size());
        for (const auto& title : r.summary.top_titles) {
            out += '\t';
            escape_field(out, title);
        }
        line();
    }
    for (const auto& [path, r] : state.outputs) {
        out += 'O';
        out += '\t';
        escape_field(out, path);
        field(hex(r.key));
        count(r.size);
        if (r.bytes) field(hex(r.bytes));
        line();
    }
    out = checksum_tag;
    out += hex(checksum.value());
    out += '\n';
    write_out(out);
}

std::string serialize_state(const BuildState& state) {
    std::string out;
    serialize_state(state, [&out](std::string_view bytes) { out += bytes; });
    return out;
}

Result<void> save_state(const fs::path& out_dir, const BuildState& state, std::int64_t build_start_ns) {
    const auto path = state_path(out_dir);
    FileUpdate file(path); // compared as it is made: a no-change build writes nothing
    serialize_state(state, [&file](std::string_view bytes) { file.append(bytes); });
    auto written = file.commit();
    if (!written) return std::unexpected(written.error());
    if (*written == WriteOutcome::written) {
        timespec times[2];
        times[0].tv_sec = times[1].tv_sec = build_start_ns / 1'000'000'000;
        times[0].tv_nsec = times[1].tv_nsec = build_start_ns % 1'000'000'000;
        if (::utimensat(AT_FDCWD, path.c_str(), times, 0) != 0) {
            std::error_code ec;
            fs::remove(path, ec); // a state we cannot date is not trusted
            return fail("cannot set the modification time", path.string());
        }
    }
    return {};
}

} // namespace pp
