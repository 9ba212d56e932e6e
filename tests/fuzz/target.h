// A fuzz target: a function of one input that must never crash, hang or
// leak, whatever the bytes. Each file in targets/ defines one with
// PAPERPRESS_FUZZ_TARGET(name). It is built twice: as its own libFuzzer
// binary fuzz_<name> (option PAPERPRESS_FUZZ), and into the unit tests,
// which run every file under regressions/<name>/ through it, so an input
// that once crashed stays a test.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace pp::fuzz {

using Target = void (*)(std::string_view input);

// Every target linked into this program, by name.
std::map<std::string, Target>& targets();

struct Registration {
    Registration(const char* name, Target target) { targets()[name] = target; }
};

} // namespace pp::fuzz

#define PAPERPRESS_FUZZ_TARGET(name)                                                                                   \
    static void fuzz_##name(std::string_view input);                                                                   \
    static const ::pp::fuzz::Registration fuzz_registration_##name(#name, &fuzz_##name);                               \
    static void fuzz_##name(std::string_view input)
