package dev.redsim.conformance.scenario;

import java.nio.charset.StandardCharsets;

/**
 * A step written back as one canonical scenario line: its directives in a fixed order, then the command with
 * redis-cli's quoting (as redis-cli's sdscatrepr writes it: printable ASCII as is, \n \r \t \a \b, \" \\, other
 * bytes as \xHH), so the line can be pasted into redis-cli and reads back to the same step. Recordings use it
 * as the key of each reply: a reformatted scenario line still matches, a changed command does not.
 */
public final class StepText {
    private StepText() {
    }

    public static String of(Step step) {
        StringBuilder sb = new StringBuilder();
        if (step.client() != 1) {
            sb.append("@c").append(step.client()).append(' ');
        }
        if (step.node() != null) {
            sb.append(step.node().startsWith("of:") ? "@node-" + step.node() : "@node" + step.node()).append(' ');
        }
        switch (step.io()) {
            case AWAIT_BLOCKED -> {
                return sb.append("@blocked ").append(new String(step.args()[0], StandardCharsets.US_ASCII)).toString();
            }
            case RECEIVE -> {
                return sb.append("@recv").toString();
            }
            default -> {
                // CALL and SEND carry a command, below
            }
        }
        if (step.protocol() != 0) {
            sb.append("@resp").append(step.protocol()).append(' ');
        }
        switch (step.compare()) {
            case SORTED -> sb.append("@sort ");
            case SHAPE -> sb.append("@shape ");
            case IGNORE -> sb.append("@ignore ");
            case APPROX -> sb.append("@approx ").append(step.tolerance()).append(' ');
            default -> {
                // EXACT has no directive
            }
        }
        if (step.io() == Step.Io.SEND) {
            sb.append("@send ");
        }
        for (int i = 0; i < step.args().length; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            quote(sb, step.args()[i]);
        }
        return sb.toString();
    }

    private static void quote(StringBuilder sb, byte[] arg) {
        boolean plain = arg.length > 0;
        for (byte b : arg) {
            plain &= b > 32 && b < 127 && b != '"' && b != '\'' && b != '\\';
        }
        if (plain) {
            sb.append(new String(arg, StandardCharsets.US_ASCII));
            return;
        }
        sb.append('"');
        for (byte b : arg) {
            int c = b & 0xff;
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case 7 -> sb.append("\\a");
                case '\b' -> sb.append("\\b");
                default -> {
                    if (c >= 32 && c < 127) {
                        sb.append((char) c);
                    } else {
                        sb.append(String.format("\\x%02x", c));
                    }
                }
            }
        }
        sb.append('"');
    }
}
