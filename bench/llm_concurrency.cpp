// Benchmark: scoring 500 papers against an OpenAI-compatible endpoint that
// takes 1 s per request (a real HTTP server on loopback), with 8 requests
// at once against 1. Prints both wall times and the speed-up ratio.
//
//   ./build/bench/bench_llm_concurrency [papers=500] [latency_ms=1000]
#include "score/llm_scorer.h"

#include <httplib.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

using namespace pp;

namespace {

// Answers every ID it is asked about, after `latency`.
void serve(httplib::Server& server, std::chrono::milliseconds latency) {
    server.Post("/v1/chat/completions", [latency](const httplib::Request& req, httplib::Response& res) {
        std::this_thread::sleep_for(latency);
        std::string lines;
        for (size_t pos = req.body.find("ArXiv ID: "); pos != std::string::npos;
             pos = req.body.find("ArXiv ID: ", pos + 1)) {
            std::string id = req.body.substr(pos + 10, 10);
            lines += "{\\\"ARXIVID\\\": \\\"" + id +
                     "\\\", \\\"RELEVANCE\\\": 8, \\\"NOVELTY\\\": 7, \\\"COMMENT\\\": \\\"ok\\\"}\\n";
        }
        res.set_content("{\"choices\": [{\"message\": {\"content\": \"" + lines +
                            "\"}}], \"usage\": {\"prompt_tokens\": 1000, \"completion_tokens\": 100}}",
                        "application/json");
    });
}

double seconds_to_score(const std::vector<Paper>& papers, const std::string& base_url, int concurrency) {
    LlmScorerOptions options;
    options.settings.batch_size = 10;
    options.settings.concurrency = concurrency;
    options.settings.requests_per_minute = 0;
    options.endpoint = LlmEndpoint{base_url, "", "bench-model", std::nullopt, 0};
    PromptSet prompts{"system", "topics", "criteria", "postfix", "titles"};
    auto start = std::chrono::steady_clock::now();
    LlmScoring result = score_with_llm(papers, prompts, options, nullptr);
    double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (result.scores.size() != papers.size()) {
        std::fprintf(stderr, "only %zu of %zu papers were scored\n", result.scores.size(), papers.size());
        std::exit(1);
    }
    return elapsed;
}

} // namespace

int main(int argc, char** argv) {
    int count = argc > 1 ? std::atoi(argv[1]) : 500;
    auto latency = std::chrono::milliseconds(argc > 2 ? std::atoi(argv[2]) : 1000);
    httplib::Server server;
    server.new_task_queue = [] { return new httplib::ThreadPool(16); };
    serve(server, latency);
    int port = server.bind_to_any_port("127.0.0.1");
    std::thread thread([&] { server.listen_after_bind(); });
    std::string base_url = "http://127.0.0.1:" + std::to_string(port) + "/v1";

    std::vector<Paper> papers;
    for (int i = 0; i < count; ++i) {
        Paper p;
        p.id = "2505." + std::to_string(10000 + i);
        p.title = "Paper " + std::to_string(i);
        p.abstract = "An abstract.";
        papers.push_back(p);
    }
    std::printf("scoring %d papers in batches of 10, %lld ms per request\n", count,
                static_cast<long long>(latency.count()));
    double eight = seconds_to_score(papers, base_url, 8);
    std::printf("concurrency 8: %.2f s\n", eight);
    double one = seconds_to_score(papers, base_url, 1);
    std::printf("concurrency 1: %.2f s\n", one);
    std::printf("speed-up (1 / 8): %.2fx\n", one / eight);
    server.stop();
    thread.join();
    return 0;
}
