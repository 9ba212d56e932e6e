#include "site/builder.h"

namespace pp {

std::string build_summary(const BuildReport& report, const fs::path& out, long long ms) {
    std::string line = "build: " + std::to_string(report.days) + " days, " + std::to_string(report.papers) +
                       " papers, " + std::to_string(report.files) + " files into " + out.string() + " (" +
                       std::to_string(report.written) + " written, " + std::to_string(report.files - report.written) +
                       " unchanged, " + std::to_string(report.removed) + " removed; " +
                       std::to_string(report.rendered) + " rendered, " + std::to_string(report.parsed) +
                       " days parsed)";
    if (ms >= 0) line += " in " + std::to_string(ms) + " ms";
    if (!report.errors.empty()) line += "; " + std::to_string(report.errors.size()) + " errors";
    return line;
}

} // namespace pp
