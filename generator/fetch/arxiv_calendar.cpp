#include "fetch/arxiv_calendar.h"

#include <algorithm>
#include <array>
#include <cstdio>

namespace pp {

namespace {

// Weekdays without an announcement, from arXiv's published schedule
// (info.arxiv.org/help/availability): Christmas, New Year and Thanksgiving.
// Extend it as arXiv announces its holidays.
constexpr std::array<const char*, 10> holidays = {
    "2024-12-25", "2025-01-01", "2025-11-27", "2025-12-25", "2026-01-01",
    "2026-11-26", "2026-12-25", "2027-01-01", "2027-11-25", "2027-12-24",
};

bool weekend(const Date& day) { return day.weekday() == 0 || day.weekday() == 6; }

// The day of the month of the `nth` Sunday of `month`.
int nth_sunday(int year, int month, int nth) {
    int first_weekday = Date{year, month, 1}.weekday();
    return 1 + (7 - first_weekday) % 7 + 7 * (nth - 1);
}

} // namespace

bool is_arxiv_holiday(const Date& day) {
    const std::string iso = day.iso();
    return std::ranges::any_of(holidays, [&](const char* holiday) { return iso == holiday; });
}

bool is_announcement_day(const Date& day) { return !weekend(day) && !is_arxiv_holiday(day); }

Date previous_announcement_day(const Date& day) {
    Date before = previous_day(day);
    while (!is_announcement_day(before)) before = previous_day(before);
    return before;
}

bool us_eastern_daylight_time(const Date& day) {
    if (day.month > 3 && day.month < 11) return true;
    if (day.month == 3) return day.day >= nth_sunday(day.year, 3, 2);
    if (day.month == 11) return day.day < nth_sunday(day.year, 11, 1);
    return false;
}

std::string UtcMinute::stamp() const {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d%02d%02d%02d%02d", date.year, date.month, date.day, hour, minute);
    return buffer;
}

std::string UtcMinute::iso() const {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "T%02d:%02dZ", hour, minute);
    return date.iso() + buffer;
}

UtcMinute minute_before(const UtcMinute& time) {
    if (time.minute > 0) return {time.date, time.hour, time.minute - 1};
    if (time.hour > 0) return {time.date, time.hour - 1, 59};
    return {previous_day(time.date), 23, 59};
}

UtcMinute submission_deadline(const Date& day) {
    Date deadline_day = previous_day(day);
    while (weekend(deadline_day)) deadline_day = previous_day(deadline_day);
    // 14:00 EDT is UTC-4, 14:00 EST UTC-5.
    return {deadline_day, us_eastern_daylight_time(deadline_day) ? 18 : 19, 0};
}

SubmissionWindow submission_window(const Date& day) {
    return {submission_deadline(previous_announcement_day(day)), submission_deadline(day)};
}

} // namespace pp
