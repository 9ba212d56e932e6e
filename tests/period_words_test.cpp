// One period's words (search/period_words.h): the table of words, and the
// chunks a period's days give, whatever the order and the threads they came
// from.
#include "search/index.h"
#include "search/period_words.h"
#include "search/words.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <latch>
#include <map>
#include <random>
#include <thread>

using namespace pp;
using namespace pp::search;

namespace {

Date day_of(int month, int day) { return Date{2023, month, day}; }

// A day of `papers` papers whose words overlap with other days'.
Day make_day(const Date& date, int papers) {
    Day day;
    day.date = date;
    for (int p = 0; p < papers; ++p) {
        Paper paper;
        paper.id = "2301." + std::to_string(10000 + date.month * 1000 + date.day * 20 + p);
        paper.title = "Widget " + std::to_string(p % 3) + " flows of the sprocket";
        paper.authors = {"Ada Lovelace", "Grace Hopper " + std::to_string(p % 4)};
        paper.abstract = "We study sprocket flows; widgets under load " + std::to_string(date.day % 5) +
                         " and Schölkopf's kernels. The widget is the sprocket.";
        paper.relevance = 1 + (p * 7 + date.day) % 10;
        paper.novelty = 1 + (p * 3) % 10;
        day.papers.push_back(std::move(paper));
    }
    return day;
}

std::vector<Day> month_of_days() {
    std::vector<Day> days;
    for (int d = 1; d <= 28; d += 1 + d % 3) days.push_back(make_day(day_of(3, d), 1 + d % 7));
    return days;
}

Day varied_day(const Date& date, int papers); // below

std::vector<Date> dates_of(const std::vector<Day>& days) {
    std::vector<Date> dates;
    for (const auto& day : days) dates.push_back(day.date);
    return dates;
}

// The chunks' text, and the list of days, as finish() writes them.
std::string finished(PeriodWords& words, std::size_t chunk_bytes = 256) {
    std::string text;
    auto chunks = words.finish(chunk_bytes, [&](std::string_view first_word, std::string_view chunk) {
        text += "#" + std::string(first_word) + "\n" + std::string(chunk);
    });
    std::string firsts;
    for (const auto& word : chunks.first_words) firsts += word + " ";
    return chunks.days + "\n" + firsts + "\n" + text;
}

// word -> its postings, decoded: (paper number, class).
std::map<std::string, std::vector<std::pair<long, int>>> postings_of(const std::string& text) {
    std::map<std::string, std::vector<std::pair<long, int>>> out;
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find('\n', at);
        const std::string line = text.substr(at, end - at);
        at = end + 1;
        const auto tab = line.find('\t');
        if (tab == std::string::npos) continue;
        auto& list = out[line.substr(0, tab)];
        long number = -1, lead = 0;
        for (char c : line.substr(tab + 1)) {
            if (c >= 'A' && c <= 'Z') { // a posting's last digit (index.h)
                const long value = lead * 26 + (c - 'A');
                number += value / 4;
                list.emplace_back(number, static_cast<int>(value % 4));
                lead = 0;
            } else {
                lead = lead * 36 + (c <= '9' ? c - '0' : c - 'a' + 10);
            }
        }
    }
    return out;
}

} // namespace

TEST_CASE("words: the table gives each word one id, the stop words first, through growth and clear()") {
    WordTable table;
    CHECK(WordTable::is_stop(table.intern("the")));
    CHECK(WordTable::is_stop(table.intern("which")));
    CHECK_FALSE(WordTable::is_stop(table.intern("sprocket")));
    std::vector<std::uint32_t> ids;
    for (int i = 0; i < 20000; ++i) ids.push_back(table.intern("w" + std::to_string(i * 7919)));
    for (int i = 0; i < 20000; ++i) {
        CHECK(table.intern("w" + std::to_string(i * 7919)) == ids[static_cast<std::size_t>(i)]);
        CHECK(table.word(ids[static_cast<std::size_t>(i)]) == "w" + std::to_string(i * 7919));
    }
    CHECK(table.size() == stop_words().size() + 20001);
    table.clear();
    CHECK(table.size() == stop_words().size());
    CHECK(WordTable::is_stop(table.intern("the")));
    CHECK_FALSE(WordTable::is_stop(table.intern("w0")));
}

