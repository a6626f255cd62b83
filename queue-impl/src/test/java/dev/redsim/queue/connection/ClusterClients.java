package dev.redsim.queue.connection;

import dev.redsim.conformance.target.ClusterSlotTarget;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisCluster;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Cluster clients for the suites' cluster variants. A suite hands an implementation a host and port: the target's
 * node itself, or a proxy in front of it that counts commands and cuts connections (crash sweeps). The client is a
 * real JedisCluster whose address for the target's node (as CLUSTER SLOTS gives it) is mapped to the host and port
 * handed over, so every connection to the queue's node goes where the suite wants it. Jedis maps its seeds too, so
 * the seeds are the other masters: discovery then never passes through the proxy (a sweep would count its CLUSTER
 * SLOTS, and a proxy serves one connection only).
 */
public final class ClusterClients {
    private ClusterClients() {
    }

    public static JedisCluster to(ClusterSlotTarget target, String host, int port) {
        HostAndPort node = new HostAndPort(target.host(), target.port());
        HostAndPort handed = new HostAndPort(host, port);
        Set<HostAndPort> seeds = new LinkedHashSet<>();
        for (String address : target.nodes()) {
            HostAndPort seed = HostAndPort.from(address);
            if (!seed.equals(node)) {
                seeds.add(seed);
            }
        }
        // No CLIENT SETINFO on connect: the crash sweeps count every command, and it is not part of any operation.
        return new JedisCluster(seeds, DefaultJedisClientConfig.builder()
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED).socketTimeoutMillis(5000)
                .hostAndPortMapper(address -> address.equals(node) ? handed : address).build());
    }
}
