#include "search/period_words.h"

#include "search/index.h"
#include "search/words.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <set>
#include <unordered_map>

namespace pp::search {

namespace {

// Eight bytes at a time, then mixed so that the low bits (a slot) depend on
// every byte: words are short, and this runs for each of them.
std::uint64_t hash_word(std::string_view word) {
    std::uint64_t h = word.size() * 0x9e3779b97f4a7c15ull;
    const char* p = word.data();
    std::size_t n = word.size();
    for (; n >= 8; p += 8, n -= 8) {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        h = (h ^ v) * 0xbf58476d1ce4e5b9ull;
    }
    std::uint64_t tail = 0;
    for (std::size_t i = 0; i < n; ++i) tail |= std::uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
    h ^= tail;
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdull; // MurmurHash3's finalizer
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

// The same bytes; inline, where memcmp() would be a call for a few bytes.
bool same_word(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != b[i]) return false;
    return true;
}

const std::uint32_t stop_word_count = static_cast<std::uint32_t>(stop_words().size());

// A posting as gathered: the paper's day in the period, its rank in the day
// (rank_order) and the class of the word's best place in it (index.h).
constexpr int rank_bits = 21;
static_assert(max_papers_per_day < (std::size_t(1) << rank_bits), "a day's ranks fit the postings");
constexpr std::size_t most_days = std::size_t(1) << (32 - rank_bits - 2); // 512: a year's fit
std::uint32_t posting_of(std::size_t day, std::size_t rank, int cls) {
    return static_cast<std::uint32_t>(day << (rank_bits + 2) | rank << 2 | static_cast<std::size_t>(cls));
}
std::uint32_t paper_of(std::uint32_t posting) { return posting >> 2; }

// The hash that cuts chunks: FNV-1a, then mixed so that its low bits depend
// on every byte. Byte by byte, so that every machine cuts alike.
std::uint64_t cut_hash(std::string_view word) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : word) h = (h ^ c) * 0x100000001b3ull;
    h = (h ^ (h >> 33)) * 0xff51afd7ed558ccdull;
    h = (h ^ (h >> 33)) * 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

} // namespace

WordTable::WordTable() : slots_(1 << 12) { clear(); }

void WordTable::clear() {
    std::fill(slots_.begin(), slots_.end(), 0);
    starts_.assign(1, 0);
    text_.clear();
    for (auto word : stop_words()) intern(word);
}

bool WordTable::is_stop(std::uint32_t id) { return id < stop_word_count; }

std::uint32_t WordTable::intern(std::string_view word) {
    const std::uint64_t h = hash_word(word);
    const std::uint64_t tag = h >> 32 << 32;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = h & mask;; i = (i + 1) & mask) {
        const std::uint64_t slot = slots_[i];
        if (slot == 0) {
            const std::uint32_t id = size();
            slots_[i] = tag | (id + 1);
            text_ += word;
            starts_.push_back(static_cast<std::uint32_t>(text_.size()));
            if (starts_.size() * 2 > slots_.size()) grow();
            return id;
        }
        if ((slot & ~0xffffffffull) == tag && same_word(this->word(static_cast<std::uint32_t>(slot) - 1), word))
            return static_cast<std::uint32_t>(slot) - 1;
    }
}

void WordTable::grow() {
    std::vector<std::uint64_t> old(slots_.size() * 2);
    old.swap(slots_);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint64_t slot : old) {
        if (slot == 0) continue;
        std::size_t i = hash_word(word(static_cast<std::uint32_t>(slot) - 1)) & mask;
        while (slots_[i] != 0) i = (i + 1) & mask;
        slots_[i] = slot;
    }
}

