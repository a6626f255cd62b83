package dev.redsim.simulator.engine;

import dev.redsim.simulator.server.ClientConnection;

/**
 * What the master knows of one replica's link (Redis keeps it in the replica's client): what it announced with
 * REPLCONF before its SYNC / PSYNC, whether it is online (receiving the stream), and the offset it last
 * acknowledged, which WAIT counts.
 */
public final class ReplicaLink {
    private final ClientConnection client;
    private int listeningPort;
    private String announcedIp;
    private boolean capaEof;
    private boolean capaPsync2;
    private boolean online;
    private long ackOffset;
    private long ackMillis;

    ReplicaLink(ClientConnection client) {
        this.client = client;
    }

    public ClientConnection client() {
        return client;
    }

    public int listeningPort() {
        return listeningPort;
    }

    void listeningPort(int port) {
        this.listeningPort = port;
    }

    /** REPLCONF ip-address, else the address the replica connected from (as INFO and ROLE show it). */
    public String ip() {
        if (announcedIp != null) {
            return announcedIp;
        }
        String address = client.address();
        int colon = address.lastIndexOf(':');
        return colon < 0 ? address : address.substring(0, colon);
    }

    void announcedIp(String ip) {
        this.announcedIp = ip;
    }

    void capa(String capability) {
        if (capability.equalsIgnoreCase("eof")) {
            capaEof = true;
        } else if (capability.equalsIgnoreCase("psync2")) {
            capaPsync2 = true;
        }
    }

    /** Whether the replica understands "+CONTINUE <replid>" (PSYNC2); otherwise it gets a bare "+CONTINUE". */
    boolean psync2() {
        return capaPsync2;
    }

    boolean eof() {
        return capaEof;
    }

    public boolean online() {
        return online;
    }

    void online(boolean online) {
        this.online = online;
    }

    public long ackOffset() {
        return ackOffset;
    }

    public long ackMillis() {
        return ackMillis;
    }

    /** REPLCONF ACK: the offset only grows (an old ACK arriving late changes nothing). */
    void acknowledged(long offset, long nowMillis) {
        if (offset > ackOffset) {
            ackOffset = offset;
        }
        ackMillis = nowMillis;
    }
}
