// A calendar date (no time zone: arXiv announcement days are named dates).
#pragma once

#include <compare>
#include <optional>
#include <string>
#include <string_view>

namespace pp {

struct Date {
    int year = 1970;
    int month = 1;
    int day = 1;

    auto operator<=>(const Date&) const = default;

    std::string iso() const; // "2025-05-20"
    int weekday() const;     // 0 = Sunday … 6 = Saturday
    static int days_in_month(int year, int month);
    bool valid() const;
};

// "2025-05-20" only; anything else (and 2025-02-30) is rejected.
std::optional<Date> parse_iso_date(std::string_view text);

// The US form of the reference system's headers: "01/17/2025", "3/25/2025".
std::optional<Date> parse_us_date(std::string_view text);

} // namespace pp

namespace pp {

// The day before / after, across months and years.
Date previous_day(const Date& date);
Date next_day(const Date& date);

// English names, as pages, feeds and messages show them: "May", "Tuesday"
// ("?" out of range). Their first three letters are the short forms.
std::string month_name(int month);       // 1 … 12
std::string weekday_name(int weekday);   // 0 = Sunday … 6
std::string long_date(const Date& date); // "Tuesday, 20 May 2025"

} // namespace pp
