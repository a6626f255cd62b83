package dev.redsim.simulator;

import dev.redsim.simulator.intercept.CallOutcome;
import dev.redsim.simulator.intercept.InterceptedCall;
import dev.redsim.simulator.intercept.InterceptorRegistration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The command interceptor: each outcome (pass, fake reply, error, cut before or after the call) and what it sees. */
class CommandInterceptorTest {
    private static RedisSimulator redis;

    @BeforeAll
    static void start() {
        redis = RedisSimulator.start();
    }

    @AfterAll
    static void stop() {
        redis.close();
    }

    @AfterEach
    void clean() {
        redis.resetInterceptor();
        redis.flushAll();
    }

    @Test
    void proceedRunsTheCommandAsUsual() throws IOException {
        try (InterceptorRegistration ignored = redis.intercept(call -> CallOutcome.proceed());
             TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("SET k v")).isEqualTo("+OK");
            assertThat(client.call("GET k")).isEqualTo("v");
            assertThat(client.call("NOSUCH")).startsWith("-ERR unknown command 'NOSUCH'");
        }
    }

    @Test
    void aFakedReplyReplacesTheCommandUntilTheRegistrationCloses() throws IOException {
        try (TinyClient client = new TinyClient(redis)) {
            client.call("SET k real");
            try (InterceptorRegistration ignored = redis.intercept(call -> call.is("get") ? CallOutcome.bulk("faked")
                    : call.is("set") ? CallOutcome.ok() : CallOutcome.proceed())) {
                assertThat(client.call("GET k")).isEqualTo("faked");
                assertThat(client.call("SET k lost")).isEqualTo("+OK"); // acknowledged, not done
                assertThat(client.call("INCR n")).isEqualTo(":1"); // others pass
            }
            assertThat(client.call("GET k")).isEqualTo("real");
        }
    }

    @Test
    void anErrorFailsTheCallAndLeavesTheDataAsItWas() throws IOException {
        try (TinyClient client = new TinyClient(redis)) {
            client.call("SET n 5");
            redis.intercept(call -> call.is("incr")
                    ? CallOutcome.error("READONLY You can't write against a read only replica.") : CallOutcome.proceed());
            assertThat(client.call("INCR n")).isEqualTo("-READONLY You can't write against a read only replica.");
            redis.resetInterceptor();
            assertThat(client.call("GET n")).isEqualTo("5");
        }
    }

    @Test
    void integerNullRawAndUnknownCommands() throws IOException {
        redis.intercept(call -> switch (call.name()) {
            case "dbsize" -> CallOutcome.integer(42);
            case "get" -> CallOutcome.nullReply();
            case "my.range" -> CallOutcome.raw("*2\r\n:1\r\n:2\r\n".getBytes(StandardCharsets.US_ASCII));
            case "ping" -> CallOutcome.status("PONG from the interceptor");
            default -> CallOutcome.proceed();
        });
        try (TinyClient client = new TinyClient(redis)) {
            client.call("SET k v");
            assertThat(client.call("DBSIZE")).isEqualTo(":42");
            assertThat(client.call("GET k")).isEqualTo("$-1");
            assertThat(client.call("MY.RANGE 1 2")).isEqualTo("*2");
            assertThat(client.readLine()).isEqualTo(":1");
            assertThat(client.readLine()).isEqualTo(":2");
            assertThat(client.call("PING")).isEqualTo("+PONG from the interceptor");
        }
    }

    @Test
    void disconnectCutsTheConnectionBeforeTheCommandRuns() throws IOException {
        redis.intercept(call -> call.is("set") && call.argString(0).equals("b") ? CallOutcome.disconnect()
                : CallOutcome.proceed());
        try (TinyClient client = new TinyClient(redis); TinyClient other = new TinyClient(redis)) {
            client.send("SET a 1\r\nSET b 2\r\nSET c 3"); // one pipelined write
            assertThat(client.readLine()).as("the reply before the cut is written").isEqualTo("+OK");
            assertThat(client.readLine()).as("then the connection closes").isNull();
            assertThat(other.call("EXISTS a b c")).as("only a was set").isEqualTo(":1");
        }
    }

    @Test
    void runThenDisconnectDoesTheWriteButLosesItsReply() throws IOException {
        redis.intercept(call -> call.is("incr") ? CallOutcome.runThenDisconnect() : CallOutcome.proceed());
        try (TinyClient client = new TinyClient(redis); TinyClient other = new TinyClient(redis)) {
            client.send("SET before 1\r\nINCR n\r\nSET after 1");
            assertThat(client.readLine()).isEqualTo("+OK");
            assertThat(client.readLine()).as("INCR's reply never comes").isNull();
            assertThat(other.call("GET n")).as("but INCR ran").isEqualTo("1");
            assertThat(other.call("EXISTS after")).as("and nothing after it").isEqualTo(":0");
        }
    }

    @Test
    void seesTheClientAndTheArgumentsAsSent() throws IOException {
        AtomicReference<InterceptedCall> seen = new AtomicReference<>();
        List<String> seenArgs = new ArrayList<>();
        redis.intercept(call -> {
            if (call.is("hset")) {
                seen.set(call);
                seenArgs.addAll(call.args());
            }
            return CallOutcome.proceed();
        });
        try (TinyClient client = new TinyClient(redis)) {
            client.call("CLIENT SETNAME worker-1");
            client.call("SELECT 3");
            long id = Long.parseLong(client.call("CLIENT ID").substring(1));
            assertThat(client.call("HsEt h field value")).isEqualTo(":1");
            InterceptedCall call = seen.get();
            assertThat(call.clientId()).isEqualTo(id);
            assertThat(call.clientName()).isEqualTo("worker-1");
            assertThat(call.db()).isEqualTo(3);
            assertThat(call.protocol()).isEqualTo(2);
            assertThat(call.name()).isEqualTo("hset");
            assertThat(call.argCount()).isEqualTo(3);
            assertThat(seenArgs).containsExactly("h", "field", "value");
        }
    }

    @Test
    void commandsInsideScriptsAndExecAreNotSeenSeparately() throws IOException {
        List<String> seen = new ArrayList<>();
        redis.intercept(call -> {
            seen.add(call.name());
            return call.is("get") ? CallOutcome.bulk("faked") : CallOutcome.proceed();
        });
        try (TinyClient client = new TinyClient(redis)) {
            client.call("SET k real");
            assertThat(client.call("EVAL \"return redis.call('GET', KEYS[1])\" 1 k")).isEqualTo("real");
            client.call("MULTI");
            assertThat(client.call("INCR n")).isEqualTo("+QUEUED");
            assertThat(client.call("EXEC")).isEqualTo("*1");
            assertThat(client.readLine()).isEqualTo(":1");
        }
        assertThat(seen).containsExactly("set", "eval", "multi", "incr", "exec");
    }

    @Test
    void aThrowingInterceptorAnswersAnErrorAndTheConnectionGoesOn() throws IOException {
        redis.intercept(call -> {
            if (call.is("get")) {
                throw new IllegalStateException("bug in the test's interceptor");
            }
            return CallOutcome.proceed();
        });
        try (TinyClient client = new TinyClient(redis)) {
            assertThat(client.call("GET k")).startsWith("-ERR redsim command interceptor failed: ")
                    .contains("bug in the test's interceptor");
            assertThat(client.call("PING")).isEqualTo("+PONG");
        }
    }

    @Test
    void registrationsNestAndResetReturnsToTheBuildersInterceptor() throws IOException {
        try (RedisSimulator own = RedisSimulator.builder()
                .interceptor(call -> call.is("ping") ? CallOutcome.status("builder") : CallOutcome.proceed()).start();
             TinyClient client = new TinyClient(own)) {
            assertThat(client.call("PING")).isEqualTo("+builder");
            try (InterceptorRegistration outer = own.intercept(call -> CallOutcome.status("outer"))) {
                try (InterceptorRegistration inner = own.intercept(call -> CallOutcome.status("inner"))) {
                    assertThat(client.call("PING")).isEqualTo("+inner");
                }
                assertThat(client.call("PING")).isEqualTo("+outer");
                own.intercept(call -> CallOutcome.status("left installed"));
                own.resetInterceptor();
                assertThat(client.call("PING")).isEqualTo("+builder");
            }
        }
    }

    @Test
    void statusAndErrorTextsMustBeOneLine() {
        assertThatThrownBy(() -> CallOutcome.error("ERR two\r\nlines")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> CallOutcome.status("a\nb")).isInstanceOf(IllegalArgumentException.class);
    }
}
