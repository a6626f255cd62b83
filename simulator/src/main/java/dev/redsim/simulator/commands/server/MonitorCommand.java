package dev.redsim.simulator.commands.server;

import dev.redsim.simulator.command.CommandContext;
import dev.redsim.simulator.command.CommandFamily;
import dev.redsim.simulator.command.CommandTable;

/**
 * MONITOR: from now on the client receives a line for every command any client runs (see
 * {@link dev.redsim.simulator.engine.Monitors}); RESET, QUIT or a disconnection end it.
 */
public final class MonitorCommand implements CommandFamily {
    @Override
    public void register(CommandTable t) {
        t.handler("monitor", ctx -> monitor(ctx));
    }

    private static void monitor(CommandContext ctx) {
        if (!ctx.engine().monitors().isMonitor(ctx.client())) { // a second MONITOR changes nothing, as in Redis
            ctx.engine().monitors().add(ctx.client());
            ctx.reply().ok();
        }
    }
}
