package dev.redsim.queue.rescue;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

/** What Create accepts, and how it completes a task before storing it (managed Core, cron ticks). */
final class TaskRules {
    private static final Set<String> METHODS = Set.of(Labels.ANY, Labels.ALL, Labels.UNI);

    private TaskRules() {
    }

    /** @throws InvalidTaskException when the task breaks a rule */
    static Task prepare(Task task, Instant now) {
        if (task.meta().isEmpty()) {
            throw new InvalidTaskException("a task needs Meta labels for a worker to recognise it");
        }
        checkGate(task.gate());
        checkNode(task.node());
        // Core is managed by the engine: whatever the producer put there is replaced.
        Task prepared = task.with(Task.Section.CORE, Map.of());
        if (!task.cron().isEmpty()) {
            if (!task.gate().isEmpty()) {
                throw new InvalidTaskException("a template has either Cron or Gate, not both");
            }
            String every = task.cron().get(Labels.EVERY);
            if (every == null || task.cron().size() != 1) {
                throw new InvalidTaskException("Cron takes exactly one label, " + Labels.EVERY);
            }
            Cron cron = Cron.parse(every);
            prepared = prepared.withLabel(Task.Section.CRON, Labels.TICK_PREVIOUS, Cron.format(cron.previous(now)))
                    .withLabel(Task.Section.CRON, Labels.TICK_NEXT, Cron.format(cron.next(now)));
        }
        return prepared;
    }

    /** A gate is all "waiting" (a template) or all "trigger" (a dependency task); "deleted" is ours to write. */
    private static void checkGate(Map<String, String> gate) {
        if (gate.isEmpty()) {
            return;
        }
        long waiting = gate.values().stream().filter(Labels.WAITING::equals).count();
        long trigger = gate.values().stream().filter(Labels.TRIGGER::equals).count();
        if (waiting != gate.size() && trigger != gate.size()) {
            throw new InvalidTaskException("Gate values must be all \"waiting\" or all \"trigger\": " + gate);
        }
        if (gate.containsKey(Labels.WILDCARD)) {
            throw new InvalidTaskException("a Gate label key cannot be the wildcard");
        }
    }

    private static void checkNode(Map<String, String> node) {
        String method = node.getOrDefault(Labels.METHOD, Labels.ANY);
        if (!METHODS.contains(method)) {
            throw new InvalidTaskException("unknown delivery method " + method);
        }
        if (method.equals(Labels.UNI) != node.containsKey(Labels.WORKER)) {
            throw new InvalidTaskException("\"uni\" needs " + Labels.WORKER + " in Node, and only \"uni\" takes one");
        }
    }
}
