package dev.redsim.queue.thoonk;

/** A thoonk channel message, parsed. */
public sealed interface ThoonkEvent {
    record FeedCreated(String feed, String instance) implements ThoonkEvent {
    }

    record FeedDeleted(String feed, String instance) implements ThoonkEvent {
    }

    record FeedConfigured(String feed, String instance) implements ThoonkEvent {
    }

    record Published(String feed, String id, String item) implements ThoonkEvent {
    }

    record Edited(String feed, String id, String item) implements ThoonkEvent {
    }

    record Retracted(String feed, String id) implements ThoonkEvent {
    }

    /** @param position ":end", "begin:", ":id" (before id) or "id:" (after id) */
    record Positioned(String feed, String id, String position) implements ThoonkEvent {
    }

    /** A job finished with a result (finishes without a result publish nothing). */
    record JobFinished(String feed, String id, String result) implements ThoonkEvent {
    }
}
