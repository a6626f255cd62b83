package dev.redsim.conformance.contracts.conveyor;

/**
 * Finds command boundaries in a client's RESP byte stream, one byte at a time, so a proxy can cut the stream right
 * after the k-th command. Understands multibulk commands (what every client library sends) and inline ones.
 */
public final class RespCommandCounter {
    private final StringBuilder line = new StringBuilder();
    private long bulkRemaining = -1;
    private long bulksLeft;

    /** @return true when this byte ends a command */
    public boolean feed(byte b) {
        if (bulkRemaining >= 0) {
            if (--bulkRemaining == 0) {
                bulkRemaining = -1;
                return --bulksLeft == 0;
            }
            return false;
        }
        if (b != '\n') {
            line.append((char) b);
            return false;
        }
        String header = line.toString().trim();
        line.setLength(0);
        if (header.startsWith("*") && bulksLeft == 0) {
            bulksLeft = Long.parseLong(header.substring(1));
            return bulksLeft <= 0;
        }
        if (header.startsWith("$") && bulksLeft > 0) {
            bulkRemaining = Long.parseLong(header.substring(1)) + 2;
            return false;
        }
        return bulksLeft == 0 && !header.isEmpty();
    }
}
