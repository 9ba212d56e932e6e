#include "site/build_state.h"

#include "site/urls.h"
#include "util/record_file.h"
#include "util/text.h"

#include <ctime>
#include <fcntl.h>
#include <sys/stat.h>

namespace pp {

namespace {

// The state's format (util/record_file.h): a program line, a line a day, a line an output.
enum ProgramField { p_program };
enum DayField {
    d_date,
    d_size,
    d_mtime,
    d_hash,
    d_status,
    d_papers,
    d_remedial,
    d_arxiv,
    d_scanned,
    d_relevant,
    d_prompt,
    d_titles
};
enum OutputField { o_path, o_key, o_size, o_bytes };

const RecordFormat& state_format() {
    static const RecordFormat format{
        .name = "paperpress build state",
        .version = 4,
        .kinds = {{'P', {"program"}},
                  {'D',
                   {"date", "size", "mtime_ns", "hash", "status", "papers", "remedial", "arxiv", "scanned", "relevant",
                    "prompt", "titles*"}},
                  {'O', {"path", "key", "size", "bytes"}}},
    };
    return format;
}

// "-" for a count the day file does not give.
bool get_optional(std::string_view text, std::optional<long long>& value) {
    if (text == "-") return true;
    long long n = 0;
    if (!Record::parse(text, n, 10)) return false;
    value = n;
    return true;
}

void put_optional(RecordWriter& out, const std::optional<long long>& value) {
    if (value) out.number(*value);
    else out.text("-");
}

bool parse_day(const Record& f, BuildState& state) {
    auto date = parse_iso_date(f.raw(d_date));
    auto status = parse_day_status(f.raw(d_status));
    DayRecord r;
    long long papers = 0;
    const std::string_view remedial = f.raw(d_remedial);
    if (!date || !status || !f.number(d_size, r.size) || !f.number(d_mtime, r.mtime_ns) || !f.hex(d_hash, r.hash) ||
        !f.number(d_papers, papers) || (remedial != "0" && remedial != "1") ||
        !get_optional(f.raw(d_arxiv), r.summary.counts.arxiv) ||
        !get_optional(f.raw(d_scanned), r.summary.counts.scanned) ||
        !get_optional(f.raw(d_relevant), r.summary.counts.relevant))
        return false;
    r.summary.date = *date;
    r.summary.status = *status;
    r.summary.papers = static_cast<int>(papers);
    r.summary.remedial = remedial == "1";
    r.prompt = f.text(d_prompt);
    r.summary.top_titles.reserve(f.list().size());
    for (std::string_view title : f.list()) r.summary.top_titles.push_back(unescape_value(title));
    state.days.emplace_hint(state.days.end(), *date, std::move(r)); // the file is in date order
    return true;
}

bool parse_output(const Record& f, BuildState& state) {
    OutputRecord r;
    if (!f.hex(o_key, r.key) || !f.number(o_size, r.size) || (!f.raw(o_bytes).empty() && !f.hex(o_bytes, r.bytes)))
        return false;
    std::string path = f.text(o_path);
    if (!is_plain_relative_path(output_file_of(path))) return false;     // never a path out of the output folder
    state.outputs.emplace_hint(state.outputs.end(), std::move(path), r); // in path order
    return true;
}

BuildState rejected(std::string why) {
    BuildState state;
    state.rejected = std::move(why);
    return state;
}

BuildState rejected(const Error& error) {
    return rejected("does not read (" + (error.line ? "line " + std::to_string(error.line) + ": " : std::string()) +
                    error.message + ")");
}

} // namespace

fs::path state_path(const fs::path& out_dir) { return beside_folder(out_dir, ".paperpress-state"); }

BuildState load_state(const fs::path& out_dir, Env& env) {
    const auto path = state_path(out_dir);
    auto stamp = env.stamp_of(path);
    if (!stamp) return BuildState{};
    auto file = MappedFile::open(path);
    if (!file) return rejected("cannot be read");
    // One second of slack for coarse file-system timestamps.
    return parse_state(file->bytes(), stamp->mtime_ns - 1'000'000'000);
}

BuildState parse_state(std::string_view bytes, std::int64_t trusted_before_ns) {
    auto reader = RecordReader::open(bytes, state_format(), "");
    if (!reader) return rejected(reader.error());
    BuildState state;
    state.trusted_before_ns = trusted_before_ns;
    for (;;) {
        auto record = reader->next();
        if (!record) return rejected(record.error());
        if (!*record) return state;
        const Record& f = **record;
        const bool ok = f.kind == 0   ? f.hex(p_program, state.program)
                        : f.kind == 1 ? parse_day(f, state)
                                      : parse_output(f, state);
        if (!ok) return rejected(reader->problem("a valid value in each field"));
    }
}

void serialize_state(const BuildState& state, const std::function<void(std::string_view)>& write_out) {
    RecordWriter out(state_format(), write_out);
    out.begin('P');
    out.hex(state.program);
    out.end();
    for (const auto& [date, r] : state.days) {
        out.begin('D');
        out.text(date.iso());
        out.number(r.size);
        out.number(r.mtime_ns);
        out.hex(r.hash);
        out.text(to_string(r.summary.status));
        out.number(r.summary.papers);
        out.text(r.summary.remedial ? "1" : "0");
        put_optional(out, r.summary.counts.arxiv);
        put_optional(out, r.summary.counts.scanned);
        put_optional(out, r.summary.counts.relevant);
        out.text(r.prompt);
        for (const auto& title : r.summary.top_titles) out.text(title);
        out.end();
    }
    for (const auto& [path, r] : state.outputs) {
        out.begin('O');
        out.text(path);
        out.hex(r.key);
        out.number(r.size);
        if (r.bytes) out.hex(r.bytes);
        else out.text("");
        out.end();
    }
    out.finish();
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
