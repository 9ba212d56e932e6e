#include "site/urls.h"

#include "util/hash.h"

#include <algorithm>
#include <cstdio>

namespace pp {

std::string home_path() { return {}; }
std::string day_path_of(const Date& date) {
    std::string path = date.iso() + "/"; // "2025-05-20/" -> "2025/05/20/"
    path[4] = path[7] = '/';
    return path;
}

std::string month_path_of(int year, int month) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%04d/%02d/", year, month);
    return buffer;
}

std::string year_path_of(int year) {
    char buffer[16];
    std::snprintf(buffer, sizeof buffer, "%04d/", year);
    return buffer;
}
std::string archive_path() { return "archive/"; }
std::string not_found_path() { return "404.html"; }
std::string feed_path() { return "feed.xml"; }
std::string sitemap_path() { return "sitemap.xml"; }
std::string data_index_path() { return "data/index.json"; }
std::string day_data_path(const Date& date) { return "data/days/" + date.iso() + ".json"; }
std::string month_data_name(int year, int month) { return Date{year, month, 1}.iso().substr(0, 7); }
std::string month_data_path(int year, int month) { return "data/" + month_data_name(year, month) + ".json"; }
std::string search_page_path() { return "search/"; }

std::string prompt_path_of(std::string_view reference) {
    std::string_view name = reference.substr(reference.rfind('/') + 1);
    if (name.ends_with(".md")) name.remove_suffix(3);
    const bool plain = !name.empty() && name.size() <= 64 && std::all_of(name.begin(), name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    });
    return "prompts/" + (plain ? std::string(name) : hash_hex(reference)) + "/";
}

std::string output_file_of(std::string_view site_path) {
    std::string file(site_path);
    if (file.empty() || file.back() == '/') file += "index.html";
    return file;
}

namespace {

// The path part of a base URL: "https://host/repo/" -> "/repo/".
std::string path_of(const std::string& url) {
    std::string path = url;
    if (auto scheme = url.find("://"); scheme != std::string::npos) {
        auto slash = url.find('/', scheme + 3);
        path = slash == std::string::npos ? "/" : url.substr(slash);
    } else if (url.starts_with("//")) {
        auto slash = url.find('/', 2);
        path = slash == std::string::npos ? "/" : url.substr(slash);
    }
    if (!path.starts_with('/')) path.insert(0, 1, '/');
    if (!path.ends_with('/')) path += '/';
    return path;
}

} // namespace

SiteUrls::SiteUrls(std::string base_url) : base_url_(std::move(base_url)) {
    if (base_url_.empty() || base_url_.back() != '/') base_url_ += '/';
    base_path_ = path_of(base_url_);
}

} // namespace pp
