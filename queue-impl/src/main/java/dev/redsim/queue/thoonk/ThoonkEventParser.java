package dev.redsim.queue.thoonk;

/** Turns a (channel, message) pair of the contract into a {@link ThoonkEvent}; null for other channels. */
public final class ThoonkEventParser {
    private ThoonkEventParser() {
    }

    public static ThoonkEvent parse(String channel, String message) {
        switch (channel) {
            case ThoonkKeys.NEWFEED:
                return new ThoonkEvent.FeedCreated(first(message), second(message));
            case ThoonkKeys.DELFEED:
                return new ThoonkEvent.FeedDeleted(first(message), second(message));
            case ThoonkKeys.CONFFEED:
                return new ThoonkEvent.FeedConfigured(first(message), second(message));
            default:
                break;
        }
        int colon = channel.indexOf(':');
        if (colon < 0) {
            return null;
        }
        String feed = channel.substring(colon + 1);
        switch (channel.substring(0, colon)) {
            case "feed.publish":
                return new ThoonkEvent.Published(feed, first(message), second(message));
            case "feed.edit":
                return new ThoonkEvent.Edited(feed, first(message), second(message));
            case "feed.retract":
                return new ThoonkEvent.Retracted(feed, message);
            case "feed.position":
                return new ThoonkEvent.Positioned(feed, first(message), second(message));
            case "job.finish":
                return new ThoonkEvent.JobFinished(feed, first(message), second(message));
            default:
                return null;
        }
    }

    // Only the first NUL separates: an item or result may itself contain NUL bytes.
    private static String first(String message) {
        int nul = message.indexOf('\u0000');
        return nul < 0 ? message : message.substring(0, nul);
    }

    private static String second(String message) {
        int nul = message.indexOf('\u0000');
        return nul < 0 ? "" : message.substring(nul + 1);
    }
}
