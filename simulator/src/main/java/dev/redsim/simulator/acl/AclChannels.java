package dev.redsim.simulator.acl;

import dev.redsim.simulator.util.GlobMatcher;

import java.util.Arrays;
import java.util.List;

/** Redis's ACLCheckChannelAgainstList: how a channel or subscribed pattern is held against channel rules. */
final class AclChannels {
    private AclChannels() {
    }

    /**
     * A channel is allowed when a rule pattern matches it; a subscribed pattern ({@code literal}) only when it
     * equals a rule, so that a user allowed "news.*" cannot subscribe to "*" and hear everything.
     */
    static boolean allowedBy(List<byte[]> rules, byte[] channel, boolean literal) {
        for (byte[] rule : rules) {
            if (literal ? Arrays.equals(rule, channel) : GlobMatcher.matches(rule, channel, false)) {
                return true;
            }
        }
        return false;
    }
}
