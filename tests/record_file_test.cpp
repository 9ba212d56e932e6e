// util/record_file.h: the format of the program's own state and cache files.
#include "util/record_file.h"

#include <doctest/doctest.h>

using namespace pp;

namespace {

const RecordFormat format{
    .name = "test records", .version = 2, .kinds = {{'A', {"name", "count", "tags*"}}, {'B', {"hash"}}}};

std::string write(const RecordFormat& with, const std::function<void(RecordWriter&)>& records) {
    std::string out;
    RecordWriter writer(with, [&](std::string_view bytes) { out += bytes; });
    records(writer);
    writer.finish();
    return out;
}

std::string two_records() {
    return write(format, [](RecordWriter& w) {
        w.begin('A');
        w.text("tab\there, newline\nthere, back\\slash");
        w.number(42);
        w.text("x");
        w.text("y\tz");
        w.end();
        w.begin('B');
        w.hex(0xfeedULL);
        w.end();
    });
}

// The records of `bytes`, or the error as text.
std::string read_all(std::string_view bytes, const RecordFormat& with = format) {
    auto reader = RecordReader::open(bytes, with, "f");
    if (!reader) return reader.error().to_string();
    std::string seen;
    for (;;) {
        auto record = reader->next();
        if (!record) return record.error().to_string();
        if (!*record) return seen;
        const Record& r = **record;
        seen +=
            r.kind == 0 ? "A " + r.text(0) + " " + std::string(r.raw(1)) + " [" : "B " + std::string(r.raw(0)) + " [";
        for (auto tag : r.list()) seen += unescape_value(tag) + ";";
        seen += "]\n";
    }
}

} // namespace

TEST_CASE("record file: what is written reads back, escapes and the list field included") {
    const std::string bytes = two_records();
    CHECK(bytes.starts_with("test records 2\n#A\tname\tcount\ttags*\n#B\thash\n"));
    CHECK(read_all(bytes) == "A tab\there, newline\nthere, back\\slash 42 [x;y\tz;]\nB 000000000000feed []\n");
    CHECK(two_records() == bytes); // the same records, the same bytes
}

TEST_CASE(
    "record file: another version, another format, a cut or a changed byte is an error naming what was expected") {
    const std::string bytes = two_records();
    RecordFormat newer = format;
    newer.version = 3;
    CHECK(read_all(bytes, newer) == "f:1: expected version 3 of the test records format, found version '2'");
    CHECK(read_all("paperpress build state 3\nP\t1\n") ==
          "f:1: expected a test records file ('test records 2' on its first line)");
    CHECK(read_all("") == "f:1: expected a test records file ('test records 2' on its first line)");
    for (std::size_t cut = 16; cut < bytes.size(); cut += 7) CHECK(read_all(bytes.substr(0, cut)).starts_with("f:"));
    std::string changed = bytes;
    changed[bytes.find("42")] = '3';
    CHECK(read_all(changed) == "f: expected the bytes its checksum sums (the file is damaged)");
}

TEST_CASE("record file: fields are found by name; a field it needs and lacks, or an unknown record line, is an error") {
    RecordFormat more = format; // a newer writer: a field added in the middle, a kind added
    more.kinds = {{'A', {"name", "added", "count", "tags*"}}, {'B', {"hash"}}, {'Z', {"anything"}}};
    const std::string newer = write(more, [](RecordWriter& w) {
        w.begin('A');
        w.text("n");
        w.text("ignored");
        w.number(7);
        w.end();
        w.begin('Z');
        w.text("skipped");
        w.end();
    });
    CHECK(read_all(newer) == "A n 7 []\n");
    RecordFormat fewer = format; // an older writer, without 'count'
    fewer.kinds = {{'A', {"name", "tags*"}}, {'B', {"hash"}}};
    CHECK(read_all(write(fewer, [](RecordWriter&) {})) == "f:2: expected the field 'count' in record kind 'A'");
    const std::string stray = "test records 2\n#A\tname\tcount\ttags*\nQ\tx\n";
    CHECK(read_all(stray + "C\t" + hex64(hash_bytes(stray)) + "\n") == "f:3: expected a record of a kind named above");
    const std::string short_line = "test records 2\n#A\tname\tcount\ttags*\nA\tonly a name\n";
    CHECK(read_all(short_line + "C\t" + hex64(hash_bytes(short_line)) + "\n") ==
          "f:3: expected a value for each field of record kind 'A'");
}

TEST_CASE("record file: lines and values are bounded") {
    RecordFormat small = format;
    small.max_line = 64;
    small.max_values = 3;
    const std::string long_line = write(small, [](RecordWriter& w) {
        w.begin('A');
        w.text(std::string(100, 'x'));
        w.number(1);
        w.end();
    });
    CHECK(read_all(long_line, small) == "f:4: expected a line of at most 64 bytes");
    const std::string many = write(small, [](RecordWriter& w) {
        w.begin('A');
        for (int i = 0; i < 5; ++i) w.number(i);
        w.end();
    });
    CHECK(read_all(many, small) == "f:4: expected at most 3 values a line");
}
