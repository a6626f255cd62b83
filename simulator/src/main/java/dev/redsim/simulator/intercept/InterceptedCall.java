package dev.redsim.simulator.intercept;

import java.util.ArrayList;
import java.util.List;

/** A command a client sent, as a {@link CommandInterceptor} sees it: who sent it, and its name and arguments. */
public interface InterceptedCall {
    /** The client's id, as CLIENT ID and CLIENT LIST show it. */
    long clientId();

    /** The client's name (CLIENT SETNAME), empty when it has none. */
    String clientName();

    /** The client's selected database. */
    int db();

    /** The client's protocol, 2 or 3 (HELLO): what a {@link CallOutcome#raw raw} reply must be written in. */
    int protocol();

    /** The command's name as sent, in lower case ("set", "client", "evalsha"). */
    String name();

    /** How many arguments follow the name. */
    int argCount();

    /** An argument after the name (0 is the first), as the client sent its bytes. */
    byte[] arg(int index);

    /** Whether this is the named command (case does not matter). */
    default boolean is(String command) {
        return name().equalsIgnoreCase(command);
    }

    /** An argument as UTF-8 text. */
    default String argString(int index) {
        return dev.redsim.simulator.util.ByteText.decode(arg(index));
    }

    /** Every argument after the name, as UTF-8 text. */
    default List<String> args() {
        List<String> args = new ArrayList<>(argCount());
        for (int i = 0; i < argCount(); i++) {
            args.add(argString(i));
        }
        return args;
    }
}
