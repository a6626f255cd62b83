package dev.redsim.simulator.server;

import dev.redsim.simulator.keyspace.Bytes;

import java.util.Collections;
import java.util.NavigableSet;
import java.util.TreeSet;

/**
 * One connection's client-side caching state (Redis's CLIENT_TRACKING* flags, client_tracking_redirection and
 * client_tracking_prefixes). The server-wide tables live in the engine's Tracking; this is what CLIENT
 * TRACKINGINFO, CLIENT GETREDIR and CLIENT LIST read.
 */
public final class ClientTracking {
    private boolean on;
    private boolean bcast;
    private boolean optIn;
    private boolean optOut;
    private boolean noLoop;
    /** CLIENT CACHING yes (OPTIN) or no (OPTOUT) was given for the next command. */
    private boolean caching;
    /** The redirect client was gone when an invalidation had to be sent (flag R). */
    private boolean brokenRedirect;
    /** The client id invalidations go to; 0 when they go to this connection. */
    private long redirect;
    /** BCAST prefixes, in byte order as Redis's radix tree lists them (TRACKINGINFO). */
    private final NavigableSet<Bytes> prefixes = new TreeSet<>();

    public boolean on() {
        return on;
    }

    public boolean bcast() {
        return bcast;
    }

    public boolean optIn() {
        return optIn;
    }

    public boolean optOut() {
        return optOut;
    }

    public boolean noLoop() {
        return noLoop;
    }

    public boolean caching() {
        return caching;
    }

    public void caching(boolean value) {
        this.caching = value;
    }

    public boolean brokenRedirect() {
        return brokenRedirect;
    }

    public void brokenRedirect(boolean value) {
        this.brokenRedirect = value;
    }

    public long redirect() {
        return redirect;
    }

    public NavigableSet<Bytes> prefixes() {
        return Collections.unmodifiableNavigableSet(prefixes);
    }

    /**
     * Tracking on with these options (Redis's enableTracking): the mode flags are replaced, the CACHING flag and
     * the prefixes already registered stay.
     */
    public void enable(long redirectTo, boolean bcastMode, boolean optInMode, boolean optOutMode, boolean noLoopMode) {
        on = true;
        brokenRedirect = false;
        redirect = redirectTo;
        bcast = bcastMode;
        optIn = optInMode;
        optOut = optOutMode;
        noLoop = noLoopMode;
    }

    /** Adds a BCAST prefix; false when it was registered already. */
    public boolean addPrefix(Bytes prefix) {
        return prefixes.add(prefix);
    }

    /** Tracking off (disableTracking): every flag and prefix goes. */
    public void disable() {
        on = false;
        bcast = false;
        optIn = false;
        optOut = false;
        noLoop = false;
        caching = false;
        brokenRedirect = false;
        redirect = 0;
        prefixes.clear();
    }
}
