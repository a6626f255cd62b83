package dev.redsim.simulator.acl;

import dev.redsim.simulator.command.AccessControl;
import dev.redsim.simulator.command.CommandCatalog;
import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandSpec;
import dev.redsim.simulator.engine.Engine;
import dev.redsim.simulator.server.ClientConnection;
import dev.redsim.simulator.server.ClientUser;

import java.util.function.Supplier;

/**
 * A server's ACL, made the first time something needs more than the default user's rules (decision 0035): an ACL
 * command (its family is bound then), an AUTH or HELLO AUTH, CLIENT KILL USER, or an aclfile at start (read then, so
 * its errors still abort the start). Until then every connection runs as the engine's own default user, which
 * allows every command, key and channel and asks for requirepass when one is set, exactly as the ACL's default user
 * ("+@all ~* &* on", nopass unless requirepass) would; so a start builds no users, selectors or command index, which
 * took about a tenth of a first start.
 *
 * <p>When the ACL is made, it installs its default user, and every connection still running as the engine's takes
 * it in its place (keeping its authenticated state), so an ACL SETUSER default applies to them too.
 */
public final class AclOnFirstUse implements AccessControl, Supplier<Acl> {
    private final Engine engine;
    private final CommandCatalog catalog;
    private final Acl.ClientInfo clientInfo;
    /** Null until first needed; made on the engine thread (the only one that runs ACL, AUTH and CLIENT). */
    private volatile Acl acl;

    public AclOnFirstUse(Engine engine, CommandCatalog catalog, Acl.ClientInfo clientInfo) {
        this.engine = engine;
        this.catalog = catalog;
        this.clientInfo = clientInfo;
        String aclFile = engine.config().get("aclfile");
        if (aclFile != null && !aclFile.isEmpty()) {
            get();
        }
    }

    /** The ACL, made now if it was not yet. */
    @Override
    public synchronized Acl get() {
        Acl made = acl;
        if (made == null) {
            ClientUser engineDefault = engine.defaultUser();
            made = new Acl(engine, catalog); // installs its default user as the engine's
            made.clientInfo(clientInfo);
            ClientUser aclDefault = engine.defaultUser();
            for (ClientConnection client : engine.clients()) {
                if (client.user() == engineDefault) {
                    client.user(aclDefault);
                }
            }
            acl = made;
        }
        return made;
    }

    /** Whether the ACL has been made (for tests of this laziness). */
    public boolean made() {
        return acl != null;
    }

    // Before the ACL is made every connection runs as a user that may run anything: nothing to check or log.

    @Override
    public String refuseCommand(ClientConnection client, CommandSpec spec, byte[][] args) {
        Acl made = acl;
        return made == null ? null : made.refuseCommand(client, spec, args);
    }

    @Override
    public String refuseQueued(ClientConnection client, CommandSpec spec, byte[][] args) {
        Acl made = acl;
        return made == null ? null : made.refuseQueued(client, spec, args);
    }

    @Override
    public String refuseInScript(ClientConnection caller, String callerCommand, CommandSpec spec, byte[][] args) {
        Acl made = acl;
        return made == null ? null : made.refuseInScript(caller, callerCommand, spec, args);
    }

    @Override
    public boolean authenticate(CommandContext ctx, byte[] username, byte[] password) {
        return get().authenticate(ctx, username, password);
    }

    @Override
    public ClientUser user(byte[] name) {
        return get().user(name);
    }
}
