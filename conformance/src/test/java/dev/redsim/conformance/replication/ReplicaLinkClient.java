package dev.redsim.conformance.replication;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A replica as seen from the master's side of the socket, in a few lines of RESP: it announces a listening port,
 * asks for a full synchronisation (PSYNC ? -1, or SYNC, without "capa eof", so both servers send the disk form:
 * "$<length>\r\n" and the RDB), and then reads the replication stream command by command. It never acknowledges
 * unless asked to ({@link #ack}).
 */
public final class ReplicaLinkClient implements AutoCloseable {
    private final Socket socket;
    private final CountingInput in;
    private final OutputStream out;
    private String fullResyncLine;
    private byte[] rdb;
    /** The stream offset of the first byte after the RDB (or after +CONTINUE), and the bytes read by then. */
    private long streamStartOffset;
    private long bytesAtStreamStart;

    /** Counts the bytes read, so that the replica knows its replication offset as a real one does. */
    private static final class CountingInput extends java.io.FilterInputStream {
        long count;

        CountingInput(InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }

    public ReplicaLinkClient(String host, int port) {
        try {
            socket = new Socket();
            socket.connect(new InetSocketAddress(host, port), 5000);
            socket.setSoTimeout(10_000);
            in = new CountingInput(new BufferedInputStream(socket.getInputStream()));
            out = socket.getOutputStream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** REPLCONF listening-port, then PSYNC ? -1: reads "+FULLRESYNC ..." and the RDB payload. */
    public ReplicaLinkClient fullSync(int listeningPort) {
        send("REPLCONF", "listening-port", Integer.toString(listeningPort));
        expectLine("+OK");
        send("PSYNC", "?", "-1");
        fullResyncLine = readLine();
        readRdb();
        streamFrom(Long.parseLong(fullResyncLine.split(" ")[2]));
        return this;
    }

    /** SYNC, the protocol before PSYNC: the payload alone, no +FULLRESYNC line. */
    public ReplicaLinkClient oldSync() {
        send("SYNC");
        readRdb();
        return this;
    }

    /** PSYNC with a replication id and offset: the line the master answers ("+CONTINUE ...", "+FULLRESYNC ..."). */
    public String psync(String replid, long offset, String... capabilities) {
        for (String capa : capabilities) {
            send("REPLCONF", "capa", capa);
            expectLine("+OK");
        }
        send("PSYNC", replid, Long.toString(offset));
        return readLine();
    }

    /** The stream starts here: its next byte has offset {@code offset} + 1. */
    public void streamFrom(long offset) {
        streamStartOffset = offset;
        bytesAtStreamStart = in.count;
    }

    /** The replication offset this replica has processed: the start plus every stream byte read since. */
    public long processedOffset() {
        return streamStartOffset + in.count - bytesAtStreamStart;
    }

    /** The line that answered PSYNC ? -1: "+FULLRESYNC <replid> <offset>". */
    public String fullResyncLine() {
        return fullResyncLine;
    }

    public byte[] rdb() {
        return rdb;
    }

    /** Reads the RDB bulk that follows a FULLRESYNC (after any "\n" keepalives the master sends first). */
    public byte[] readRdb() {
        try {
            int first;
            while ((first = in.read()) == '\n') {
                // keepalive newlines while the master prepares the payload
            }
            if (first != '$') {
                throw new IOException("expected the RDB bulk, got '" + (char) first + "'");
            }
            int length = Integer.parseInt(readLine());
            rdb = in.readNBytes(length);
            if (rdb.length < length) {
                throw new EOFException("short RDB");
            }
            return rdb;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** REPLCONF ACK offset: what a replica sends every second (no reply comes). */
    public void ack(long offset) {
        send("REPLCONF", "ACK", Long.toString(offset));
    }

    /** The next command of the stream, each argument as text (ISO-8859-1, so bytes survive). */
    public List<String> readCommand() {
        try {
            int type = in.read();
            if (type < 0) {
                throw new EOFException("the master closed the link");
            }
            if (type != '*') {
                throw new IOException("expected a command, got '" + (char) type + "'" + readLine());
            }
            int count = Integer.parseInt(readLine());
            List<String> args = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                if (in.read() != '$') {
                    throw new IOException("expected a bulk argument");
                }
                int length = Integer.parseInt(readLine());
                byte[] arg = in.readNBytes(length);
                in.readNBytes(2);
                args.add(new String(arg, StandardCharsets.ISO_8859_1));
            }
            return args;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Raw bytes of the stream (for offsets: every byte counts). */
    public byte[] readBytes(int count) {
        try {
            return in.readNBytes(count);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void setTimeoutMillis(int millis) {
        try {
            socket.setSoTimeout(millis);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** True when nothing arrives within the read timeout. */
    public boolean receivesNothing() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    public void send(String... args) {
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.writeBytes(("*" + args.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            frame.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            frame.writeBytes(bytes);
            frame.writeBytes(new byte[] {'\r', '\n'});
        }
        try {
            out.write(frame.toByteArray());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One line up to CRLF, without it (a status or error reply, a bulk length). */
    public String readLine() {
        try {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            int c;
            while ((c = in.read()) != -1) {
                if (c == '\r') {
                    in.read(); // the \n
                    return line.toString(StandardCharsets.ISO_8859_1);
                }
                line.write(c);
            }
            throw new EOFException("the master closed the link");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void expectLine(String expected) {
        String line = readLine();
        if (!line.equals(expected)) {
            throw new IllegalStateException("expected " + expected + ", got " + line);
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
