#include "core/date.h"

#include "util/text.h"

#include <array>
#include <cstdio>
#include <ctime>

namespace pp {

std::string Date::iso() const {
    // By hand: a build formats each day's date several times (paths, links,
    // the sitemap), and snprintf took a twentieth of a nightly build.
    if (year < 0 || year > 9999 || month < 0 || month > 99 || day < 0 || day > 99) {
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%04d-%02d-%02d", year, month, day);
        return buffer;
    }
    std::string out = "0000-00-00";
    auto put = [&](std::size_t end, int value) {
        for (std::size_t i = end; value > 0; value /= 10) out[--i] = static_cast<char>('0' + value % 10);
    };
    put(4, year);
    put(7, month);
    put(10, day);
    return out;
}

int Date::days_in_month(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (m < 1 || m > 12) return 0;
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    return days[m - 1] + (m == 2 && leap ? 1 : 0);
}

bool Date::valid() const { return year >= 1900 && year <= 9999 && day >= 1 && day <= days_in_month(year, month); }

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
    Date date{static_cast<int>(*parse_int(y)), static_cast<int>(*parse_int(m)), static_cast<int>(*parse_int(d))};
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

std::string month_name(int month) {
    static constexpr std::array<const char*, 12> names = {"January",   "February", "March",    "April",
                                                          "May",       "June",     "July",     "August",
                                                          "September", "October",  "November", "December"};
    return month >= 1 && month <= 12 ? names[static_cast<std::size_t>(month - 1)] : "?";
}

std::string weekday_name(int weekday) {
    static constexpr std::array<const char*, 7> names = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                         "Thursday", "Friday", "Saturday"};
    return weekday >= 0 && weekday <= 6 ? names[static_cast<std::size_t>(weekday)] : "?";
}

std::string long_date(const Date& date) {
    return weekday_name(date.weekday()) + ", " + std::to_string(date.day) + " " + month_name(date.month) + " " +
           std::to_string(date.year);
}

} // namespace pp
