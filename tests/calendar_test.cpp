// core/arxiv_calendar: announcement days, submission windows and the
// no-mailing evenings (config/arxiv_dates), with no I/O.
#include "config/arxiv_dates.h"
#include "core/arxiv_calendar.h"

#include <doctest/doctest.h>

using namespace pp;

// The windows below are worked out by hand from arXiv's schedule (14:00
// US Eastern deadlines; EDT = UTC-4, EST = UTC-5), not from the code.
TEST_CASE("the submission window of an announcement day lies between two 14:00 US-Eastern deadlines, DST included") {
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    auto window = [&](const char* day) {
        auto w = calendar.submission_window(*parse_iso_date(day));
        return w.from.iso() + " " + w.to.iso();
    };
    CHECK(window("2025-03-25") == "2025-03-21T18:00Z 2025-03-24T18:00Z"); // Tuesday: Friday to Monday, the weekend in
    CHECK(window("2025-03-24") == "2025-03-20T18:00Z 2025-03-21T18:00Z"); // Monday: Thursday to Friday
    CHECK(window("2025-03-21") == "2025-03-19T18:00Z 2025-03-20T18:00Z");
    // DST began Sunday 9 March 2025: Friday's deadline is EST, Monday's EDT.
    CHECK(window("2025-03-11") == "2025-03-07T19:00Z 2025-03-10T18:00Z");
    CHECK(window("2025-03-10") == "2025-03-06T19:00Z 2025-03-07T19:00Z");
    // DST ended Sunday 2 November 2025.
    CHECK(window("2025-11-04") == "2025-10-31T18:00Z 2025-11-03T19:00Z");
    // Thanksgiving (no mailing on the evening of Thursday 27 November 2025): Thursday's feed (Wednesday
    // evening's mailing) exists, Friday's does not, and Monday's holds Wednesday 14:00 to Friday 14:00.
    CHECK(calendar.is_announcement_day(*parse_iso_date("2025-11-27")));
    CHECK_FALSE(calendar.is_announcement_day(*parse_iso_date("2025-11-28")));
    CHECK(window("2025-12-01") == "2025-11-26T19:00Z 2025-11-28T19:00Z");
    CHECK(us_eastern_daylight_time(*parse_iso_date("2026-03-08")));
    CHECK_FALSE(us_eastern_daylight_time(*parse_iso_date("2026-03-07")));
    CHECK(minute_before(UtcMinute{*parse_iso_date("2025-03-24"), 18, 0}).stamp() == "202503241759");
}

// arXiv's published holidays (info.arxiv.org/help/availability), each an
// evening without a mailing: the feed dated the next weekday does not exist.
TEST_CASE("arXiv's calendar: the published no-mailing evenings take away the next weekday's announcement") {
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    auto announced = [&](const char* day) { return calendar.is_announcement_day(*parse_iso_date(day)); };
    // Christmas to New Year 2025/26: no mailing on 25 Dec, 30 Dec, 1 Jan.
    for (const char* day : {"2025-12-22", "2025-12-23", "2025-12-24", "2025-12-25", "2025-12-29", "2025-12-30",
                            "2026-01-01", "2026-01-05"})
        CHECK_MESSAGE(announced(day), day);
    for (const char* day : {"2025-12-26", "2025-12-31", "2026-01-02", "2025-12-27", "2025-12-28"})
        CHECK_MESSAGE(!announced(day), day);
    CHECK_FALSE(announced("2026-01-20")); // no mailing on Monday 19 January 2026
    CHECK(announced("2026-01-19"));       // Sunday evening's mailing
    CHECK_FALSE(announced("2025-07-07")); // a Sunday holiday (6 July 2025): no Monday feed
    CHECK_FALSE(announced("2026-06-22")); // a Friday holiday (19 June 2026): the Sunday mailing is skipped
    CHECK(announced("2026-06-19"));       // Thursday evening's mailing still came
    CHECK_FALSE(announced("2026-11-27")); // tomorrow, as this is written: Thanksgiving 2026
    CHECK_FALSE(announced("2024-12-26")); // 2024's list, from the page's history
    CHECK_FALSE(announced("2024-12-27"));
    CHECK(calendar.why_no_announcement(*parse_iso_date("2025-11-28")) ==
          "no mailing on the evening of Thursday 2025-11-27 (arXiv's holidays)");
    CHECK(calendar.why_no_announcement(*parse_iso_date("2025-11-29")) == "a Saturday");
    CHECK(calendar.why_no_announcement(*parse_iso_date("2025-11-27")).empty());
    // The years arXiv has published, and the ones it has not.
    for (int year : {2024, 2025, 2026}) CHECK(calendar.knows_year(year));
    CHECK_FALSE(calendar.knows_year(2027));
    CHECK(default_no_mailing().source.find("info.arxiv.org/help/availability") != std::string::npos);
    // arxiv.no_mailing adds an evening (an ad hoc deferral) and makes its year known.
    ArxivSettings settings;
    settings.no_mailing = {*parse_iso_date("2027-11-25")};
    const ArxivCalendar extended = arxiv_calendar(settings);
    CHECK_FALSE(extended.is_announcement_day(*parse_iso_date("2027-11-26")));
    CHECK(extended.knows_year(2027));
}

