// Error values in the style of LevelDB's Status: every fallible function
// returns Result<T>, and an Error names where the problem is (file, line)
// and what was expected, so a person can fix the input.
#pragma once

#include <expected>
#include <string>

namespace pp {

// What kind of failure an Error is: code decides by this (retry, stop, fall
// back), never by the message, which is for people.
enum class ErrorKind {
    invalid,   // the input is not what was expected (the default: most errors are about input)
    io,        // the file system refused
    network,   // no answer: DNS, connection refused or reset, TLS
    timeout,   // an answer did not come in time (the request may have reached the peer)
    http,      // the peer answered with a non-2xx status (Error::http_status)
    too_large, // a reply went past its cap
    refused,   // a policy of ours refused it (a redirect to another origin, a missing library)
};

struct Error {
    std::string file;    // empty when the error is not about a file
    int line = 0;        // 1-based; 0 when no line applies
    std::string message; // what was wrong, phrased as what was expected
    ErrorKind kind = ErrorKind::invalid;
    long http_status = 0; // with ErrorKind::http

    std::string to_string() const; // "file:line: message"
};

template <class T>
using Result = std::expected<T, Error>;

inline std::unexpected<Error> fail(std::string message, std::string file = {}, int line = 0) {
    return std::unexpected(Error{std::move(file), line, std::move(message)});
}

// An error of a kind other than `invalid`, about no file.
inline std::unexpected<Error> fail_as(ErrorKind kind, std::string message) {
    return std::unexpected(Error{{}, 0, std::move(message), kind});
}

// Fills in the file of an error raised by code that only saw text.
inline Error in_file(Error e, const std::string& file) {
    if (e.file.empty()) e.file = file;
    return e;
}

} // namespace pp
