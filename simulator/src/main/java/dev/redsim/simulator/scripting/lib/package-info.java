/**
 * The Lua libraries Redis 7.0 bundles for scripts, written for luaj: {@link
 * dev.redsim.simulator.scripting.lib.CjsonLib cjson}, {@link dev.redsim.simulator.scripting.lib.CmsgpackLib
 * cmsgpack}, {@link dev.redsim.simulator.scripting.lib.StructLib struct} and {@link
 * dev.redsim.simulator.scripting.lib.BitLib bit}. Each {@code create()} answers a fresh global table.
 *
 * <p>They follow the C libraries of Redis 7.0.15 on x86-64 (Lua 5.1 semantics: every number is a double;
 * %.14g printing; C casts; Lua 5.1's 8000-slot C stack limit) including error texts. conformance's
 * LuaLibrariesTest compares them with a real redis-server over the snippets in
 * {@code lua/library-snippets.txt}. {@link dev.redsim.simulator.scripting.lib.CNumbers} holds the C number
 * conversions (%.14g, strtod, casts) the scripting engine needs too (tostring, EVAL's number to integer reply).
 *
 * <p>Known differences, all from luaj's runtime rather than the libraries:
 * <ul>
 *   <li>-0 is the integer 0 in luaj, so cjson.encode(-0) gives "0" (Redis "-0"), and -0.0 packs as +0.0.</li>
 *   <li>NaN's sign bit: 0/0 on x86 Lua is negative, luaj's is positive; packed NaN bytes differ.</li>
 *   <li>Objects and maps with several hash keys list them in luaj's table order, which is not Lua 5.1's
 *       once keys collide.</li>
 *   <li>Argument errors name the library function ("bad argument #1 to 'band'"); Lua 5.1 names the call site
 *       (a local alias's name, or '?' under pcall).</li>
 * </ul>
 */
package dev.redsim.simulator.scripting.lib;
