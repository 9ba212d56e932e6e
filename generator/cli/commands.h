// The command line: parses arguments and runs one command. Exit codes:
// 0 success, 1 the command ran and found problems (bad content, failed
// import), 2 the command line itself was wrong.
#pragma once

namespace pp {

int run_cli(int argc, char** argv);

} // namespace pp
