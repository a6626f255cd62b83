"""SET and GET of big values on two servers, side by side: seconds for each, the ratio simulator/redis, and the
longest a PING from a second client waited while the big SET was being sent and run, and while the GET's reply
was being written and read (the stall others see).

    python3 bench/big_values.py REDIS_PORT SIM_PORT [sizes in MB, default 10 100 500]
"""
import socket
import sys
import threading
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port))
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s


def read_reply(s, buf):
    """Reads one reply: a status/error/integer line, or a bulk string; returns (payload length, leftover)."""
    while b"\r\n" not in buf:
        buf += s.recv(65536)
    line, _, rest = buf.partition(b"\r\n")
    if line[:1] != b"$":
        return len(line), rest
    n = int(line[1:])
    if n < 0:
        return 0, rest
    need = n + 2
    chunks = [rest]
    have = len(rest)
    while have < need:
        chunk = s.recv(min(1 << 22, need - have))
        chunks.append(chunk)
        have += len(chunk)
    data = b"".join(chunks)
    return n, data[need:]


def while_pinging(port, action):
    """Runs action() while a second client PINGs in a loop; returns (seconds action took, longest PING wait)."""
    stop = threading.Event()
    worst = [0.0]

    def pinger():
        p = connect(port)
        while not stop.is_set():
            t = time.perf_counter()
            p.sendall(b"*1\r\n$4\r\nPING\r\n")
            read_reply(p, b"")
            worst[0] = max(worst[0], time.perf_counter() - t)
        p.close()

    thread = threading.Thread(target=pinger)
    thread.start()
    t0 = time.perf_counter()
    action()
    elapsed = time.perf_counter() - t0
    stop.set()
    thread.join()
    return elapsed, worst[0]


def timed_set_get(port, size):
    """SET then GET of a value of size bytes: (SET seconds, GET seconds, longest PING wait during each)."""
    value = b"x" * size
    s = connect(port)

    def set_value():
        s.sendall(b"*3\r\n$3\r\nSET\r\n$7\r\nbig:key\r\n$%d\r\n" % size)
        s.sendall(value)
        s.sendall(b"\r\n")
        read_reply(s, b"")

    def get_value():
        s.sendall(b"*2\r\n$3\r\nGET\r\n$7\r\nbig:key\r\n")
        n, _ = read_reply(s, b"")
        assert n == size, (n, size)

    set_seconds, set_wait = while_pinging(port, set_value)
    get_seconds, get_wait = while_pinging(port, get_value)
    s.sendall(b"*2\r\n$3\r\nDEL\r\n$7\r\nbig:key\r\n")
    read_reply(s, b"")
    s.close()
    return set_seconds, get_seconds, set_wait, get_wait


def main():
    redis_port, sim_port = int(sys.argv[1]), int(sys.argv[2])
    sizes = [int(x) for x in sys.argv[3:]] or [10, 100, 500]
    print("%-8s %-4s %10s %10s %7s   %s" % ("size", "op", "redis s", "sim s", "ratio", "longest PING wait redis / sim"))
    for mb in sizes:
        size = mb * 1024 * 1024
        r = timed_set_get(redis_port, size)
        m = timed_set_get(sim_port, size)
        print("%-8s %-4s %10.3f %10.3f %7.2f   %.3f s / %.3f s" % ("%d MB" % mb, "SET", r[0], m[0], m[0] / r[0], r[2], m[2]))
        print("%-8s %-4s %10.3f %10.3f %7.2f   %.3f s / %.3f s" % ("%d MB" % mb, "GET", r[1], m[1], m[1] / r[1], r[3], m[3]))


if __name__ == "__main__":
    main()
