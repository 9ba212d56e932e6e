// The preview server's defence against slow clients (slowloris): a client
// that sends a request a header line at a time, or reads its reply a little
// at a time, must not keep the preview's threads from everyone else.
//
// - Every request has a deadline (request_deadline: 10 s from accept, or
//   from the end of the previous reply on a kept-alive connection) for its
//   line, headers and body, and a size cap (max_request_bytes); past either,
//   the connection is closed. cpp-httplib 0.11 bounds each read (5 s) but not
//   their sum, nor the length of one line.
// - A connection is "waiting" until its whole request is in, and "stalled"
//   while its reply cannot be written because its client reads nothing.
//   When a new connection finds no idle thread, the connection that has
//   waited longest is closed, so its thread takes the newcomer; if none
//   waits, the one stalled longest; else the one that has been sending its
//   reply longest, if for more than the deadline (an event stream never:
//   those are capped apart). A connection that stalls while others wait for
//   a thread looks again. So a slow client never keeps the last worker from
//   a new connection. A kept-alive connection gives its thread up when
//   others are queued.
//
// GuardedServer is an httplib::Server whose connections are read through
// DeadlineStream; it needs its task queue to be a GuardedPool.
#pragma once

#include "util/clock.h"

#include <httplib.h>

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace pp {

// How long a client may take to send a whole request.
inline constexpr std::chrono::seconds request_deadline{10};
// The most bytes one request may send (line, headers and body): the preview
// takes no uploads, and httplib's line reader has no length limit of its own.
inline constexpr std::size_t max_request_bytes = 64 * 1024;

// The connections being served, and what each is doing: those waiting for
// their request, and those sending a reply for long, may be closed to free
// their thread; event streams (meant to last) never are.
class ConnectionTable {
public:
    void add(int socket, Clock::time_point since); // waiting for its request
    void set_waiting(int socket, Clock::time_point since);
    // Its request is in: a reply from `since` on, or a stream (meant to last).
    void set_replying(int socket, Clock::time_point since, bool stream);
    // A reply's write waits for its client to read (from `now` on), or no longer.
    void set_stalled(int socket, bool stalled, Clock::time_point now);
    void remove(int socket); // before the socket is closed
    // Makes room for a new connection: shuts down the socket (its read or
    // write fails at once) of the connection waiting longest for its request,
    // else of the one stalled longest, else of the one replying longest if
    // for more than `slow`. False when there was none.
    bool evict_for_newcomer(Clock::time_point now, Clock::duration slow);
    void evict_all(); // the server stops

private:
    enum class State { waiting, replying, stalled, streaming, evicted };
    struct Entry {
        Clock::time_point since; // waiting or replying since; stalled: since the stall
        State state = State::waiting;
        Clock::time_point replying_since; // stalled: when its reply started
    };
    bool evict_oldest(State state, Clock::time_point before);
    mutable std::mutex mutex_;
    std::map<int, Entry> entries_;
};

// httplib's thread pool, but a connection queued with no idle thread frees
// one (ConnectionTable::evict_for_newcomer).
class GuardedPool final : public httplib::TaskQueue {
public:
    GuardedPool(std::size_t threads, ConnectionTable& table, Clock& clock, Clock::duration slow);
    ~GuardedPool() override;
    void enqueue(std::function<void()> job) override; // httplib's accept loop calls it at once
    void shutdown() override;                         // closes the waiting connections, then joins
    bool has_queued() const;                          // connections wait for a thread
    void make_room();                                 // a connection may be closed now: one waits?
    // When the connection the calling worker serves was accepted.
    static Clock::time_point accepted();

private:
    struct Job {
        std::function<void()> run;
        Clock::time_point accepted;
    };
    void work();
    void make_room_if_starved();
    ConnectionTable& table_;
    Clock& clock_;
    Clock::duration slow_;
    mutable std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Job> jobs_;
    std::size_t idle_ = 0;
    std::size_t freeing_ = 0; // connections closed to make room whose thread is not back yet
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

// A connection's socket as httplib reads and writes it: reads stop at the
// request's deadline and after max_request_bytes; buffered, since httplib
// reads a request line a byte at a time.
class DeadlineStream final : public httplib::Stream {
public:
    DeadlineStream(int socket, Clock& clock, std::chrono::milliseconds io_timeout);

    // A new request: reads end at `deadline`, and the byte count starts over.
    void start_request(Clock::time_point deadline);
    // Waits up to `limit` for the next request's first byte (or a close).
    bool wait_readable(std::chrono::milliseconds limit) const;
    // Told when a write starts waiting for the client to read (true), and when it ends (false).
    void on_stall(std::function<void(bool stalled)> stalled) { stalled_ = std::move(stalled); }

    bool is_readable() const override;
    bool is_writable() const override; // waits up to the io timeout, telling on_stall
    ssize_t read(char* ptr, std::size_t size) override;
    ssize_t write(const char* ptr, std::size_t size) override;
    void get_remote_ip_and_port(std::string& ip, int& port) const override;
    void get_local_ip_and_port(std::string& ip, int& port) const override;
    socket_t socket() const override { return socket_; }
    // A read failed (the deadline passed, the size cap, a close): the
    // connection must close, whatever httplib answered.
    bool cut() const { return cut_; }

private:
    std::chrono::milliseconds read_wait() const; // the io timeout, cut at the deadline
    int socket_;
    Clock& clock_;
    std::chrono::milliseconds io_timeout_;
    Clock::time_point deadline_;
    std::size_t request_bytes_ = 0;
    bool cut_ = false;
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    std::function<void(bool)> stalled_;
};

// The socket of the connection the calling worker thread serves (-1 outside one).
int serving_socket();

class GuardedServer final : public httplib::Server {
public:
    // `setup` sees each request once its headers are in, before routing, and
    // says whether its reply is a stream meant to last (never closed to make
    // room). A reply longer than `deadline` may be closed to make room.
    GuardedServer(Clock& clock, Clock::duration deadline, std::size_t threads,
                  std::function<bool(httplib::Request&)> setup);

private:
    bool process_and_close_socket(socket_t sock) override;
    bool serve_requests(DeadlineStream& stream, int sock);

    Clock& clock_;
    Clock::duration deadline_;
    std::function<bool(httplib::Request&)> setup_;
    ConnectionTable table_;
    std::atomic<GuardedPool*> pool_{nullptr};
};

} // namespace pp
