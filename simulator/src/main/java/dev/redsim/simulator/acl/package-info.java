/**
 * Redis 7.0's ACL (acl.c): users ({@link dev.redsim.simulator.acl.AclUser}) with password hashes, flags and
 * selectors, the rules of ACL SETUSER and of the aclfile, the permission check of every call, authentication and
 * the ACL log, behind {@link dev.redsim.simulator.acl.Acl}.
 *
 * <p>The command path knows the ACL only as {@code command.AccessControl}: one check in the command processor
 * before a command runs or is queued, the same check for each queued command at EXEC and for each redis.call of a
 * script (which runs as its caller's user), each refusal worded and logged as Redis does it there. Connections hold
 * their user as a {@code server.ClientUser}. The check costs what Redis's does: a user whose selector allows
 * everything (the default user's usual rules) is let through on a precomputed flag; otherwise each selector tests
 * the command's bit in its bitmap (ids over every command Redis has, implemented here or not, as rules may name
 * any), then the call's keys (found once for all selectors) and channels against its patterns.
 *
 * <p>A server's {@link dev.redsim.simulator.acl.Acl} is made on first use ({@link dev.redsim.simulator.acl.AclOnFirstUse}:
 * an ACL command, AUTH, CLIENT KILL USER, or an aclfile at start); until then every connection runs as the engine's
 * default user, which is what the ACL's default user would be (decision 0035).
 *
 * <p>One known difference: where ACL LIST, ACL GETUSER and ACL SAVE write single commands after the categories
 * (-@all +@hash -hset +get), and where ACL CAT lists a category, Redis follows its command hash table, seeded at
 * random at each start, so two redis-servers differ; the simulator uses name order.
 */
package dev.redsim.simulator.acl;
