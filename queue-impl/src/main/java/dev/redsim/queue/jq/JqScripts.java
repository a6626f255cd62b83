package dev.redsim.queue.jq;

import dev.redsim.queue.script.LuaScript;

/**
 * JQ's transitions as Lua scripts (resources/jq/scripts): enqueue, claim and report for n jobs in one call, release,
 * cancel, take-result, sweep, the promotion of due retries outside a claim, and constraint edits. common.lua carries the time, the member format, the counters and the MessagePack
 * pieces of the failure log; matching.lua the constraint matchers the claim evaluates.
 */
final class JqScripts {
    /** Days <-> civil date, shared with the other contract that writes timestamps. */
    private static final String CIVIL = "/script/civil.lua";
    private static final String DIR = "/jq/scripts/";

    static final LuaScript ENQUEUE = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "enqueue.lua");
    static final LuaScript CLAIM = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "matching.lua", DIR + "claim.lua");
    static final LuaScript REPORT = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "report.lua");
    static final LuaScript RELEASE = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "release.lua");
    static final LuaScript CANCEL = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "cancel.lua");
    static final LuaScript TAKE_RESULT = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "take_result.lua");
    static final LuaScript SWEEP = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "sweep.lua");
    static final LuaScript PROMOTE = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "promote.lua");
    static final LuaScript CONSTRAINT_PUT = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "constraint_put.lua");
    static final LuaScript CONSTRAINT_REMOVE = LuaScript.of(CIVIL, DIR + "common.lua", DIR + "constraint_remove.lua");

    private JqScripts() {
    }
}
