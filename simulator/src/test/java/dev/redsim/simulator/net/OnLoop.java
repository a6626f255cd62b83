package dev.redsim.simulator.net;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs a test's question on a loop's thread (where the transport's state lives) and waits for the answer. */
final class OnLoop {
    private OnLoop() {
    }

    static <T> T call(SelectorLoop loop, Callable<T> question) throws Exception {
        CompletableFuture<T> answer = new CompletableFuture<>();
        loop.execute(() -> {
            try {
                answer.complete(question.call());
            } catch (Throwable failed) {
                answer.completeExceptionally(failed);
            }
        });
        return answer.get(10, TimeUnit.SECONDS);
    }
}
