package dev.redsim.queue.rescue;

import java.time.Instant;

/**
 * One run of a task, as a {@link RescueWorker} hands it to its handler.
 *
 * @param task     the task as delivered (Core holds worker, expiry, cycles); its object id is {@link #id()}
 * @param attempt  the delivery count (Core's cycles: 1 for the first delivery, +1 after each expired ownership);
 *                 1 for broadcast ("all") tasks
 * @param deadline when ownership expires unless the heartbeat renews it (it does while the handler runs); null
 *                 for broadcast tasks, which are never owned
 */
public record RescueRun(Task task, int attempt, Instant deadline) {
    public String id() {
        return task.core().get(Labels.OBJECT);
    }
}