// Bytes kept in blocks, never moved once kept (a year's pairs are
// megabytes: a vector's doubling would hold them twice while it grows).
class ByteBlocks {
public:
    // A copy of `bytes` in one piece: in the last block if they fit, else in
    // a new one of room for eight such (what a block's end leaves unused
    // stays under an eighth of it, whatever a day's size).
    std::string_view keep(std::string_view bytes) {
        if (blocks_.empty() || room_ < bytes.size()) {
            const std::size_t size = std::max(block_size, 8 * bytes.size());
            blocks_.push_back(std::make_unique_for_overwrite<char[]>(size));
            end_ = blocks_.back().get();
            room_ = size;
        }
        char* at = end_;
        std::memcpy(at, bytes.data(), bytes.size());
        end_ += bytes.size();
        room_ -= bytes.size();
        return {at, bytes.size()};
    }

private:
    static constexpr std::size_t block_size = std::size_t(1) << 18; // 256 KB
    std::vector<std::unique_ptr<char[]>> blocks_;
    char* end_ = nullptr;
    std::size_t room_ = 0;
};

void append_varint(std::string& out, std::uint32_t value) {
    for (; value >= 0x80; value >>= 7) out += static_cast<char>(value | 0x80);
    out += static_cast<char>(value);
}

std::uint32_t read_varint(const unsigned char*& p) {
    std::uint32_t value = 0;
    for (int shift = 0;; shift += 7) {
        const unsigned char byte = *p++;
        value |= std::uint32_t(byte & 0x7f) << shift;
        if (byte < 0x80) return value;
    }
}

// A day's pairs as end_day() packs them, each handed to `f` as (the shard's
// word id, posting) in the order they were added.
template <class F>
void for_each_pair(std::string_view packed, std::size_t day, F&& f) {
    const auto* p = reinterpret_cast<const unsigned char*>(packed.data());
    const auto* end = p + packed.size();
    std::size_t rank = 0;
    while (p < end) {
        const std::uint32_t id = read_varint(p);
        const std::uint32_t step = read_varint(p);
        rank += step >> 2;
        f(id, posting_of(day, rank, static_cast<int>(step & 3)));
    }
}

// A shard's words, and for each paper a word is in, one pair of (word id,
// posting), its class the best of the word's places there. A day's words
// first go to a table of the day's own: small enough to stay in the core's
// cache, where the shard's table of a year's words is not (its lookups were
// most of the index's time). Each of the day's words is then looked up once
// in the shard's table, not once per time it is used. The day's pairs are
// kept packed: the shard's word id and the paper's rank as a step from the
// pair before (the papers come in rank order), each a varint of 1 to 3
// bytes, where a flat 8-byte pair made a year's pairs the build's largest
// memory (docs/performance.md).
struct PeriodWords::Shard {
    WordTable words;
    ByteBlocks packed;
    WordTable day_words;                  // cleared for each day
    std::vector<std::uint64_t> day_pairs; // (day's word id << 32 | posting)
    std::vector<std::uint32_t> day_last;  // by day's word id: 1 + the index of its last pair; 0: none
    std::vector<std::uint32_t> ids;       // day's word id -> shard's
    std::string day_packed;

    // Lets go of the tables, keeping the pairs.
    void release_tables() {
        WordTable().swap(words);
        WordTable().swap(day_words);
        decltype(day_pairs)().swap(day_pairs);
        decltype(day_last)().swap(day_last);
        decltype(ids)().swap(ids);
        std::string().swap(day_packed);
    }

    void start_day() {
        day_words.clear();
        day_pairs.clear();
        day_last.clear();
    }

    void add(std::string_view word, std::uint32_t posting) {
        const std::uint32_t id = day_words.intern(word);
        if (WordTable::is_stop(id)) return;
        if (id >= day_last.size()) day_last.resize(std::max<std::size_t>(1024, 2 * std::size_t(id)));
        std::uint32_t& at = day_last[id];
        if (at != 0 && paper_of(static_cast<std::uint32_t>(day_pairs[at - 1])) == paper_of(posting)) {
            std::uint64_t& pair = day_pairs[at - 1];
            if ((pair & 3) < (posting & 3)) pair = (pair & ~std::uint64_t(3)) | (posting & 3);
            return;
        }
        day_pairs.push_back(std::uint64_t(id) << 32 | posting);
        at = static_cast<std::uint32_t>(day_pairs.size());
    }

