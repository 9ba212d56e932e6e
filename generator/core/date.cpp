#include "core/date.h"

#include "util/text.h"

#include <cstdio>
#include <ctime>

namespace pp {

std::string Date::iso() const {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", year, month, day);
    return buffer;
}

int Date::days_in_month(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12) return 0;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m - 1] + (m == 2 && leap ? 1 : 0);
}

bool Date::valid() const {
    return year >= 1900 && year <= 9999 && day >= 1 && day <= days_in_month(year, month);
}

int Date::weekday() const {
    // Sakamoto's method.
    static const int offsets[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    int y = month < 3 ? year - 1 : year;
    return (y + y / 4 - y / 100 + y / 400 + offsets[month - 1] + day) % 7;
}

static bool all_digits(std::string_view s) {
    if (s.empty()) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

std::optional<Date> parse_iso_date(std::string_view text) {
    if (text.size() != 10 || text[4] != '-' || text[7] != '-') return std::nullopt;
    auto y = text.substr(0, 4), m = text.substr(5, 2), d = text.substr(8, 2);
    if (!all_digits(y) || !all_digits(m) || !all_digits(d)) return std::nullopt;
    Date date{static_cast<int>(*parse_int(y)), static_cast<int>(*parse_int(m)),
              static_cast<int>(*parse_int(d))};
    if (!date.valid()) return std::nullopt;
    return date;
}

std::optional<Date> parse_us_date(std::string_view text) {
    auto parts = split(text, '/');
    if (parts.size() != 3) return std::nullopt;
    for (auto p : parts)
        if (!all_digits(p) || p.size() > 4) return std::nullopt;
    if (parts[2].size() != 4) return std::nullopt;
    Date date{static_cast<int>(*parse_int(parts[2])), static_cast<int>(*parse_int(parts[0])),
              static_cast<int>(*parse_int(parts[1]))};
    if (!date.valid()) return std::nullopt;
    return date;
}

} // namespace pp

namespace pp {

Date previous_day(const Date& date) {
    Date d = date;
    if (--d.day >= 1) return d;
    if (--d.month < 1) {
        d.month = 12;
        --d.year;
    }
    d.day = Date::days_in_month(d.year, d.month);
    return d;
}

Date next_day(const Date& date) {
    Date d = date;
    if (++d.day <= Date::days_in_month(d.year, d.month)) return d;
    d.day = 1;
    if (++d.month > 12) {
        d.month = 1;
        ++d.year;
    }
    return d;
}

} // namespace pp

namespace pp {

Date today_utc() {
    std::time_t now = std::time(nullptr);
    std::tm utc{};
    gmtime_r(&now, &utc);
    return Date{utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday};
}

} // namespace pp
