#include "serve/request_guard.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace pp {

namespace {

// Waits up to `limit` for `events` on `socket`; true when they (or a
// hang-up, which the next read or write reports) came.
bool wait_for(int socket, short events, std::chrono::milliseconds limit) {
    pollfd entry{socket, events, 0};
    const int timeout = static_cast<int>(std::max<std::chrono::milliseconds::rep>(limit.count(), 0));
    for (;;) {
        const int ready = ::poll(&entry, 1, timeout);
        if (ready < 0 && errno == EINTR) continue; // restarts the whole wait; a signal is rare here
        return ready > 0;
    }
}

// The accept time and the socket of the connection this worker thread serves.
thread_local Clock::time_point serving_since;
thread_local int serving_fd = -1;

void address_text(const sockaddr_storage& address, std::string& ip, int& port) {
    char text[INET6_ADDRSTRLEN] = {};
    if (address.ss_family == AF_INET) {
        const auto& v4 = reinterpret_cast<const sockaddr_in&>(address);
        ::inet_ntop(AF_INET, &v4.sin_addr, text, sizeof text);
        port = ntohs(v4.sin_port);
    } else if (address.ss_family == AF_INET6) {
        const auto& v6 = reinterpret_cast<const sockaddr_in6&>(address);
        ::inet_ntop(AF_INET6, &v6.sin6_addr, text, sizeof text);
        port = ntohs(v6.sin6_port);
    }
    ip = text;
}

} // namespace

void ConnectionTable::add(int socket, Clock::time_point since) {
    std::lock_guard lock(mutex_);
    entries_[socket] = Entry{since, State::waiting, {}};
}

void ConnectionTable::set_waiting(int socket, Clock::time_point since) { add(socket, since); }

void ConnectionTable::set_replying(int socket, Clock::time_point since, bool stream) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(socket);
    if (it != entries_.end() && it->second.state != State::evicted)
        it->second = Entry{since, stream ? State::streaming : State::replying, {}};
}

void ConnectionTable::remove(int socket) {
    std::lock_guard lock(mutex_);
    entries_.erase(socket);
}

void ConnectionTable::set_stalled(int socket, bool stalled, Clock::time_point now) {
    std::lock_guard lock(mutex_);
    auto it = entries_.find(socket);
    if (it == entries_.end()) return;
    Entry& entry = it->second;
    if (stalled && entry.state == State::replying) entry = Entry{now, State::stalled, entry.since};
    else if (!stalled && entry.state == State::stalled) entry = Entry{entry.replying_since, State::replying, {}};
}

bool ConnectionTable::evict_oldest(State state, Clock::time_point before) {
    auto oldest = entries_.end();
    for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->second.state == state && it->second.since <= before &&
            (oldest == entries_.end() || it->second.since < oldest->second.since))
            oldest = it;
    if (oldest == entries_.end()) return false;
    // Under the lock: the socket cannot be closed (and its number reused) meanwhile.
    ::shutdown(oldest->first, SHUT_RDWR);
    oldest->second.state = State::evicted;
    return true;
}

bool ConnectionTable::evict_for_newcomer(Clock::time_point now, Clock::duration slow) {
    std::lock_guard lock(mutex_);
    return evict_oldest(State::waiting, Clock::time_point::max()) ||
           evict_oldest(State::stalled, Clock::time_point::max()) || evict_oldest(State::replying, now - slow);
}

void ConnectionTable::evict_all() {
    std::lock_guard lock(mutex_);
    for (auto& [socket, entry] : entries_) {
        if (entry.state != State::evicted) ::shutdown(socket, SHUT_RDWR);
        entry.state = State::evicted;
    }
}

