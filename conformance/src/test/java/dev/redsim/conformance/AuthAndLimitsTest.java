package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * requirepass and proto-max-bulk-len set with CONFIG SET take effect the same way on both servers: new
 * connections must authenticate, unauthenticated clients meet Redis's tighter length limits, and bulk strings
 * above the configured maximum are protocol errors.
 */
class AuthAndLimitsTest {
    @Test
    void requirepassTakesEffectForNewConnections() throws IOException {
        assertThat(authSession(SharedTargets.simulator())).isEqualTo(authSession(SharedTargets.reference()));
    }

    private static List<String> authSession(RedisTarget target) throws IOException {
        List<String> seen = new ArrayList<>();
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            seen.add(admin.call("CONFIG", "SET", "requirepass", "s3cret").toString());
            try {
                try (RespClient fresh = new RespClient(target.host(), target.port())) {
                    seen.add(fresh.call("GET", "k").toString());
                    seen.add(fresh.call("PING").toString());
                    seen.add(fresh.call("AUTH", "wrong").toString());
                    seen.add(fresh.call("HELLO", "3").toString());
                    seen.add(fresh.call("AUTH", "s3cret").toString());
                    seen.add(fresh.call("GET", "k").toString());
                }
                try (RespClient viaHello = new RespClient(target.host(), target.port())) {
                    seen.add(viaHello.call("HELLO", "2", "AUTH", "default", "s3cret", "SETNAME", "n").children().get(0).toString());
                    seen.add(viaHello.call("CLIENT", "GETNAME").toString());
                }
                // unauthenticated clients may not send more than 10 arguments or bulks over 16 KB
                seen.add(ProtocolConformanceTest.exchange(target, multibulk(11, 1), 0).toString());
                seen.add(ProtocolConformanceTest.exchange(target, multibulk(1, 16385), 0).toString());
                // ... but an AUTH in the same write counts for what follows it: Redis runs each command before it
                // reads the next one
                byte[] auth = "*2\r\n$4\r\nAUTH\r\n$6\r\ns3cret\r\n".getBytes(StandardCharsets.US_ASCII);
                seen.add(ProtocolConformanceTest.exchange(target, concat(auth, multibulk(11, 1)), 0).toString());
                seen.add(ProtocolConformanceTest.exchange(target, concat(auth, multibulk(1, 16385)), 0).toString());
                // the admin connection was authenticated before: it stays so
                seen.add(admin.call("PING").toString());
            } finally {
                admin.call("CONFIG", "SET", "requirepass", "");
            }
        }
        return seen;
    }

    @Test
    void protoMaxBulkLenTakesEffect() throws IOException {
        assertThat(bulkLimitSession(SharedTargets.simulator())).isEqualTo(bulkLimitSession(SharedTargets.reference()));
    }

    private static List<String> bulkLimitSession(RedisTarget target) throws IOException {
        List<String> seen = new ArrayList<>();
        try (RespClient admin = new RespClient(target.host(), target.port())) {
            seen.add(admin.call("CONFIG", "SET", "proto-max-bulk-len", "1000").toString());
            seen.add(admin.call("CONFIG", "SET", "proto-max-bulk-len", "1mb").toString());
            seen.add(admin.call("CONFIG", "GET", "proto-max-bulk-len").toString());
            try {
                seen.add(ProtocolConformanceTest.exchange(target,
                        "*1\r\n$1048577\r\n".getBytes(StandardCharsets.US_ASCII), 0).toString());
                byte[] atTheLimit = ("*2\r\n$4\r\nECHO\r\n$1048576\r\n" + "a".repeat(1048576) + "\r\n")
                        .getBytes(StandardCharsets.US_ASCII);
                ProtocolConformanceTest.Outcome echoed = ProtocolConformanceTest.exchange(target, atTheLimit, 0);
                seen.add(echoed.closed() + " " + echoed.reply().length());
                seen.add(admin.call("APPEND", "limit:k", "x".repeat(1000)).toString());
                seen.add(admin.call("SETRANGE", "limit:k", "1048576", "x").toString());
            } finally {
                admin.call("CONFIG", "SET", "proto-max-bulk-len", "536870912");
                admin.call("DEL", "limit:k");
            }
        }
        return seen;
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = java.util.Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }

    private static byte[] multibulk(int args, int argLength) {
        StringBuilder sb = new StringBuilder("*").append(args).append("\r\n");
        for (int i = 0; i < args; i++) {
            sb.append('$').append(argLength).append("\r\n").append("a".repeat(argLength)).append("\r\n");
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }
}
