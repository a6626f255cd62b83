package dev.redsim.conformance;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.simulator.SlotMigration;

import java.util.ArrayList;
import java.util.List;

/**
 * A slot moving to another node while a test's clients work, the same way on both clusters: on the simulated one
 * through its API ({@link SlotMigration}), on a real one with the commands redis-cli --cluster reshard sends (SETSLOT
 * IMPORTING on the target, MIGRATING on the source, GETKEYSINSLOT and MIGRATE ... KEYS in batches, SETSLOT NODE on the
 * target, the source and the other nodes).
 */
interface SlotMove {
    /** Moves up to {@code count} keys of the slot; returns how many moved. */
    int migrateKeys(int count);

    /** Moves the rest and gives the slot to the target on every node. */
    void finish();

    static SlotMove of(SlotMigration migration) {
        return new SlotMove() {
            @Override
            public int migrateKeys(int count) {
                return migration.migrateKeys(count);
            }

            @Override
            public void finish() {
                migration.finish();
            }
        };
    }

    /** The reshard of one slot on a real cluster, by its commands (nodes in slot order, as {@link ClusterUnderTest}). */
    final class ByCommands implements SlotMove {
        private final String host;
        private final List<Integer> ports;
        private final int slot;
        private final int source;
        private final int target;

        ByCommands(String host, List<Integer> ports, int slot, int source, int target) {
            this.host = host;
            this.ports = ports;
            this.slot = slot;
            this.source = source;
            this.target = target;
            expectOk(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", id(source));
            expectOk(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", id(target));
        }

        private String id(int node) {
            try (RespClient client = new RespClient(host, ports.get(node))) {
                return client.call("CLUSTER", "MYID").text();
            }
        }

        private void expectOk(int node, String... command) {
            try (RespClient client = new RespClient(host, ports.get(node))) {
                RespValue reply = client.call(command);
                if (reply.isError() || !"OK".equals(reply.text())) {
                    throw new IllegalStateException(String.join(" ", command) + " on node " + node + ": " + reply);
                }
            }
        }

        @Override
        public int migrateKeys(int count) {
            List<String> keys = new ArrayList<>();
            try (RespClient client = new RespClient(host, ports.get(source))) {
                for (RespValue key : client.call("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot),
                        Integer.toString(count)).children()) {
                    keys.add(key.text());
                }
            }
            if (keys.isEmpty()) {
                return 0;
            }
            List<String> command = new ArrayList<>(List.of("MIGRATE", host, Integer.toString(ports.get(target)), "",
                    "0", "60000", "KEYS"));
            command.addAll(keys);
            expectOk(source, command.toArray(new String[0]));
            return keys.size();
        }

        @Override
        public void finish() {
            while (migrateKeys(SlotMigration.DEFAULT_BATCH) > 0) {
                // batch after batch until the source holds none of the slot's keys
            }
            String owner = id(target);
            expectOk(target, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", owner);
            expectOk(source, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", owner);
            for (int node = 0; node < ports.size(); node++) {
                if (node != source && node != target) {
                    expectOk(node, "CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", owner);
                }
            }
        }
    }
}
