package dev.redsim.queue.thoonk;

/**
 * Every key and channel name of the thoonk contract, in one place, so that another implementation reading the
 * same Redis finds the same layout. For Redis Cluster, put a hash tag in the feed name (e.g. "{jobs}"): every
 * per-feed key then lands in one slot, which WATCH/MULTI needs.
 */
public final class ThoonkKeys {
    public static final String FEEDS = "feeds";
    public static final String NEWFEED = "newfeed";
    public static final String DELFEED = "delfeed";
    public static final String CONFFEED = "conffeed";

    private final String feed;

    public ThoonkKeys(String feed) {
        this.feed = feed;
    }

    public String feed() {
        return feed;
    }

    public String config() {
        return "feed.config:" + feed;
    }

    public String ids() {
        return "feed.ids:" + feed;
    }

    public String items() {
        return "feed.items:" + feed;
    }

    public String publishes() {
        return "feed.publishes:" + feed;
    }

    public String idIncr() {
        return "feed.idincr:" + feed;
    }

    public String published() {
        return "feed.published:" + feed;
    }

    public String claimed() {
        return "feed.claimed:" + feed;
    }

    public String cancelled() {
        return "feed.cancelled:" + feed;
    }

    public String stalled() {
        return "feed.stalled:" + feed;
    }

    public String finishes() {
        return "feed.finishes:" + feed;
    }

    /** A key in the slot of every key of the feed when its name carries a hash tag (how a cluster client routes). */
    public byte[] slotKey() {
        return ids().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Every key a feed of any kind may own: what Delete Feed removes. */
    public String[] all() {
        return new String[] {config(), ids(), items(), publishes(), idIncr(), published(), claimed(), cancelled(),
            stalled(), finishes()};
    }

    public String publishChannel() {
        return "feed.publish:" + feed;
    }

    public String editChannel() {
        return "feed.edit:" + feed;
    }

    public String retractChannel() {
        return "feed.retract:" + feed;
    }

    public String positionChannel() {
        return "feed.position:" + feed;
    }

    public String finishChannel() {
        return "job.finish:" + feed;
    }

    /** Payload fields are joined by a NUL byte, as the contract's "\x00". */
    static String payload(String first, String second) {
        return first + '\u0000' + second;
    }
}
