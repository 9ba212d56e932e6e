// load_taste_index: the archive's picks and the past feeds' papers, as term
// counts, kept in a cache file between runs. Each source file is re-read only
// when its size or mtime changed. The cache is distrusted when read back: a
// wrong header, a bad checksum or a record that runs past the end means it
// is ignored and rebuilt from the files.
#include "content/content_tree.h"
#include "fetch/arxiv_feed.h"
#include "score/learned_scorer.h"
#include "score/taste_sources.h"
#include "util/hash.h"
#include "util/memory.h"

#include <cstring>
#include <map>

namespace pp {

namespace {

constexpr std::string_view cache_magic = "paperpress taste index 4\n"; // bump when paper_terms() changes
constexpr std::size_t cache_read_limit = 1u << 30;

// A checksum against damage (not against an adversary).
std::uint64_t checksum_of(std::string_view bytes) { return hash_bytes(bytes); }

template <class T>
void put(std::string& out, T value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
}

void put_string(std::string& out, std::string_view s) {
    put(out, static_cast<std::uint32_t>(s.size()));
    out.append(s);
}

// Reads back what put() wrote; any read past the end makes `ok` false.
struct Reader {
    std::string_view bytes;
    bool ok = true;
    template <class T>
    T get() {
        T value{};
        if (!ok || bytes.size() < sizeof value) {
            ok = false;
            return value;
        }
        std::memcpy(&value, bytes.data(), sizeof value);
        bytes.remove_prefix(sizeof value);
        return value;
    }
    std::string get_string() {
        auto size = get<std::uint32_t>();
        if (!ok || bytes.size() < size) {
            ok = false;
            return {};
        }
        std::string s(bytes.substr(0, size));
        bytes.remove_prefix(size);
        return s;
    }
};

using Sources = std::map<std::string, IndexSource>; // by path

void put_date(std::string& out, const Date& d) {
    put(out, static_cast<std::int16_t>(d.year));
    put(out, static_cast<std::int8_t>(d.month));
    put(out, static_cast<std::int8_t>(d.day));
}

Date get_date(Reader& in) {
    Date d;
    d.year = in.get<std::int16_t>();
    d.month = in.get<std::int8_t>();
    d.day = in.get<std::int8_t>();
    if (!d.valid()) in.ok = false;
    return d;
}

std::string serialize(const Sources& sources) {
    std::string out(cache_magic);
    put(out, static_cast<std::uint32_t>(sources.size()));
    for (const auto& [path, source] : sources) {
        put_string(out, path);
        put(out, static_cast<std::uint8_t>(source.is_feed));
        put_date(out, source.date);
        put(out, source.stamp.size);
        put(out, source.stamp.mtime_ns);
        put(out, source.candidates);
        put(out, static_cast<std::uint32_t>(source.papers.size()));
        for (const auto& paper : source.papers) {
            put_string(out, paper.id);
            put_string(out, source.is_feed ? std::string_view() : std::string_view(paper.title)); // feeds need no titles
            put(out, static_cast<std::uint32_t>(paper.terms.size()));
            for (auto [term, count] : paper.terms) {
                put(out, term);
                put(out, count);
            }
        }
    }
    put(out, checksum_of(out));
    return out;
}

std::optional<Sources> deserialize(std::string_view bytes) {
    if (bytes.size() < cache_magic.size() + 8 || !bytes.starts_with(cache_magic)) return std::nullopt;
    std::string_view body = bytes.substr(0, bytes.size() - 8);
    std::uint64_t checksum;
    std::memcpy(&checksum, bytes.data() + body.size(), 8);
    if (checksum != checksum_of(body)) return std::nullopt;
    Reader in{body.substr(cache_magic.size())};
    Sources sources;
    auto count = in.get<std::uint32_t>();
    for (std::uint32_t i = 0; in.ok && i < count; ++i) {
        std::string path = in.get_string();
        IndexSource source;
        source.is_feed = in.get<std::uint8_t>() != 0;
        source.date = get_date(in);
        source.stamp.size = in.get<std::uint64_t>();
        source.stamp.mtime_ns = in.get<std::int64_t>();
        source.candidates = in.get<std::uint32_t>();
        auto papers = in.get<std::uint32_t>();
        if (papers > in.bytes.size()) in.ok = false;
        else source.papers.reserve(papers);
        for (std::uint32_t p = 0; in.ok && p < papers; ++p) {
            IndexedPaper paper;
            paper.date = source.date;
            paper.id = in.get_string();
            paper.title = in.get_string();
            auto terms = in.get<std::uint32_t>();
            if (!in.ok || terms > in.bytes.size() / 6) { // cannot hold them: do not reserve a lie
                in.ok = false;
                break;
            }
            // One bounds check for the block, then plain copies: the index's millions of terms.
            paper.terms.resize(terms);
            const char* at = in.bytes.data();
            for (auto& [term, n] : paper.terms) {
                std::memcpy(&term, at, 4);
                std::memcpy(&n, at + 4, 2);
                at += 6;
            }
            in.bytes.remove_prefix(std::size_t{terms} * 6);
            source.papers.push_back(std::move(paper));
        }
        sources.emplace(std::move(path), std::move(source));
    }
    if (!in.ok || !in.bytes.empty()) return std::nullopt;
    return sources;
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
        populate_heap(size * 5 / 2, true); // the index takes about 2.5 times the file's size
    }
    auto bytes = read_file(where.index_cache, cache_read_limit);
    std::optional<Sources> sources;
    if (bytes) sources = deserialize(*bytes);
    if (!sources) {
        say(where, "learned scorer: the index cache " + where.index_cache.string() +
                       " does not verify (damaged or from another version); rebuilding it");
        return {};
    }
    return std::move(*sources);
}

// Past feeds named DATE.xml before `before`, the most recent `count`, oldest first.
std::vector<std::pair<Date, fs::path>> past_feed_files(const fs::path& dir, const Date& before, int count) {
    std::vector<std::pair<Date, fs::path>> files;
    std::error_code ec;
    if (dir.empty() || !fs::is_directory(dir, ec)) return files;
    walk_tree(dir, [&](const TreeEntry& entry) {
        if (!entry.name.ends_with(".xml")) return false;
        auto date = parse_iso_date(entry.name.substr(0, entry.name.size() - 4));
        if (date && *date < before) files.emplace_back(*date, entry.path);
        return false;
    }, {.recursive = false});
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
        auto text = read_file(path);
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
        if (auto saved = write_file_atomic(where.index_cache, serialize(current)); !saved)
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
