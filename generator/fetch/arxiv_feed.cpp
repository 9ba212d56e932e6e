#include "fetch/arxiv_feed.h"

#include "core/arxiv_id.h"
#include "util/text.h"

#include <pugixml.hpp>

#include <algorithm>
#include <array>

namespace pp {

namespace {

Result<pugi::xml_document*> load_xml(pugi::xml_document& doc, std::string_view xml, const std::string& source) {
    auto parsed = doc.load_buffer(xml.data(), xml.size());
    if (!parsed) {
        int line = 1;
        for (size_t i = 0; i < static_cast<size_t>(parsed.offset) && i < xml.size(); ++i)
            if (xml[i] == '\n') ++line;
        return fail(std::string("malformed XML: ") + parsed.description(), source, line);
    }
    return &doc;
}

std::string text_of(const pugi::xml_node& node) { return node.text().get(); }

// arXiv's feed joins the authors with ", ", each "Name (Affiliation, ...)"
// (core/paper.h, split_author): commas inside parentheses are not separators.
std::vector<std::string> authors_from_creator(std::string_view creator) {
    std::vector<std::string> authors = split_top_level_commas(creator);
    // Some feeds end the list with "and Last Author".
    if (!authors.empty() && authors.back().starts_with("and ")) authors.back().erase(0, 4);
    return authors;
}

// An item's ID: from its abs link, else from its guid ("oai:arXiv.org:2501.09412v1").
std::optional<ArxivId> item_id(const pugi::xml_node& item) {
    if (auto id = parse_arxiv_id(trim(text_of(item.child("link"))))) return id;
    std::string guid = text_of(item.child("guid"));
    std::string_view id = trim(guid);
    constexpr std::string_view oai_prefix = "oai:arXiv.org:";
    if (id.starts_with(oai_prefix)) id.remove_prefix(oai_prefix.size());
    return parse_arxiv_id(id);
}

// `count` digits at `at` as a number; nothing when any is not a digit.
std::optional<int> digits(std::string_view text, size_t at, size_t count) {
    if (at + count > text.size()) return std::nullopt;
    int value = 0;
    for (char c : text.substr(at, count)) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + (c - '0');
    }
    return value;
}

} // namespace

// RFC 3339 (Atom's date construct, RFC 4287 section 3.3): a full date, "T",
// the time with seconds, an optional fraction, then "Z" or a +HH:MM offset.
std::optional<UtcMinute> parse_atom_time(std::string_view text) {
    text = trim(text);
    auto year = digits(text, 0, 4), month = digits(text, 5, 2), day = digits(text, 8, 2);
    auto hour = digits(text, 11, 2), minute = digits(text, 14, 2), second = digits(text, 17, 2);
    if (!year || !month || !day || !hour || !minute || !second || text[4] != '-' || text[7] != '-' ||
        (text[10] != 'T' && text[10] != 't') || text[13] != ':' || text[16] != ':' || *hour > 23 || *minute > 59 ||
        *second > 60)
        return std::nullopt;
    size_t at = 19;
    if (at < text.size() && text[at] == '.')
        for (++at; at < text.size() && text[at] >= '0' && text[at] <= '9';) ++at;
    std::string_view zone = text.substr(at);
    int offset = 0; // minutes east of UTC
    if (zone != "Z" && zone != "z") {
        auto zone_hour = digits(zone, 1, 2), zone_minute = digits(zone, 4, 2);
        if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' || !zone_hour || !zone_minute ||
            *zone_hour > 23 || *zone_minute > 59)
            return std::nullopt;
        offset = (zone[0] == '-' ? -1 : 1) * (*zone_hour * 60 + *zone_minute);
    }
    Date date{*year, *month, *day};
    if (!date.valid()) return std::nullopt;
    int minutes = *hour * 60 + *minute - offset; // within a day either side
    if (minutes < 0) date = previous_day(date), minutes += 24 * 60;
    if (minutes >= 24 * 60) date = next_day(date), minutes -= 24 * 60;
    return UtcMinute{date, minutes / 60, minutes % 60};
}

std::optional<Date> parse_rfc822_date(std::string_view text) {
    static const std::array<const char*, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    auto comma = text.find(',');
    if (comma != std::string_view::npos) text.remove_prefix(comma + 1);
    std::vector<std::string_view> parts;
    for (auto part : split(trim(text), ' '))
        if (!part.empty()) parts.push_back(part);
    if (parts.size() < 3) return std::nullopt;
    auto day = parse_int(parts[0]), year = parse_int(parts[2]);
    int month = 0;
    for (size_t i = 0; i < months.size(); ++i)
        if (parts[1] == months[i]) month = static_cast<int>(i) + 1;
    if (!day || !year || month == 0 || *day < 1 || *day > 31 || *year < 1 || *year > 9999) return std::nullopt;
    Date date{static_cast<int>(*year), month, static_cast<int>(*day)};
    if (!date.valid()) return std::nullopt;
    return date;
}

