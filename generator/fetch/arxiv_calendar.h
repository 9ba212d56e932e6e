// arXiv's announcement calendar: which days carry an announcement, and which
// submissions an announcement holds. A day here is an announcement's date as
// the feed and the listings give it (the mailing sent the evening before,
// US Eastern). Submissions received before 14:00 US Eastern on a weekday are
// announced that evening, dated the next weekday; a day with no mailing (a
// weekend, a holiday in the table below) folds its submissions into the
// next. docs/pipeline.md explains the window and its remaining error.
#pragma once

#include "core/date.h"

#include <compare>
#include <string>

namespace pp {

// A known arXiv holiday: a weekday with no announcement (a small dated
// table, kept in arxiv_calendar.cpp and docs/pipeline.md).
bool is_arxiv_holiday(const Date& day);

// A weekday that is not a known holiday.
bool is_announcement_day(const Date& day);

// The announcement day before `day`.
Date previous_announcement_day(const Date& day);

// True when US daylight-saving time is in force at 14:00 on `day` (from the
// second Sunday of March to the first Sunday of November, the rule since 2007).
bool us_eastern_daylight_time(const Date& day);

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
SubmissionWindow submission_window(const Date& day);

} // namespace pp
