package dev.redsim.queue.conveyor;

import dev.redsim.queue.script.LuaScript;

/**
 * Conveyor's transitions as Lua scripts (resources/conveyor/scripts). The scripts that read a job's bytes carry the
 * protobuf reader (proto.lua), and those that move jobs along a tree of parents, children and successors the shared
 * tree.lua after it; the others are a few commands with no loop. KEYS name the keys the client knows; the
 * per-job keys of a popped job (jobs:<uuid>, its lease) are built in the script from the key prefix, so on Redis
 * Cluster the prefix must carry a hash tag (docs/contracts/conveyor.md).
 */
final class ConveyorScripts {
    private static final String DIR = "/conveyor/scripts/";

    static final LuaScript CLAIM = LuaScript.of(DIR + "proto.lua", "local ko, ao = 0, 0", DIR + "claim.lua");
    static final LuaScript COMPLETE = LuaScript.of(DIR + "complete.lua", "return finished");
    /** complete.lua then, when the job ended simply, claim.lua: {code} when it did not, else claim's reply. */
    static final LuaScript COMPLETE_AND_CLAIM = LuaScript.of(DIR + "proto.lua", DIR + "complete.lua",
            "if finished ~= 1 then return {finished} end", "local ko, ao = 8, 3", DIR + "claim.lua");
    static final LuaScript COMPLETE_MANY = LuaScript.of(DIR + "complete_many.lua");
    static final LuaScript EXTEND = LuaScript.of(DIR + "extend.lua");
    static final LuaScript RELEASE = LuaScript.of(DIR + "release.lua");
    static final LuaScript RECOVER = LuaScript.of(DIR + "proto.lua", DIR + "recover.lua");
    static final LuaScript SCHEDULE = LuaScript.of(DIR + "proto.lua", DIR + "schedule.lua");
    static final LuaScript ADD = LuaScript.of(DIR + "proto.lua", DIR + "tree.lua", DIR + "add.lua");
    /** The end of any job's run (children, successors, the parents it settles); complete.lua is the loop-free case. */
    static final LuaScript FINISH = LuaScript.of(DIR + "proto.lua", DIR + "tree.lua", DIR + "finish.lua",
            "return finish_reply");
    /** finish.lua then, when the job ended and its climb too, claim.lua: finish's reply when not, else claim's. */
    static final LuaScript FINISH_AND_CLAIM = LuaScript.of(DIR + "proto.lua", DIR + "tree.lua", DIR + "finish.lua",
            "if finish_reply.err or #finish_reply ~= 1 or finish_reply[1] ~= 1 then return finish_reply end",
            "local ko, ao = 9, 8", DIR + "claim.lua");
    static final LuaScript SETTLE = LuaScript.of(DIR + "proto.lua", DIR + "tree.lua", DIR + "settle.lua");

    private ConveyorScripts() {
    }
}
