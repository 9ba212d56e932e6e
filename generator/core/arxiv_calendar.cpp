#include "core/arxiv_calendar.h"

#include <cstdio>

namespace pp {

namespace {

bool weekend(const Date& day) { return day.weekday() == 0 || day.weekday() == 6; }

// The day of the month of the `nth` Sunday of `month`.
int nth_sunday(int year, int month, int nth) {
    int first_weekday = Date{year, month, 1}.weekday();
    return 1 + (7 - first_weekday) % 7 + 7 * (nth - 1);
}

} // namespace

bool us_eastern_daylight_time(const Date& day) {
    if (day.month > 3 && day.month < 11) return true;
    if (day.month == 3) return day.day >= nth_sunday(day.year, 3, 2);
    if (day.month == 11) return day.day < nth_sunday(day.year, 11, 1);
    return false;
}

Date arxiv_date(std::chrono::sys_seconds utc) {
    using namespace std::chrono;
    const sys_seconds standard = utc - hours(5); // the wall clock under EST (UTC-5)
    const int y = static_cast<int>(year_month_day(floor<days>(standard)).year());
    // In EST: daylight time begins at 02:00 and ends at 02:00 EDT, which is 01:00 EST.
    const sys_seconds begins = sys_days(year(y) / March / Sunday[2]) + hours(2);
    const sys_seconds ends = sys_days(year(y) / November / Sunday[1]) + hours(1);
    const sys_seconds local = standard >= begins && standard < ends ? standard + hours(1) : standard;
    const year_month_day date(floor<days>(local));
    return {static_cast<int>(date.year()), static_cast<int>(static_cast<unsigned>(date.month())),
            static_cast<int>(static_cast<unsigned>(date.day()))};
}

Date arxiv_today() { return arxiv_date(std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now())); }

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

Date announcement_lost_to(const Date& evening) {
    Date day = next_day(evening);
    while (weekend(day)) day = next_day(day);
    return day;
}

ArxivCalendar::ArxivCalendar(const std::vector<Date>& no_mailing, std::set<int> published_years)
    : years_(std::move(published_years)) {
    for (const Date& evening : no_mailing) lost_.emplace(announcement_lost_to(evening), evening);
}

bool ArxivCalendar::is_announcement_day(const Date& day) const { return !weekend(day) && !lost_.contains(day); }

Date ArxivCalendar::previous_announcement_day(const Date& day) const {
    Date before = previous_day(day);
    while (!is_announcement_day(before)) before = previous_day(before);
    return before;
}

Date ArxivCalendar::latest_announcement_day(const Date& day) const {
    return is_announcement_day(day) ? day : previous_announcement_day(day);
}

SubmissionWindow ArxivCalendar::submission_window(const Date& day) const {
    return {submission_deadline(previous_announcement_day(day)), submission_deadline(day)};
}

std::string ArxivCalendar::why_no_announcement(const Date& day) const {
    if (weekend(day)) return "a " + weekday_name(day.weekday());
    if (auto lost = lost_.find(day); lost != lost_.end())
        return "no mailing on the evening of " + weekday_name(lost->second.weekday()) + " " + lost->second.iso() +
               " (arXiv's holidays)";
    return {};
}

} // namespace pp
