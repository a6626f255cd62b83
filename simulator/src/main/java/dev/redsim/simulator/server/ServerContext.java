package dev.redsim.simulator.server;

/** What a connection needs to know about its server at accept time. */
public interface ServerContext {
    boolean authRequired();

    long protoMaxBulkLen();
}