    // The day's pairs, packed and kept (for_each_pair() reads them).
    std::string_view end_day() {
        ids.resize(day_words.size());
        for (std::uint32_t id = 0; id < day_words.size(); ++id) ids[id] = words.intern(day_words.word(id));
        day_packed.clear();
        std::uint32_t rank = 0;
        for (std::uint64_t pair : day_pairs) {
            const auto posting = static_cast<std::uint32_t>(pair);
            const std::uint32_t paper_rank = (posting >> 2) & ((1u << rank_bits) - 1);
            append_varint(day_packed, ids[pair >> 32]);
            append_varint(day_packed, (paper_rank - rank) << 2 | (posting & 3));
            rank = paper_rank;
        }
        return packed.keep(day_packed);
    }
};

PeriodWords::PeriodWords(std::string name, std::vector<Date> dates, std::size_t most_shards)
    : name_(std::move(name)), dates_(std::move(dates)), papers_(new std::atomic<int>[dates_.size()]),
      most_shards_(most_shards), spans_(dates_.size()) {
    for (std::size_t i = 0; i < dates_.size(); ++i) papers_[i] = -1;
}

PeriodWords::~PeriodWords() = default;

std::unique_ptr<PeriodWords::Shard> PeriodWords::take_shard() {
    std::unique_lock lock(shards_mutex_);
    if (idle_.empty() && (most_shards_ == 0 || shards_ < most_shards_)) {
        ++shards_;
        return std::make_unique<Shard>();
    }
    shard_returned_.wait(lock, [&] { return !idle_.empty(); });
    auto shard = std::move(idle_.back());
    idle_.pop_back();
    return shard;
}

void PeriodWords::give_back(std::unique_ptr<Shard> shard) {
    {
        std::lock_guard lock(shards_mutex_);
        idle_.push_back(std::move(shard));
    }
    shard_returned_.notify_one();
}

std::size_t PeriodWords::shards_made() {
    std::lock_guard lock(shards_mutex_);
    return shards_;
}

std::size_t PeriodWords::gathered_bytes() const {
    std::size_t bytes = 0;
    for (const Span& span : spans_) bytes += span.packed.size();
    return bytes;
}

bool PeriodWords::has(std::size_t index) const { return index < dates_.size() && papers_[index] >= 0; }

bool PeriodWords::add(const Day& day, std::size_t index) {
    int unset = -1;
    if (index >= dates_.size() || index >= most_days || dates_[index] != day.date ||
        day.papers.size() > max_papers_per_day ||
        !papers_[index].compare_exchange_strong(unset, static_cast<int>(day.papers.size())))
        return false;
    auto shard = take_shard();
    shard->start_day();
    const auto order = rank_order(day);
    for (std::size_t rank = 0; rank < order.size(); ++rank)
        for_each_indexed_field(day.papers[order[rank]], [&](std::string_view field, int cls) {
            const std::uint32_t posting = posting_of(index, rank, cls);
            for_each_indexed_word(field, [&](std::string_view word) { shard->add(word, posting); });
        });
    spans_[index] = {shard.get(), shard->end_day()};
    give_back(std::move(shard));
    return added_.fetch_add(1, std::memory_order_acq_rel) + 1 == dates_.size();
}

void PeriodWords::clear() {
    std::lock_guard lock(shards_mutex_);
    decltype(idle_)().swap(idle_);
    shards_ = 0;
    std::fill(spans_.begin(), spans_.end(), Span());
}

