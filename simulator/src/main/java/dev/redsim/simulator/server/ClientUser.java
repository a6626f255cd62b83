package dev.redsim.simulator.server;

/**
 * The user a connection runs its commands as (Redis's client->user), as the connection sees it; the ACL room
 * implements it. New connections start as the default user.
 */
public interface ClientUser {
    /** The user's name, as CLIENT LIST prints it after user=. */
    String name();

    /** Flagged nopass: any password logs in as this user (while it is on). */
    boolean nopass();

    /** On: connections may authenticate as this user. */
    boolean enabled();

    /**
     * Whether this user lets anyone in without a password: nopass and on. For the default user this decides
     * whether new connections must authenticate (Redis's authRequired).
     */
    default boolean passwordless() {
        return nopass() && enabled();
    }

    /**
     * Whether the user may read any key, as SORT asks before it lets BY and GET name keys it cannot know in advance:
     * a selector with allkeys, or with the read pattern "*" itself.
     */
    boolean readsEveryKey();
}
