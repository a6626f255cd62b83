package dev.redsim.simulator.scripting;

import org.junit.jupiter.api.Test;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.jse.JseBaseLib;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hook's frames belong to the running script. luaj runs coroutines on threads of their own, and a coroutine
 * released when its script ended unwinds later on that thread, calling the hook on its way out: those calls must
 * not move the frames of the script running by then (they did, and its next tail-call check read a register past
 * the end of a frame's stack: "vm error: ArrayIndexOutOfBoundsException", now and then, in scripting-limits.txt).
 */
class ScriptHookTest {
    @Test
    void aReleasedCoroutineUnwindingLaterLeavesTheNextScriptsFramesAlone() throws Exception {
        Globals globals = new Globals();
        globals.load(new JseBaseLib());
        LuaC.install(globals);
        new ScriptRunner(null, null).installHook(globals);
        ScriptHook hook = ScriptHook.of(globals);

        hook.begin(); // the first script starts a coroutine, which stays suspended when the script ends
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch nextScriptRuns = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        LuaClosure body = compile("local a = 1\nreturn a", "coroutine_body");
        Thread coroutine = new Thread(() -> {
            try {
                hook.coroutineStarted(Thread.currentThread());
                hook.onCall(body, LuaValue.NONE, new LuaValue[body.p.maxstacksize]);
                started.countDown();
                awaitIgnoringInterrupts(nextScriptRuns); // released: interrupted, but it unwinds only now
                hook.onInstruction(1, LuaValue.NONE, 0);
                hook.onReturn();
                hook.onReturn();
                hook.onCall(body, LuaValue.NONE, new LuaValue[body.p.maxstacksize]);
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        coroutine.start();
        started.await();
        hook.end();

        hook.begin(); // the next script: two frames, the inner one on its second line
        LuaClosure outer = compile("local x = 1\nreturn x", "user_script");
        LuaClosure inner = compile("local y = 2\nreturn y", "inner");
        hook.onCall(outer, LuaValue.NONE, new LuaValue[outer.p.maxstacksize]);
        hook.onInstruction(0, LuaValue.NONE, 0);
        hook.onCall(inner, LuaValue.NONE, new LuaValue[inner.p.maxstacksize]);
        hook.onInstruction(1, LuaValue.NONE, 0);
        assertThat(hook.positionAt(1)).isEqualTo("inner:2");
        assertThat(hook.positionAt(2)).isEqualTo("user_script:1");

        nextScriptRuns.countDown();
        coroutine.join();
        assertThat(failure.get()).isNull();
        assertThat(hook.positionAt(1)).isEqualTo("inner:2");
        assertThat(hook.positionAt(2)).isEqualTo("user_script:1");
        hook.end();
    }

    private static LuaClosure compile(String source, String name) {
        Globals compiler = new Globals();
        LuaC.install(compiler);
        return (LuaClosure) compiler.load(source, "@" + name);
    }

    private static void awaitIgnoringInterrupts(CountDownLatch latch) {
        while (true) {
            try {
                latch.await();
                return;
            } catch (InterruptedException e) {
                // the release's interrupt: this test decides when the coroutine unwinds
            }
        }
    }
}
