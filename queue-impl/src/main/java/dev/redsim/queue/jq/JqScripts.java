package dev.redsim.queue.jq;

import dev.redsim.queue.script.LuaScript;

/**
 * JQ's enqueue, claim and report as Lua scripts (resources/jq/scripts), each for n jobs in one call. common.lua
 * carries the time, the member format, the counters and the MessagePack pieces of the failure log.
 */
final class JqScripts {
    private static final String DIR = "/jq/scripts/";

    static final LuaScript ENQUEUE = LuaScript.of(DIR + "common.lua", DIR + "enqueue.lua");
    static final LuaScript CLAIM = LuaScript.of(DIR + "common.lua", DIR + "claim.lua");
    static final LuaScript REPORT = LuaScript.of(DIR + "common.lua", DIR + "report.lua");

    private JqScripts() {
    }
}