GuardedPool::GuardedPool(std::size_t threads, ConnectionTable& table, Clock& clock, Clock::duration slow)
    : table_(table), clock_(clock), slow_(slow), idle_(threads) { // a thread not started yet is idle too
    for (std::size_t i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

GuardedPool::~GuardedPool() { shutdown(); }

void GuardedPool::enqueue(std::function<void()> job) {
    {
        std::lock_guard lock(mutex_);
        jobs_.push_back(Job{std::move(job), clock_.now()});
        make_room_if_starved();
    }
    ready_.notify_one();
}

bool GuardedPool::has_queued() const {
    std::lock_guard lock(mutex_);
    return jobs_.size() > idle_ + freeing_;
}

void GuardedPool::make_room() {
    std::lock_guard lock(mutex_);
    make_room_if_starved();
}

void GuardedPool::shutdown() {
    {
        std::lock_guard lock(mutex_);
        if (stopping_ && threads_.empty()) return;
        stopping_ = true;
    }
    ready_.notify_all();
    table_.evict_all(); // a slow client must not hold up the stop
    for (auto& thread : threads_) thread.join();
    threads_.clear();
}

Clock::time_point GuardedPool::accepted() { return serving_since; }

// Under mutex_: a connection is decided for eviction only while it is still
// true that more connections wait than threads are idle or being freed (a
// newcomer a worker has just taken must not be closed for a stale count).
void GuardedPool::make_room_if_starved() {
    if (jobs_.size() > idle_ + freeing_ && table_.evict_for_newcomer(clock_.now(), slow_)) ++freeing_;
}

void GuardedPool::work() {
    std::unique_lock lock(mutex_);
    for (;;) {
        ready_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
        if (jobs_.empty()) return; // stopping
        Job job = std::move(jobs_.front());
        jobs_.pop_front();
        --idle_;
        make_room_if_starved();
        lock.unlock();
        serving_since = job.accepted; // a connection queued for long has less time left
        job.run();
        lock.lock();
        ++idle_;
        if (freeing_ > 0) --freeing_; // a thread is back (perhaps not the one freed: a count is enough)
    }
}

DeadlineStream::DeadlineStream(int socket, Clock& clock, std::chrono::milliseconds io_timeout)
    : socket_(socket), clock_(clock), io_timeout_(io_timeout), deadline_(clock.now()), buffer_(4096) {}

void DeadlineStream::start_request(Clock::time_point deadline) {
    deadline_ = deadline;
    request_bytes_ = end_ - begin_; // a pipelined request already read counts
}

std::chrono::milliseconds DeadlineStream::read_wait() const {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline_ - clock_.now());
    return std::min(left, io_timeout_);
}

bool DeadlineStream::wait_readable(std::chrono::milliseconds limit) const {
    return begin_ < end_ || wait_for(socket_, POLLIN, limit);
}

bool DeadlineStream::is_readable() const {
    const auto wait = read_wait();
    return wait.count() > 0 && wait_for(socket_, POLLIN, wait);
}

bool DeadlineStream::is_writable() const {
    if (wait_for(socket_, POLLOUT, std::chrono::milliseconds(0))) return true;
    // The client reads nothing for now: while the write waits, a newcomer may take this thread.
    if (stalled_) stalled_(true);
    const bool ready = wait_for(socket_, POLLOUT, io_timeout_);
    if (stalled_) stalled_(false);
    return ready;
}

ssize_t DeadlineStream::read(char* ptr, std::size_t size) {
    if (begin_ == end_) {
        // A failed read ends the connection: httplib would answer 400 and read
        // the rest of a slow request as the next one, with a new deadline.
        if (request_bytes_ >= max_request_bytes || !is_readable()) {
            cut_ = true;
            return -1;
        }
        const ssize_t got = ::recv(socket_, buffer_.data(), buffer_.size(), 0);
        if (got <= 0) {
            cut_ = true;
            return got;
        }
        begin_ = 0;
        end_ = static_cast<std::size_t>(got);
        request_bytes_ += end_;
    }
    const std::size_t n = std::min(size, end_ - begin_);
    std::memcpy(ptr, buffer_.data() + begin_, n);
    begin_ += n;
    return static_cast<ssize_t>(n);
}

ssize_t DeadlineStream::write(const char* ptr, std::size_t size) {
    // Not blocking in send(): a client that stops reading is seen by is_writable (httplib sends the rest).
    for (;;) {
        if (!is_writable()) return -1;
        const ssize_t sent = ::send(socket_, ptr, size, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (sent >= 0 || (errno != EAGAIN && errno != EWOULDBLOCK)) return sent;
    }
}

void DeadlineStream::get_remote_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getpeername(socket_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_text(address, ip, port);
}

void DeadlineStream::get_local_ip_and_port(std::string& ip, int& port) const {
    sockaddr_storage address{};
    socklen_t length = sizeof address;
    if (::getsockname(socket_, reinterpret_cast<sockaddr*>(&address), &length) == 0) address_text(address, ip, port);
}

GuardedServer::GuardedServer(Clock& clock, Clock::duration deadline, std::size_t threads,
                             std::function<bool(httplib::Request&)> setup)
    : clock_(clock), deadline_(deadline), setup_(std::move(setup)) {
    new_task_queue = [this, threads] {
        auto* pool = new GuardedPool(threads, table_, clock_, deadline_);
        pool_ = pool;
        return pool;
    };
    set_payload_max_length(max_request_bytes);
}

bool GuardedServer::serve_requests(DeadlineStream& stream, int sock) {
    bool ok = true;
    const std::size_t most = std::max<std::size_t>(keep_alive_max_count_, 1);
    for (std::size_t count = most; count > 0 && ok && svr_sock_ != INVALID_SOCKET; --count) {
        const auto since = count == most ? GuardedPool::accepted() : clock_.now();
        if (count != most) {
            // Between requests: a queued connection needs this thread more than an idle one.
            GuardedPool* pool = pool_;
            if (pool && pool->has_queued()) break;
            table_.set_waiting(sock, since);
            if (!stream.wait_readable(std::chrono::seconds(keep_alive_timeout_sec_))) break;
        }
        stream.start_request(since + deadline_);
        bool closed = false;
        ok = process_request(stream, count == 1, closed, [&](httplib::Request& request) {
            const bool lasting = setup_ && setup_(request);
            table_.set_replying(sock, clock_.now(), lasting);
        });
        if (closed || stream.cut()) break;
    }
    return ok;
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
    const auto io_timeout = std::chrono::seconds(read_timeout_sec_) + std::chrono::microseconds(read_timeout_usec_);
    DeadlineStream stream(sock, clock_, std::chrono::duration_cast<std::chrono::milliseconds>(io_timeout));
    table_.add(sock, GuardedPool::accepted());
    stream.on_stall([this, sock](bool stalled) {
        table_.set_stalled(sock, stalled, clock_.now());
        GuardedPool* pool = pool_;
        if (stalled && pool) pool->make_room(); // a newcomer queued before this stall gets its thread
    });
    serving_fd = sock;
    const bool ok = serve_requests(stream, sock);
    serving_fd = -1;
    table_.remove(sock);
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
}

int serving_socket() { return serving_fd; }

} // namespace pp
