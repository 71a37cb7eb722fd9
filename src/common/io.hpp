// Moving exactly n bytes through a socket or a pipe: the one helper the bootstrap, the tcp
// transport and oshrun share. Retries on EINTR and waits (poll) while a non-blocking descriptor
// would block. Sockets are written with MSG_NOSIGNAL: a closed peer is an error, not SIGPIPE.
#pragma once
#include <cstddef>

namespace gshmem {

enum class Io { ok, eof, error };  // eof: the peer closed before the first byte of a read

Io write_full(int fd, const void* buf, size_t n);
Io read_full(int fd, void* buf, size_t n);  // a close in the middle of the bytes is an error

}  // namespace gshmem
