package dev.redsim.simulator.keyspace;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The ring buffer behind lists, checked against a plain ArrayList over random operation sequences. */
class ListValueTest {
    @Test
    void encodingIsQuicklistAsInRedis70() {
        assertThat(new ListValue().encoding()).isEqualTo("quicklist");
    }

    @Test
    void behavesAsAnArrayListUnderRandomOperations() {
        for (long seed = 1; seed <= 50; seed++) {
            Random random = new Random(seed);
            ListValue list = new ListValue();
            List<String> model = new ArrayList<>();
            for (int step = 0; step < 400; step++) {
                String value = Integer.toString(random.nextInt(5));
                int op = random.nextInt(8);
                switch (op) {
                    case 0 -> { list.push(true, value.getBytes()); model.add(0, value); }
                    case 1 -> { list.push(false, value.getBytes()); model.add(value); }
                    case 2 -> {
                        boolean head = random.nextBoolean();
                        byte[] popped = list.pop(head);
                        if (model.isEmpty()) {
                            assertThat(popped).isNull();
                        } else {
                            String expected = head ? model.remove(0) : model.remove(model.size() - 1);
                            assertThat(new String(popped)).isEqualTo(expected);
                        }
                    }
                    case 3 -> {
                        int at = random.nextInt(model.size() + 1);
                        list.insertAt(at, value.getBytes());
                        model.add(at, value);
                    }
                    case 4 -> {
                        long limit = random.nextInt(3);
                        boolean fromTail = random.nextBoolean();
                        int removed = list.removeMatching(value.getBytes(), limit, fromTail);
                        assertThat(removed).isEqualTo(removeFromModel(model, value, limit, fromTail));
                    }
                    case 5 -> {
                        if (!model.isEmpty()) {
                            int start = random.nextInt(model.size());
                            int end = start + random.nextInt(model.size() - start);
                            list.trim(start, end);
                            List<String> kept = new ArrayList<>(model.subList(start, end + 1));
                            model.clear();
                            model.addAll(kept);
                        }
                    }
                    case 6 -> {
                        if (!model.isEmpty()) {
                            int at = random.nextInt(model.size());
                            list.set(at, value.getBytes());
                            model.set(at, value);
                        }
                    }
                    default -> {
                        if (random.nextInt(20) == 0) {
                            list.trim(0, -1);
                            model.clear();
                        }
                    }
                }
                assertThat(contents(list)).as("seed %d step %d", seed, step).isEqualTo(model);
            }
        }
    }

    private static int removeFromModel(List<String> model, String value, long limit, boolean fromTail) {
        int removed = 0;
        if (fromTail) {
            for (int i = model.size() - 1; i >= 0 && (limit == 0 || removed < limit); i--) {
                if (model.get(i).equals(value)) {
                    model.remove(i);
                    removed++;
                }
            }
        } else {
            for (int i = 0; i < model.size() && (limit == 0 || removed < limit); ) {
                if (model.get(i).equals(value)) {
                    model.remove(i);
                    removed++;
                } else {
                    i++;
                }
            }
        }
        return removed;
    }

    private static List<String> contents(ListValue list) {
        String[] out = new String[list.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = new String(list.get(i));
        }
        return Arrays.asList(out);
    }
}