namespace {

// Every shard's pairs as one list of postings a word. The days' pairs are
// taken in date order, and a day's come in rank order: each list is in
// number order as it is made.
struct Postings {
    WordTable words;
    std::vector<std::uint32_t> starts; // by word id, into list; starts[id + 1] ends it
    std::vector<std::uint32_t> list;
};

template <class Shards, class Spans>
Postings join(Shards& shards, const Spans& spans) {
    Postings out;
    std::unordered_map<const void*, std::vector<std::uint32_t>> ids; // a shard's word id -> out's
    for (auto& shard : shards) {
        auto& map = ids[shard.get()];
        map.resize(shard->words.size());
        for (std::uint32_t id = 0; id < shard->words.size(); ++id) map[id] = out.words.intern(shard->words.word(id));
        shard->release_tables(); // their pairs are all the join needs now: megabytes a year, freed before the list
    }
    out.starts.assign(out.words.size() + 1, 0);
    for (std::size_t day = 0; day < spans.size(); ++day) {
        if (!spans[day].shard) continue;
        const auto& map = ids[spans[day].shard];
        for_each_pair(spans[day].packed, day, [&](std::uint32_t id, std::uint32_t) { ++out.starts[map[id] + 1]; });
    }
    for (std::size_t id = 1; id < out.starts.size(); ++id) out.starts[id] += out.starts[id - 1];
    out.list.resize(out.starts.back());
    std::vector<std::uint32_t> next(out.starts.begin(), out.starts.end() - 1);
    for (std::size_t day = 0; day < spans.size(); ++day) {
        if (!spans[day].shard) continue;
        const auto& map = ids[spans[day].shard];
        for_each_pair(spans[day].packed, day,
                      [&](std::uint32_t id, std::uint32_t posting) { out.list[next[map[id]]++] = posting; });
    }
    return out;
}

// Whether a word of `bytes` starts a chunk: with a chance of its bytes over a
// chunk's, as many as the period will have once whole (its text now over
// its share of its calendar), drawn from its hash. So chunks hold
// `chunk_bytes` on average, and a period that gains days keeps its cuts: a
// word's share of its period's text changes little, and a cut that comes or
// goes changes its chunk and the one before alone. In integers, so that
// every machine cuts alike: draw / 2^32 < bytes / (chunk_bytes * covered / whole),
// each side below 2^55 (a word of a chunk's bytes or more always starts one).
bool starts_chunk(std::string_view word, std::size_t bytes, std::size_t chunk_bytes, PeriodShare share) {
    if (bytes >= chunk_bytes) return true;
    const std::uint64_t draw = cut_hash(word) >> 32;
    return draw * static_cast<std::uint64_t>(share.covered) * chunk_bytes <
           (std::uint64_t(bytes) * static_cast<std::uint64_t>(share.whole) << 32);
}

std::size_t day_of(std::uint32_t posting) { return posting >> (rank_bits + 2); }

// A period's words in byte order, cut into chunks and written part by part.
struct Layout {
    const Postings& postings;
    std::vector<int> part;                   // by day: index.h's part_of()
    std::vector<std::uint64_t> first_number; // by day: its first paper's number
    std::vector<std::uint32_t> sorted{};     // ids of the words with postings, in byte order

    void sort() {
        for (std::uint32_t id = 0; id < postings.words.size(); ++id)
            if (postings.starts[id] != postings.starts[id + 1]) sorted.push_back(id);
        std::sort(sorted.begin(), sorted.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return postings.words.word(a) < postings.words.word(b); });
    }

    int part_at(std::uint32_t i) const { return part[day_of(postings.list[i])]; }

    // About a word's bytes: its line in each part it is in, two bytes a posting.
    std::size_t bytes_of(std::uint32_t id) const {
        std::size_t lines = 1;
        for (std::uint32_t i = postings.starts[id] + 1; i < postings.starts[id + 1]; ++i)
            lines += part_at(i) != part_at(i - 1);
        return lines * (postings.words.word(id).size() + 2) + 2 * (postings.starts[id + 1] - postings.starts[id]);
    }

