package dev.redsim.simulator.command;

/** The body of one command: reads its arguments from the context and writes its reply there. */
@FunctionalInterface
public interface CommandHandler {
    void execute(CommandContext ctx);
}
