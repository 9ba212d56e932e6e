// Where each page lives. A page has a site path relative to the site root
// ("2025/05/20/"); links in HTML are that path under the base URL's path
// ("/repo/2025/05/20/"), feeds and the sitemap use the full absolute URL.
#pragma once

#include "core/date.h"

#include <string>
#include <string_view>

namespace pp {

// Site paths of each page kind (no leading slash; "" is the home page).
std::string home_path();
std::string day_path_of(const Date& date);        // "2025/05/20/"
std::string month_path_of(int year, int month);   // "2025/05/"
std::string year_path_of(int year);               // "2025/"
std::string archive_path();                       // "archive/"
std::string not_found_path();                     // "404.html"
std::string feed_path();                          // "feed.xml"
std::string sitemap_path();                       // "sitemap.xml"
std::string data_index_path();                    // "data/index.json"
std::string day_data_path(const Date& date);      // "data/days/2025-05-20.json"
std::string month_data_name(int year, int month); // "2025-05"
std::string month_data_path(int year, int month); // "data/2025-05.json.gz"
std::string search_page_path();                   // "search/"
// The page of a day file's prompt reference: "prompts/<name>.md" -> "prompts/<name>/"
// when <name> is letters, digits, '-' and '_'; else named by the reference's hash.
std::string prompt_path_of(std::string_view reference);

// The file under the output folder that serves a site path:
// "2025/05/20/" -> "2025/05/20/index.html", "feed.xml" -> "feed.xml".
std::string output_file_of(std::string_view site_path);

class SiteUrls {
public:
    // `base_url` ends with '/': "https://user.github.io/repo/", "/repo/" or "/".
    explicit SiteUrls(std::string base_url);

    const std::string& base_url() const { return base_url_; }   // as configured
    const std::string& base_path() const { return base_path_; } // "/repo/"

    std::string href(std::string_view site_path) const { return base_path_ + std::string(site_path); }
    std::string absolute(std::string_view site_path) const { return base_url_ + std::string(site_path); }

private:
    std::string base_url_;
    std::string base_path_;
};

} // namespace pp
