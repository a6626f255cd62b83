package dev.redsim.simulator.command;

import dev.redsim.simulator.intercept.CallOutcome;
import dev.redsim.simulator.intercept.CommandInterceptor;
import dev.redsim.simulator.intercept.InterceptedCall;
import dev.redsim.simulator.protocol.Reply;
import dev.redsim.simulator.server.ClientConnection;

/**
 * Puts a command a client sent through the user's {@link CommandInterceptor} and carries out its decision. Only
 * reached when an interceptor is installed: the engine's dispatch tests one field for null otherwise.
 */
final class Interception {
    private Interception() {
    }

    /** Returns true when the interceptor dealt with the call (answered or cut it), so the command must not run. */
    static boolean handled(CommandInterceptor interceptor, ClientConnection client, byte[][] args) {
        CallOutcome outcome;
        try {
            outcome = interceptor.intercept(new Call(client, args));
        } catch (RuntimeException bug) {
            // A broken interceptor must not take the connection down with it: its client gets an error it can see.
            bug.printStackTrace();
            client.reply().error("ERR redsim command interceptor failed: " + bug);
            return true;
        }
        if (outcome == null) {
            client.reply().error("ERR redsim command interceptor returned null (use CallOutcome.proceed())");
            return true;
        }
        Reply reply = client.reply();
        switch (outcome.kind()) {
            case PROCEED -> {
                return false;
            }
            case RUN_THEN_DISCONNECT -> {
                // The command runs with its reply switched off (as CLIENT REPLY OFF does), then the connection
                // closes once the replies written before it are flushed.
                reply.enabled(false);
                client.closeAfterReply(true);
                return false;
            }
            case DISCONNECT -> client.closeAfterReply(true);
            case STATUS -> reply.simple(outcome.text());
            case ERROR -> reply.error(outcome.text());
            case BULK -> reply.bulk(outcome.bytes());
            case INTEGER -> reply.integer(outcome.number());
            case NULL -> reply.nullBulk();
            case RAW -> reply.raw(outcome.bytes());
        }
        return true;
    }

    /** The call as the interceptor sees it: a view of the client and the arguments, copied only when asked for. */
    private record Call(ClientConnection client, byte[][] argv) implements InterceptedCall {
        @Override
        public long clientId() {
            return client.id();
        }

        @Override
        public String clientName() {
            return client.name();
        }

        @Override
        public int db() {
            return client.db();
        }

        @Override
        public int protocol() {
            return client.protocol();
        }

        @Override
        public String name() {
            return CommandTable.lowerAscii(argv[0]);
        }

        @Override
        public int argCount() {
            return argv.length - 1;
        }

        @Override
        public byte[] arg(int index) {
            return argv[index + 1].clone();
        }
    }
}
