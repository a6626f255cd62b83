package dev.redsim.simulator.commands.common;

import dev.redsim.simulator.protocol.Reply;

/**
 * The HELP reply of a container command: a first line naming the container, then each subcommand's usage
 * followed by its description indented by four spaces, as status lines (the shape Redis's addReplyHelp uses).
 */
public final class HelpText {
    private HelpText() {
    }

    /** @param usageAndText alternating usage lines and descriptions */
    public static void reply(Reply r, String container, String... usageAndText) {
        r.array(usageAndText.length + 1);
        r.simple(container + " <subcommand> [<arg> [value] [opt] ...]. Subcommands are:");
        for (int i = 0; i < usageAndText.length; i++) {
            r.simple(i % 2 == 0 ? usageAndText[i] : "    " + usageAndText[i]);
        }
    }
}