TEST_CASE("words: a period's chunks are the same whatever order and threads its days come in") {
    const auto days = month_of_days();
    PeriodWords in_order("2023-03", dates_of(days));
    for (std::size_t i = 0; i < days.size(); ++i) CHECK(in_order.add(days[i], i) == (i + 1 == days.size()));
    const std::string expected = finished(in_order);

    std::vector<std::size_t> order(days.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::shuffle(order.begin(), order.end(), std::mt19937(7));
    // Six threads, with as many shards as they like, or fewer (the rest wait their turn).
    for (std::size_t most_shards : {0, 1, 2}) {
        CAPTURE(most_shards);
        PeriodWords shuffled("2023-03", dates_of(days), most_shards);
        std::atomic<std::size_t> next{0}, last_days{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 6; ++t)
            threads.emplace_back([&] {
                for (std::size_t i; (i = next++) < order.size();)
                    if (shuffled.add(days[order[i]], order[i])) ++last_days;
            });
        for (auto& thread : threads) thread.join();
        CHECK(last_days == 1); // exactly one add() says the period is complete
        if (most_shards > 0) CHECK(shuffled.shards_made() <= most_shards);
        CHECK(finished(shuffled) == expected);
    }
}

TEST_CASE("words: no more threads add at once than the period has shards; the others wait their turn") {
    std::vector<Day> days;
    for (int d = 1; d <= 12; ++d) days.push_back(varied_day(Date{2023, 5, d}, 400)); // an add takes a while
    PeriodWords words("2023-05", dates_of(days), 1);
    std::latch start(6);
    std::atomic<std::size_t> next{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
        threads.emplace_back([&] {
            start.arrive_and_wait(); // all six at once
            for (std::size_t i; (i = next++) < days.size();) words.add(days[i], i);
        });
    for (auto& thread : threads) thread.join();
    CHECK(words.shards_made() == 1);
    PeriodWords alone("2023-05", dates_of(days));
    for (std::size_t i = 0; i < days.size(); ++i) alone.add(days[i], i);
    CHECK(finished(words) == finished(alone));
}

TEST_CASE("words: each paper is listed once a word, with the word's best place, numbered in day then rank order") {
    std::vector<Day> days = {make_day(day_of(3, 1), 3), make_day(day_of(3, 2), 2)};
    PeriodWords words("2023-03", dates_of(days));
    words.add(days[1], 1);
    words.add(days[0], 0);
    CHECK_FALSE(words.add(days[0], 0)); // a day added again is skipped
    CHECK_FALSE(words.add(days[1], 0)); // and a day under another's number refused
    const auto postings = postings_of(finished(words));
    CHECK(postings.at("sprocket").size() == 5);                                // every paper, once
    for (const auto& [number, cls] : postings.at("sprocket")) CHECK(cls == 3); // in the title and the abstract
    const auto& widgets = postings.at("widgets");
    CHECK(widgets.size() == 5);
    for (std::size_t i = 0; i < widgets.size(); ++i) {
        CHECK(widgets[i].first == static_cast<long>(i)); // numbers 0-2 the first day, 3-4 the second
        CHECK(widgets[i].second == 1);                   // only in the abstract
    }
    CHECK(postings.at("scholkopf").size() == 5); // folded
    CHECK(postings.at("lovelace").front().second == 2);
    CHECK_FALSE(postings.contains("the"));
    CHECK_FALSE(postings.contains("of"));
}

TEST_CASE("words: a day of the most papers a day holds keeps each paper's number and class, in a few bytes a posting") {
    // Paper p ranks 4999 - p (equal scores: the last on the page first). A
    // word of its own each (ids past the one-byte varints), and "gadget" in
    // every thousandth, far apart in rank (each paper also has its ID's words).
    Day big;
    big.date = day_of(3, 2);
    auto letters = [](int n) {
        std::string word = "q";
        for (; n > 0; n /= 26) word += static_cast<char>('a' + n % 26);
        return word;
    };
    for (int p = 0; p < static_cast<int>(max_papers_per_day); ++p) {
        Paper paper;
        paper.id = "2301." + std::to_string(10000 + p);
        paper.abstract = letters(p);
        if (p % 1000 == 0) (p % 2000 == 0 ? paper.title : paper.abstract) += " gadget";
        big.papers.push_back(std::move(paper));
    }
    std::vector<Day> days = {make_day(day_of(3, 1), 2), big};
    PeriodWords words("2023-03", dates_of(days));
    REQUIRE(words.add(days[1], 1) == false);
    REQUIRE(words.add(days[0], 0));
    const std::size_t bytes = words.gathered_bytes();
    const auto postings = postings_of(finished(words));
    std::size_t count = 0;
    for (const auto& [word, list] : postings) count += list.size();
    CHECK(count > max_papers_per_day);
    CHECK(bytes <= 4 * count); // a flat (word, posting) pair took 8

    // Numbered after the first day's 2 papers: paper p is number 2 + 4999 - p;
    // "gadget" is in the title (3) of papers 0, 2000 and 4000, the abstract (1) of 1000 and 3000.
    const std::vector<std::pair<long, int>> gadget = {
        {2 + 999, 3}, {2 + 1999, 1}, {2 + 2999, 3}, {2 + 3999, 1}, {2 + 4999, 3}};
    CHECK(postings.at("gadget") == gadget);
    CHECK(postings.at(letters(4321)) == std::vector<std::pair<long, int>>{{2 + 4999 - 4321, 1}});
    CHECK(postings.at(letters(1)) == std::vector<std::pair<long, int>>{{2 + 4998, 1}});
    CHECK(postings.at("sprocket").size() == 2);
}

TEST_CASE("words: a day that never came is not listed, and its papers take no numbers") {
    std::vector<Day> days = {make_day(day_of(3, 1), 2), make_day(day_of(3, 2), 4), make_day(day_of(3, 3), 1)};
    PeriodWords words("2023-03", dates_of(days));
    words.add(days[0], 0);
    words.add(days[2], 2);
    const std::string text = finished(words);
    CHECK(text.starts_with("0301:2,0303:1\n"));
    const auto postings = postings_of(text);
    const auto& lovelace = postings.at("lovelace");
    REQUIRE(lovelace.size() == 3);
    CHECK(lovelace.back().first == 2);
}

TEST_CASE("words: a posting is base 36 of its value / 26, then its last digit as a capital, with no commas") {
    auto written = [](std::initializer_list<std::uint64_t> values) {
        std::string text;
        for (auto v : values) append_posting(text, v);
        return text;
    };
    CHECK(written({4, 47, 84}) == "E1V3G"); // index.h's example
    CHECK(written({25, 26, 935, 936}) == "Z1AzZ10A");
    CHECK(postings_of("w\tE1V3G\n").at("w") == std::vector<std::pair<long, int>>{{0, 0}, {11, 3}, {32, 0}});
}

namespace {

// Days whose papers draw their words from a vocabulary of thousands, some
// far commoner than others, as a real archive's do.
Day varied_day(const Date& date, int papers) {
    Day day;
    day.date = date;
    std::mt19937 random(static_cast<unsigned>(date.month * 100 + date.day));
    auto word = [&] {
        const double u = std::uniform_real_distribution<double>(0, 1)(random);
        return "w" + std::to_string(static_cast<int>(std::pow(6000.0, u * u)));
    };
    for (int p = 0; p < papers; ++p) {
        Paper paper;
        paper.id = "2301." + std::to_string(10000 + date.month * 1000 + date.day * 30 + p);
        for (int w = 0; w < 6; ++w) paper.title += word() + " ";
        for (int w = 0; w < 80; ++w) paper.abstract += word() + " ";
        paper.relevance = 1 + p % 10;
        paper.novelty = 1 + (p * 3) % 10;
        day.papers.push_back(std::move(paper));
    }
    return day;
}

// Chunk name -> its text, as finish() cuts them for the weekdays from 2 January
// to `last` (the year 2023's period).
std::map<std::string, std::string> chunks_until(const Date& last) {
    std::vector<Day> days;
    for (Date d{2023, 1, 2}; d <= last; d = next_day(d))
        if (d.weekday() != 0 && d.weekday() != 6) days.push_back(varied_day(d, 25));
    PeriodWords words("2023", dates_of(days));
    for (std::size_t i = 0; i < days.size(); ++i) words.add(days[i], i);
    std::map<std::string, std::string> chunks;
    words.finish(chunk_text_bytes,
                 [&](std::string_view first, std::string_view text) { chunks[chunk_name(first)] = std::string(text); });
    return chunks;
}

} // namespace

TEST_CASE("words: a year that gains a month keeps its chunks' names, and what it gains comes at their ends") {
    // What lets git store the new version of a period as a small delta of the
    // old where a site branch is kept: the same file names, the old text first.
    const auto before = chunks_until(Date{2023, 3, 31});
    const auto after = chunks_until(Date{2023, 4, 30});
    REQUIRE(before.size() >= 20);
    std::size_t old_bytes = 0, kept_bytes = 0, new_bytes = 0;
    for (const auto& [name, text] : before) {
        old_bytes += text.size();
        if (auto now = after.find(name); now != after.end() && now->second.starts_with(text)) kept_bytes += text.size();
    }
    for (const auto& [name, text] : after) new_bytes += text.size();
    CHECK(old_bytes > 100'000);
    CHECK(kept_bytes * 100 >=
          old_bytes * 80); // 86% here (one line a word, not by parts: 9%); the rest: a cut that came or went
    CHECK(new_bytes > old_bytes);
    // A chunk holds about chunk_text_bytes once the year is whole: here, a third of that in a third of the year.
    CHECK(new_bytes / after.size() > chunk_text_bytes / 16);
    CHECK(new_bytes / after.size() < chunk_text_bytes);
}

TEST_CASE("words: two words whose names collide never start two chunks of one period") {
    REQUIRE(chunk_name("q189db") == chunk_name("q57828")); // a collision of FNV-1a's 32 bits
    Day day = make_day(day_of(3, 1), 2);
    day.papers[0].title = "q189db q57828 widgets";
    PeriodWords words("2023-03", {day.date});
    words.add(day, 0);
    std::map<std::string, int> written; // chunk name -> times written
    std::string text;
    const auto chunks = words.finish(1, [&](std::string_view first_word, std::string_view chunk) {
        ++written[chunk_name(first_word)];
        text += chunk;
    });
    CHECK(chunks.first_words.size() > 3); // a chunk a word, at 1 byte a chunk
    CHECK(written.size() == chunks.first_words.size());
    for (const auto& [name, times] : written) CHECK(times == 1);
    CHECK(text.find("q189db\t") != std::string::npos);
    CHECK(text.find("q57828\t") != std::string::npos);
}

TEST_CASE("words: a period's parts and its share of its calendar, at the edges of weeks, months and years") {
    // 2023-01-01 is a Sunday: the month's first week is that day alone.
    CHECK(part_of("2023-01", Date{2023, 1, 1}) == 0);
    CHECK(part_of("2023-01", Date{2023, 1, 2}) == 1);
    CHECK(part_of("2023-01", Date{2023, 1, 8}) == 1);
    CHECK(part_of("2023-01", Date{2023, 1, 9}) == 2);
    CHECK(part_of("2023", Date{2023, 12, 31}) == 12);
    CHECK(part_of("2023-01-02", Date{2023, 1, 5}) == 5); // a week's part is its day
    // A week from a Wednesday the 1st ends on the Sunday; a leap year and its February are whole at their ends.
    const auto week = period_share("2025-01-01", Date{2025, 1, 3});
    CHECK((week.covered == 3 && week.whole == 5));
    const auto year = period_share("2024", Date{2024, 12, 31});
    CHECK((year.covered == 366 && year.whole == 366));
    const auto february = period_share("2024-02", Date{2024, 2, 10});
    CHECK((february.covered == 10 && february.whole == 29));
    CHECK(period_share("2024-13", Date{2024, 1, 1}).whole == 1); // no such period: whole
}
