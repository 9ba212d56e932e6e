// load_taste_index: the archive's picks and the past feeds' papers, as term
// counts, kept in a cache file between runs. Each source file is re-read only
// when its size or mtime changed. The cache is a record file
// (util/record_file.h), distrusted when read back: another version, a bad
// checksum or a value that does not read means it is ignored and rebuilt
// from the files.
#include "content/content_tree.h"
#include "fetch/arxiv_feed.h"
#include "score/learned_scorer.h"
#include "score/taste_sources.h"
#include "util/hash.h"
#include "util/memory.h"
#include "util/record_file.h"

#include <map>

namespace pp {

namespace {

constexpr std::size_t cache_read_limit = 1u << 30;

// The cache's format (util/record_file.h): a line a source file, then a
// line for each of its papers. Bump the version when paper_terms() changes.
enum SourceField { s_key, s_feed, s_date, s_size, s_mtime, s_candidates };
enum PaperField { p_id, p_title, p_terms };

const RecordFormat& cache_format() {
    static const RecordFormat format{
        .name = "paperpress taste index",
        .version = 6,
        .kinds = {{'S', {"key", "feed", "date", "size", "mtime_ns", "candidates"}}, {'P', {"id", "title", "terms"}}},
        .max_line = std::size_t{1} << 22,
        .max_values = 16,
    };
    return format;
}

// A paper's terms, each 6 bytes (the term's 4, its count's 2, little-endian)
// as 8 characters of base64url: no escaping, and decoded without a parse.
constexpr char term_digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

void encode_terms(const TermCounts& terms, char* at) {
    for (auto [term, count] : terms) {
        const std::uint64_t bits = std::uint64_t{term} | std::uint64_t{count} << 32;
        for (int i = 0; i < 8; ++i) *at++ = term_digits[(bits >> (6 * i)) & 63];
    }
}

bool decode_terms(std::string_view text, TermCounts& terms) {
    // Two characters at a time: their 12 bits, or 0xffff for a character not of the digits.
    static const std::vector<std::uint16_t> pairs = [] {
        std::vector<std::uint16_t> table(65536, 0xffff);
        for (int a = 0; a < 64; ++a)
            for (int b = 0; b < 64; ++b)
                table[static_cast<unsigned char>(term_digits[a]) | static_cast<unsigned char>(term_digits[b]) << 8] =
                    static_cast<std::uint16_t>(a | b << 6);
        return table;
    }();
    if (text.size() % 8 != 0) return false;
    terms.resize(text.size() / 8);
    const auto* at = reinterpret_cast<const unsigned char*>(text.data());
    std::uint16_t bad = 0;
    for (auto& [term, count] : terms) {
        std::uint64_t bits = 0;
        for (int i = 0; i < 4; ++i, at += 2) {
            const std::uint16_t v = pairs[at[0] | at[1] << 8];
            bad |= v;
            bits |= std::uint64_t{v} << (12 * i);
        }
        term = static_cast<std::uint32_t>(bits);
        count = static_cast<std::uint16_t>(bits >> 32);
        if (bits >> 48) return false;
    }
    return (bad & 0xf000) == 0;
}

using Sources = std::map<std::string, IndexSource>; // by path

std::string serialize(const Sources& sources) {
    std::size_t size = 4096; // the file's size, nearly: one allocation, not a doubling a few times over
    for (const auto& [path, source] : sources)
        for (const auto& paper : source.papers)
            size += paper.terms.size() * 8 + paper.id.size() + paper.title.size() + 8;
    std::string out;
    out.reserve(size);
    RecordWriter w(cache_format(), [&out](std::string_view bytes) { out += bytes; });
    for (const auto& [path, source] : sources) {
        w.begin('S');
        w.text(path);
        w.text(source.is_feed ? "1" : source.self_scored ? "2" : "0"); // 2: a day the embedded scorer picked
        w.text(source.date.iso());
        w.number(source.stamp.size);
        w.number(source.stamp.mtime_ns);
        w.number(source.candidates);
        w.end();
        for (const auto& paper : source.papers) {
            w.begin('P');
            w.text(paper.id);
            w.text(source.is_feed ? std::string_view() : std::string_view(paper.title)); // feeds need no titles
            w.plain(paper.terms.size() * 8, [&](char* at) { encode_terms(paper.terms, at); });
            w.end();
        }
    }
    w.finish();
    return out;
}

// A source's line; false when a value does not read.
bool read_source(const Record& r, Sources& sources, IndexSource*& current) {
    IndexSource source;
    const std::string_view feed = r.raw(s_feed);
    auto date = parse_iso_date(r.raw(s_date));
    if ((feed != "0" && feed != "1" && feed != "2") || !date || !r.number(s_size, source.stamp.size) ||
        !r.number(s_mtime, source.stamp.mtime_ns) || !r.number(s_candidates, source.candidates))
        return false;
    source.is_feed = feed == "1";
    source.self_scored = feed == "2";
    source.date = *date;
    auto [at, added] = sources.emplace(r.text(s_key), std::move(source));
    current = &at->second;
    return added;
}

std::optional<Sources> deserialize(std::string_view bytes, const std::string& file, std::string& why) {
    auto reader = RecordReader::open(bytes, cache_format(), file);
    if (!reader) return why = reader.error().to_string(), std::nullopt;
    Sources sources;
    IndexSource* current = nullptr; // the source the papers that follow belong to
    for (;;) {
        auto record = reader->next();
        if (!record) return why = record.error().to_string(), std::nullopt;
        if (!*record) return sources;
        const Record& r = **record;
        bool ok = r.kind == 0 ? read_source(r, sources, current) : current != nullptr;
        if (ok && r.kind == 1) {
            IndexedPaper paper;
            paper.date = current->date;
            paper.id = r.text(p_id);
            paper.title = r.text(p_title);
            ok = decode_terms(r.raw(p_terms), paper.terms);
            current->papers.push_back(std::move(paper));
        }
        if (!ok) return why = reader->problem("a valid value in each field").to_string(), std::nullopt;
    }
}

void say(const TasteSources& where, const std::string& line) {
    if (where.log) where.log(line);
}

Sources read_cache(const TasteSources& where) {
    if (where.index_cache.empty() || !fs::exists(where.index_cache)) return {};
    std::error_code ec;
    // The index is tens of thousands of small vectors and strings: faulting
    // their heap in 4 KB at a time cost more than reading the cache.
    if (auto size = fs::file_size(where.index_cache, ec); !ec && size >= (4u << 20) && size < cache_read_limit) {
        keep_freed_memory();
        populate_heap(size * 2, true); // the index takes about twice the file's size
    }
    auto bytes =
        read_file_inside(config_path_root(where.index_cache.parent_path()), where.index_cache, cache_read_limit);
    std::string why;
    std::optional<Sources> sources;
    if (bytes) sources = deserialize(*bytes, where.index_cache.string(), why);
    else why = bytes.error().to_string();
    if (!sources) {
        say(where, "learned scorer: the index cache " + where.index_cache.string() + " does not verify (" + why +
                       "); rebuilding it");
        return {};
    }
    return std::move(*sources);
}

// Past feeds named DATE.xml before `before`, the most recent `count`, oldest first.
std::vector<std::pair<Date, fs::path>> past_feed_files(const fs::path& dir, const Date& before, int count) {
    std::vector<std::pair<Date, fs::path>> files;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return files;
    walk_tree(dir,
              [&](const TreeEntry& entry) {
                  if (!entry.name.ends_with(".xml")) return false;
                  auto date = parse_iso_date(entry.name.substr(0, entry.name.size() - 4));
                  if (date && *date < before) files.emplace_back(*date, entry.path);
                  return false;
              },
              {.recursive = false});
    std::sort(files.begin(), files.end());
    if (files.size() > static_cast<size_t>(std::max(count, 0)))
        files.erase(files.begin(), files.end() - std::max(count, 0));
    return files;
}

// True when the cache holds `key` read from a file of this size and mtime.
bool still_valid(const Sources& cached, const std::string& key, const std::optional<FileStamp>& stamp) {
    auto found = cached.find(key);
    return found != cached.end() && stamp && found->second.stamp == *stamp;
}

} // namespace

TasteIndex load_taste_index(const TasteSources& where, const Date& before, std::vector<std::string>& warnings) {
    Sources cached = read_cache(where);
    Sources current;
    size_t reread = 0;

    auto scan = scan_content(where.content_dir);
    for (const auto& folder : scan.unreadable)
        warnings.push_back("learned scorer: cannot list part of the archive: " + folder.to_string());
    for (const auto& file : scan.days) {
        if (!(file.date < before)) break;
        if (days_since_epoch(before) - days_since_epoch(file.date) > where.history_days) continue;
        std::string key = "day:" + day_relative_path(file.date);
        auto stamp = stamp_of(file.path);
        if (still_valid(cached, key, stamp)) {
            current.insert(cached.extract(key));
            continue;
        }
        auto day = load_day(file.path);
        if (!day) {
            warnings.push_back("learned scorer: skipped a day it cannot read: " + day.error().to_string());
            continue;
        }
        IndexSource source = day_source(*day);
        source.stamp = stamp.value_or(FileStamp{});
        current.emplace(key, std::move(source));
        ++reread;
    }

    for (const auto& [date, path] : past_feed_files(where.feed_cache_dir, before, where.background_days)) {
        std::string key = "feed:" + date.iso();
        auto stamp = stamp_of(path);
        if (still_valid(cached, key, stamp)) {
            current.insert(cached.extract(key));
            continue;
        }
        auto text = read_file_inside(config_path_root(where.feed_cache_dir), path);
        auto feed = text ? parse_rss_feed(*text, path.string()) : Result<Announcement>(std::unexpected(text.error()));
        if (!feed) {
            warnings.push_back("learned scorer: skipped a past feed it cannot read: " + feed.error().to_string());
            continue;
        }
        PastFeed past{date, {}, 0};
        for (auto& entry : feed->entries) {
            if (!entry.announce_type.starts_with("replace")) ++past.candidates; // a replaced paper is not new
            past.papers.push_back(std::move(entry.paper));
        }
        IndexSource source = feed_source(past);
        source.candidates = static_cast<std::uint32_t>(past.candidates); // 0 when every entry is a replacement
        source.stamp = stamp.value_or(FileStamp{});
        current.emplace(key, std::move(source));
        ++reread;
    }

    bool changed = reread > 0 || !cached.empty(); // read afresh, or files gone
    if (changed && !where.index_cache.empty()) {
        remove_dead_temp_files_of(where.index_cache); // left by a run that was killed
        if (auto saved = write_file_inside(config_path_root(where.index_cache.parent_path()), where.index_cache,
                                           serialize(current));
            !saved)
            warnings.push_back("learned scorer: index cache not saved: " + saved.error().to_string());
    }
    say(where, "learned scorer: " + std::to_string(current.size()) + " archive files indexed, " +
                   std::to_string(reread) + " read afresh");
    std::vector<IndexSource> sources;
    sources.reserve(current.size());
    for (auto& [key, source] : current) sources.push_back(std::move(source));
    return assemble_taste_index(std::move(sources));
}

} // namespace pp
