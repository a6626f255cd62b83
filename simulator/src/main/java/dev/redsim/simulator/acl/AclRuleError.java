package dev.redsim.simulator.acl;

/**
 * A rule of ACL SETUSER (or of a line of the ACL file) that cannot be applied, with the reason Redis gives for
 * it (ACLSetUserStringError). Nothing of the rules given with it is applied.
 */
final class AclRuleError extends Exception {
    enum Reason {
        SYNTAX("Syntax error"),
        UNKNOWN_COMMAND("Unknown command or category name in ACL"),
        KEY_AFTER_ALLKEYS("Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not "
                + "have any effect. Try 'resetkeys' to start with an empty list of patterns"),
        CHANNEL_AFTER_ALLCHANNELS("Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and "
                + "does not have any effect. Try 'resetchannels' to start with an empty list of channels"),
        NO_SUCH_PASSWORD("The password you are trying to remove from the user does not exist"),
        BAD_HASH("The password hash must be exactly 64 characters and contain only lowercase hexadecimal "
                + "characters"),
        FIRST_ARG_OF_SUBCOMMAND("Allowing first-arg of a subcommand is not supported");

        final String text;

        Reason(String text) {
            this.text = text;
        }
    }

    final Reason reason;

    AclRuleError(Reason reason) {
        super(reason.text, null, false, false);
        this.reason = reason;
    }
}
