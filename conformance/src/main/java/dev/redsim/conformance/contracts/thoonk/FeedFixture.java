package dev.redsim.conformance.contracts.thoonk;

import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.target.ClusterSlotTarget;
import dev.redsim.conformance.target.RedisTarget;

import java.util.UUID;

/**
 * A fresh job feed for one case: a unique name (cases never see each other's keys, on a shared target), the
 * suite's own inspection client, and removal of the feed's keys at the end. On a cluster target the name starts
 * with the target's hash tag, so the feed's keys live on the target's node, where the suite reads them.
 */
final class FeedFixture implements AutoCloseable {
    private static final String[] FAMILIES = {"feed.config:", "feed.ids:", "feed.items:", "feed.publishes:",
        "feed.idincr:", "feed.published:", "feed.claimed:", "feed.cancelled:", "feed.stalled:", "feed.finishes:"};

    final String feed;
    final RespClient inspector;

    FeedFixture(RedisTarget target) {
        String tag = target instanceof ClusterSlotTarget cluster ? "{" + cluster.hashTag() + "}" : "";
        this.feed = tag + "suite-" + UUID.randomUUID();
        this.inspector = new RespClient(target.host(), target.port());
    }

    JobState state() {
        return JobState.read(inspector, feed);
    }

    @Override
    public void close() {
        String[] del = new String[FAMILIES.length + 1];
        del[0] = "DEL";
        for (int i = 0; i < FAMILIES.length; i++) {
            del[i + 1] = FAMILIES[i] + feed;
        }
        inspector.call(del);
        inspector.close();
    }
}