Result<Announcement> parse_rss_feed(std::string_view xml, const std::string& source) {
    pugi::xml_document doc;
    if (auto loaded = load_xml(doc, xml, source); !loaded) return std::unexpected(loaded.error());
    pugi::xml_node channel = doc.child("rss").child("channel");
    if (!channel) return fail("expected an RSS 2.0 document (<rss><channel>)", source, 1);
    std::string title = text_of(channel.child("title"));
    if (title.starts_with("Feed error"))
        return fail("arXiv answered with an error feed: " + excerpt(title, 200), source, 1);

    Announcement announcement;
    for (pugi::xml_node item : channel.children("item")) {
        FeedEntry entry;
        auto id = item_id(item);
        if (!id)
            return fail("expected an arXiv link or guid in every item, got " + excerpt(text_of(item.child("link"))),
                        source, 0);
        entry.paper.id = id->id;
        entry.paper.title = text_of(item.child("title"));
        entry.paper.authors = authors_from_creator(text_of(item.child("dc:creator")));
        entry.paper.abstract = std::string(strip_announce_prefix(trim(text_of(item.child("description")))));
        entry.announce_type = text_of(item.child("arxiv:announce_type"));
        for (pugi::xml_node category : item.children("category")) entry.categories.push_back(text_of(category));
        tidy_paper(entry.paper);
        announcement.entries.push_back(std::move(entry));
    }
    std::string pub_date = text_of(channel.child("pubDate"));
    if (!pub_date.empty()) {
        announcement.date = parse_rfc822_date(pub_date);
        if (!announcement.date)
            return fail("expected the channel's pubDate to be a date, got " + excerpt(pub_date), source, 0);
    }
    if (!announcement.entries.empty() && !announcement.date)
        return fail("the feed has items but no pubDate: cannot tell the announcement date", source, 0);
    return announcement;
}

Result<ApiPage> parse_api_page(std::string_view xml, const std::string& source) {
    pugi::xml_document doc;
    if (auto loaded = load_xml(doc, xml, source); !loaded) return std::unexpected(loaded.error());
    pugi::xml_node feed = doc.child("feed");
    if (!feed) return fail("expected an Atom document (<feed>)", source, 1);
    ApiPage page;
    auto total = parse_int(trim(text_of(feed.child("opensearch:totalResults"))));
    page.total_results = std::max(0LL, total.value_or(0));
    for (pugi::xml_node node : feed.children("entry")) {
        std::string title = text_of(node.child("title"));
        std::string id_text = text_of(node.child("id"));
        if (title == "Error" && id_text.find("/api/errors") != std::string::npos)
            return fail("the arXiv API reported an error: " + excerpt(trim(text_of(node.child("summary"))), 200),
                        source, 0);
        auto id = parse_arxiv_id(trim(id_text));
        if (!id) return fail("expected an arXiv abs URL in <id>, got " + excerpt(id_text), source, 0);
        FeedEntry entry;
        entry.paper.id = id->id;
        entry.paper.title = title;
        entry.paper.abstract = text_of(node.child("summary"));
        for (pugi::xml_node author : node.children("author")) {
            // In the feed's form, so a paper has the same authors from either source.
            std::vector<std::string> affiliations;
            for (pugi::xml_node affiliation : author.children("arxiv:affiliation"))
                affiliations.push_back(tidy_line(text_of(affiliation)));
            entry.paper.authors.push_back(feed_author(tidy_line(text_of(author.child("name"))), affiliations));
        }
        if (std::string published = text_of(node.child("published")); !trim(published).empty()) {
            entry.submitted = parse_atom_time(published);
            if (!entry.submitted)
                return fail("expected <published> to be a time such as 2025-05-19T17:59:59Z, got " + excerpt(published),
                            source, 0);
        }
        std::string primary = node.child("arxiv:primary_category").attribute("term").value();
        if (!primary.empty()) entry.categories.push_back(primary);
        for (pugi::xml_node category : node.children("category")) {
            std::string term = category.attribute("term").value();
            if (term != primary) entry.categories.push_back(term);
        }
        tidy_paper(entry.paper);
        page.entries.push_back(std::move(entry));
    }
    return page;
}

} // namespace pp