    // Where chunks start (indices into `sorted`, then its size), each under a
    // name of its own; their first words go to `first_words`.
    std::vector<std::size_t> cuts(std::size_t chunk_bytes, PeriodShare share,
                                  std::vector<std::string>& first_words) const {
        std::vector<std::size_t> out;
        std::set<std::string> names;
        std::size_t size = 0;
        for (std::size_t w = 0; w < sorted.size(); ++w) {
            const std::string_view word = postings.words.word(sorted[w]);
            const std::size_t bytes = bytes_of(sorted[w]);
            const bool cut = w == 0 || starts_chunk(word, bytes, chunk_bytes, share) || size >= 4 * chunk_bytes;
            if (cut && names.insert(chunk_name(word)).second) { // a name taken: the chunk goes on
                out.push_back(w);
                first_words.emplace_back(word);
                size = 0;
            }
            size += bytes;
        }
        out.push_back(sorted.size());
        return out;
    }

    // The chunk of words [from, to): their lines part by part, so that the
    // days a later build adds come at its end.
    std::string text(std::size_t from, std::size_t to) const {
        std::string text;
        std::vector<std::uint32_t> next; // by word: its first posting not yet written
        for (std::size_t w = from; w < to; ++w) next.push_back(postings.starts[sorted[w]]);
        for (;;) {
            int now = std::numeric_limits<int>::max(); // the earliest part left
            for (std::size_t w = from; w < to; ++w)
                if (next[w - from] < postings.starts[sorted[w] + 1]) now = std::min(now, part_at(next[w - from]));
            if (now == std::numeric_limits<int>::max()) return text;
            for (std::size_t w = from; w < to; ++w) append_line(text, sorted[w], next[w - from], now);
        }
    }

    // The word's line of part `now`, from posting `i` on, if it has one.
    void append_line(std::string& text, std::uint32_t id, std::uint32_t& i, int now) const {
        const std::uint32_t end = postings.starts[id + 1];
        if (i == end || part_at(i) != now) return;
        text += postings.words.word(id);
        text += '\t';
        std::uint64_t previous = 0;
        for (bool first = true; i < end && part_at(i) == now; ++i, first = false) {
            const std::uint32_t posting = postings.list[i];
            const std::uint64_t n = first_number[day_of(posting)] + (paper_of(posting) & ((1u << rank_bits) - 1));
            append_posting(text, (first ? n + 1 : n - previous) * 4 + (posting & 3));
            previous = n;
        }
        text += '\n';
    }
};

} // namespace

PeriodWords::Chunks PeriodWords::finish(std::size_t chunk_bytes, const WriteChunk& write) {
    Chunks out;
    if (dates_.empty()) return out;
    std::vector<std::uint64_t> first_number(dates_.size());
    std::vector<int> part(dates_.size());
    std::uint64_t number = 0;
    Date last = dates_.front();
    for (std::size_t i = 0; i < dates_.size(); ++i) {
        part[i] = part_of(name_, dates_[i]);
        const int papers = papers_[i];
        if (papers < 0) continue;
        if (!out.days.empty()) out.days += ',';
        char entry[24];
        std::snprintf(entry, sizeof entry, "%02d%02d:%d", dates_[i].month, dates_[i].day, papers);
        out.days += entry;
        first_number[i] = number;
        number += static_cast<std::uint64_t>(papers);
        last = dates_[i];
    }
    const Postings postings = join(idle_, spans_);
    clear(); // the shards are in `postings` now: let them go before the text is made
    Layout layout{postings, std::move(part), std::move(first_number)};
    layout.sort();
    const auto cuts = layout.cuts(chunk_bytes, period_share(name_, last), out.first_words);
    for (std::size_t c = 0; c + 1 < cuts.size(); ++c) write(out.first_words[c], layout.text(cuts[c], cuts[c + 1]));
    return out;
}

} // namespace pp::search
