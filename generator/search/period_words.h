// One period's words (search/index.h), gathered a day at a time from any
// thread, then written as the period's chunks.
//
// This is the build's inner loop: every word of every paper passes through
// it (about 30 million on the 10-year bench archive). So a day's words go to
// a shard that no other thread holds (as many shards as threads add at
// once, up to a limit: each shard's table holds most of the period's words,
// so a shard a worker would make memory grow with --jobs, not with the CPUs
// that run them): first into a small table of the day's own words, then each of them
// once into the shard's table, with one (word, posting) pair for each paper a
// word is in, packed in a few bytes; no lock per word, no list per word.
// finish() joins the shards by a counting sort, taking the days in date
// order (so each word's postings come out in order), and writes the chunks.
#pragma once

#include "core/paper.h"

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace pp::search {

// Words, each with a number (its id) in the order they came; the stop words
// (words.h) come first, so a word's id says whether it is one.
class WordTable {
public:
    WordTable();
    // Back to the stop words alone (keeping the room it has grown to).
    void clear();
    // The word's id, adding it when it is new.
    std::uint32_t intern(std::string_view word);
    std::string_view word(std::uint32_t id) const {
        return std::string_view(text_).substr(starts_[id], starts_[id + 1] - starts_[id]);
    }
    std::uint32_t size() const { return static_cast<std::uint32_t>(starts_.size() - 1); }
    static bool is_stop(std::uint32_t id);
    void swap(WordTable& other) noexcept {
        slots_.swap(other.slots_);
        starts_.swap(other.starts_);
        text_.swap(other.text_);
    }

private:
    void grow();

    std::vector<std::uint64_t> slots_; // hash's high 32 bits << 32 | id + 1; 0: empty
    std::vector<std::uint32_t> starts_;
    std::string text_;
};

class PeriodWords {
public:
    // Period `name` (index.h's period_of()) of these days, in date order (the
    // dates of a year at most, one at least), added from at most `most_shards`
    // threads at a time (0: any number); a thread beyond them waits its turn.
    PeriodWords(std::string name, std::vector<Date> dates, std::size_t most_shards = 0);
    ~PeriodWords();

    // Adds the day's words as the period's day number `index`; a day added
    // again is skipped, and so is one past the 512th or with more than
    // max_papers_per_day papers (core/paper.h), as the postings' bits hold.
    // True when this call added the period's last day.
    bool add(const Day& day, std::size_t index);
    bool has(std::size_t index) const;
    // The bytes the added days' pairs take until finish(): a few a posting
    // (the blocks that hold them, up to an eighth more).
    std::size_t gathered_bytes() const;
    // The shards made so far: at most `most_shards`.
    std::size_t shards_made();
    // Lets go of the words (once their chunks are written).
    void clear();

    struct Chunks {
        std::string days;                     // "MMDD:papers,…" in date order
        std::vector<std::string> first_words; // of each chunk
    };
    using WriteChunk = std::function<void(std::string_view first_word, std::string_view text)>;
    // The period's chunks (index.h), of about `chunk_bytes` of text each once
    // the period is whole, handed to `write` one at a time. Not thread-safe,
    // and only once every add() has returned.
    Chunks finish(std::size_t chunk_bytes, const WriteChunk& write);

private:
    struct Shard;
    std::unique_ptr<Shard> take_shard();
    void give_back(std::unique_ptr<Shard> shard);

    std::string name_;
    std::vector<Date> dates_;
    std::unique_ptr<std::atomic<int>[]> papers_; // a day's papers; -1 until added
    std::atomic<std::size_t> added_{0};
    std::mutex shards_mutex_;
    std::condition_variable shard_returned_;
    std::size_t most_shards_ = 0;
    std::size_t shards_ = 0;                   // made
    std::vector<std::unique_ptr<Shard>> idle_; // every shard, once no add() runs
    struct Span {                              // a day's pairs, packed in its shard
        const Shard* shard = nullptr;
        std::string_view packed;
    };
    std::vector<Span> spans_; // by day
};

} // namespace pp::search