// arXiv's 2023 list, read from the page's history (github.com/arXiv/arxiv-docs,
// source/help/availability.md as of commit f5ae15ba, 19 December 2023, "2023 Holidays";
// commit 13add154 removed it on 2 January 2024): Mon 16 January, Wed 14 June, Mon 19 June,
// Tues 4 July, Thrs 17 August, Mon 4 September, Thrs 23 November, Mon 25 December, Wed 27 December.
TEST_CASE("arXiv's calendar: 2023's no-mailing evenings are known, so a back-fill into 2023 writes no phantom day") {
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    CHECK(calendar.knows_year(2023));
    // The weekday after each listed evening has no announcement.
    for (const char* day : {"2023-01-17", "2023-06-15", "2023-06-20", "2023-07-05", "2023-08-18", "2023-09-05",
                            "2023-11-24", "2023-12-26", "2023-12-28"})
        CHECK_MESSAGE(!calendar.is_announcement_day(*parse_iso_date(day)), day);
    // Late 2023 around Thanksgiving and Christmas: these feeds did exist.
    for (const char* day :
         {"2023-11-22", "2023-11-23", "2023-11-27", "2023-12-22", "2023-12-25", "2023-12-27", "2023-12-29"})
        CHECK_MESSAGE(calendar.is_announcement_day(*parse_iso_date(day)), day);
    CHECK(calendar.why_no_announcement(*parse_iso_date("2023-11-24")) ==
          "no mailing on the evening of Thursday 2023-11-23 (arXiv's holidays)");
    // Monday 27 November 2023 holds Wednesday 22 November 14:00 EST to Friday 24 November 14:00 EST.
    auto window = calendar.submission_window(*parse_iso_date("2023-11-27"));
    CHECK(window.from.iso() == "2023-11-22T19:00Z");
    CHECK(window.to.iso() == "2023-11-24T19:00Z");
}

TEST_CASE("arXiv's calendar: the announcement days' windows tile 2024-2026, each holiday folded into the next") {
    const ArxivCalendar calendar = arxiv_calendar(ArxivSettings{});
    std::optional<SubmissionWindow> last;
    int days = 0;
    for (Date d = *parse_iso_date("2024-01-02"); d <= *parse_iso_date("2026-12-31"); d = next_day(d)) {
        if (!calendar.is_announcement_day(d)) continue;
        auto window = calendar.submission_window(d);
        CHECK_MESSAGE(window.from < window.to, d.iso());
        if (last) CHECK_MESSAGE(window.from == last->to, d.iso() << " does not start where the day before ends");
        last = window;
        ++days;
    }
    // Weekdays of the three years less the 26 announcements the holidays take within them (the 27th,
    // of Thursday 31 December 2026, is Friday 1 January 2027's).
    int weekdays = 0;
    for (Date d = *parse_iso_date("2024-01-02"); d <= *parse_iso_date("2026-12-31"); d = next_day(d))
        weekdays += d.weekday() != 0 && d.weekday() != 6;
    const int lost = weekdays - days;
    CHECK(lost == 26);
}
