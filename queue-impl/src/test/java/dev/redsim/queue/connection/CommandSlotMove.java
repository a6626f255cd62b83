package dev.redsim.queue.connection;

import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.params.MigrateParams;

import java.util.ArrayList;
import java.util.List;

/**
 * A slot moved on any cluster (the real one here) by the commands redis-cli --cluster reshard sends, over plain
 * connections to each master: CLUSTER SETSLOT IMPORTING on the target then MIGRATING on the source, CLUSTER
 * GETKEYSINSLOT + MIGRATE ... KEYS batches, then CLUSTER SETSLOT NODE on the target, the source and every other master.
 */
final class CommandSlotMove implements SlotMove {
    private static final int TIMEOUT_MS = 5_000;

    private final int slot;
    private final HostAndPort source;
    private final HostAndPort target;
    private final List<HostAndPort> masters;
    private final String targetId;

    /** Opens the migration of {@code slot} from its owner among {@code masters} to {@code target}. */
    CommandSlotMove(int slot, HostAndPort source, HostAndPort target, List<HostAndPort> masters) {
        this.slot = slot;
        this.source = source;
        this.target = target;
        this.masters = List.copyOf(masters);
        this.targetId = call(target, jedis -> jedis.clusterMyId());
        String sourceId = call(source, jedis -> jedis.clusterMyId());
        call(target, jedis -> jedis.clusterSetSlotImporting(slot, sourceId));
        call(source, jedis -> jedis.clusterSetSlotMigrating(slot, targetId));
    }

    @Override
    public int migrateKeys(int count) {
        return call(source, jedis -> {
            List<String> keys = jedis.clusterGetKeysInSlot(slot, count);
            if (keys.isEmpty()) {
                return 0;
            }
            String reply = jedis.migrate(target.getHost(), target.getPort(), 0, TIMEOUT_MS, new MigrateParams(),
                    keys.toArray(new String[0]));
            if (!"OK".equals(reply)) {
                throw new IllegalStateException("MIGRATE answered " + reply);
            }
            return keys.size();
        });
    }

    @Override
    public void finish() {
        while (migrateKeys(10) > 0) {
            // batch after batch, as redis-cli does, until the slot is empty on the source
        }
        List<HostAndPort> order = new ArrayList<>(List.of(target, source));
        masters.stream().filter(m -> !m.equals(target) && !m.equals(source)).forEach(order::add);
        for (HostAndPort node : order) {
            call(node, jedis -> jedis.clusterSetSlotNode(slot, targetId));
        }
    }

    @Override
    public String source() {
        return source.toString();
    }

    @Override
    public String target() {
        return target.toString();
    }

    private static <T> T call(HostAndPort node, java.util.function.Function<Jedis, T> command) {
        try (Jedis jedis = new Jedis(node.getHost(), node.getPort())) {
            return command.apply(jedis);
        }
    }
}
