// `serve`: the local preview.
#include "cli/cli_common.h"

#include "notify/channel.h"
#include "serve/serve.h"

#include <iostream>

namespace pp::cli {

int cmd_serve(const GlobalOptions& global, bool config_given, const ServeArgs& args) {
    ServeOptions options;
    options.content_dir = global.content;
    options.config_path = global.config;
    options.load_config = [&global, config_given] { return load_checked_config(global.config, config_given); };
    options.out_dir = args.out;
    options.host = args.host;
    options.port = args.port;
    options.watch = !args.no_watch;
    options.jobs = args.jobs;
    if (args.poll_ms > 0) options.poll_interval = std::chrono::milliseconds(args.poll_ms); // else inotify
    options.log = [](const std::string& line) { std::cout << line << std::endl; };
    options.log_error = [](const std::string& line) { std::cerr << line << std::endl; };
    return run_serve(options);
}

} // namespace pp::cli
