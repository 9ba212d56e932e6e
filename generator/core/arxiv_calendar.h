// arXiv's announcement calendar: which days carry an announcement, and which
// submissions an announcement holds. A day here is an announcement's date as
// the feed and the listings give it: the mailing sent the evening before, US
// Eastern (Sunday to Thursday evenings, so Monday to Friday dates).
// Submissions received before 14:00 US Eastern on a weekday are announced that
// evening; an evening without a mailing (arXiv's published holidays,
// config/arxiv_no_mailing.yaml) folds its submissions into the next mailing.
// docs/pipeline.md explains the rule, the open cases and the window's error.
#pragma once

#include "core/date.h"

#include <chrono>
#include <compare>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace pp {

// True when US daylight-saving time is in force at 14:00 on `day` (from the
// second Sunday of March to the first Sunday of November, the rule since 2007).
bool us_eastern_daylight_time(const Date& day);

// The date on arXiv's clock, US Eastern (America/New_York), at the instant
// `utc`: the day a run is on, as the feed flips to the next announcement at
// midnight Eastern (arXiv/arxiv-docs source/help/rss.md, "updated daily at
// midnight Eastern Standard Time"; rss_specifications.md's examples: built
// 05:00 UTC on 23 Feb 2024, and dated "00:00:00 -0400" in August, so local
// time, daylight time included). Daylight time by the US rule since 2007
// (15 U.S.C. 260a): from 02:00 EST on the second Sunday of March to 02:00
// EDT on the first Sunday of November; computed, no tz database needed.
Date arxiv_date(std::chrono::sys_seconds utc);
// Today on arXiv's clock (reads the system clock).
Date arxiv_today();

struct UtcMinute {
    Date date;
    int hour = 0;
    int minute = 0;
    auto operator<=>(const UtcMinute&) const = default;
    std::string stamp() const; // arXiv's form: "YYYYMMDDHHMM"
    std::string iso() const;   // "YYYY-MM-DDTHH:MMZ", for the log
};

// The minute before (for arXiv's inclusive ranges).
UtcMinute minute_before(const UtcMinute& time);

// 14:00 US Eastern on the last weekday before `day`, in UTC (18:00 under
// daylight time, else 19:00): the deadline of the mailing dated `day`.
UtcMinute submission_deadline(const Date& day);

// The submissions announcement day `day` holds: [from, to), between the
// deadline of the announcement before it and its own.
struct SubmissionWindow {
    UtcMinute from; // inclusive
    UtcMinute to;   // exclusive
};

// The announcement date a no-mailing evening takes away: the next day for a
// Sunday to Thursday evening; for a Friday or Saturday (evenings without a
// mailing anyway) the Monday after, whose Sunday-evening mailing arXiv skips
// (docs/pipeline.md says why).
Date announcement_lost_to(const Date& no_mailing_evening);

class ArxivCalendar {
public:
    // Weekends only: no holiday known.
    ArxivCalendar() = default;
    // `no_mailing`: evenings arXiv sends no mailing; `published_years`: the
    // years whose whole list arXiv has published (a run in another year warns).
    ArxivCalendar(const std::vector<Date>& no_mailing, std::set<int> published_years);

    // A feed or listing dated `day` exists: a weekday not lost to a no-mailing evening.
    bool is_announcement_day(const Date& day) const;
    // The announcement day before `day` / on or before `day`.
    Date previous_announcement_day(const Date& day) const;
    Date latest_announcement_day(const Date& day) const;
    // Between the deadline of the announcement before `day` and its own: a
    // no-mailing evening's submissions fall into the next real announcement.
    SubmissionWindow submission_window(const Date& day) const;
    // Why `day` has no announcement ("a Saturday", "no mailing on the evening
    // of 2025-11-27 (arXiv's holidays)"); empty when it has one.
    std::string why_no_announcement(const Date& day) const;
    // arXiv's holidays of `year` are known (built in, or in arxiv.no_mailing).
    bool knows_year(int year) const { return years_.contains(year); }

private:
    std::map<Date, Date> lost_; // announcement date -> the no-mailing evening that took it
    std::set<int> years_;
};

} // namespace pp
