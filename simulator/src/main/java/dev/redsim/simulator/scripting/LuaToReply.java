package dev.redsim.simulator.scripting;

import dev.redsim.simulator.protocol.Reply;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * A script's return value written to the calling client in its own protocol, with Redis's conversion table:
 * numbers truncated to integers, strings as bulk, tables as arrays up to the first nil, and the {err=}, {ok=},
 * {double=}, {big_number=}, {map=}, {set=}, {verbatim_string=} forms.
 *
 * <p>Nesting is an explicit stack, not Java recursion: a table may contain itself, and conversion may run on the
 * engine thread, whose stack is small. Redis converts recursively on the Lua stack and stops where
 * lua_checkstack(4) fails (LUAI_MAXCSTACK slots): that element becomes "-ERR reached lua stack limit" and the
 * rest of the reply goes on. The slots each nesting takes are counted here as Redis's conversion pushes them, so
 * the reply is the same, element for element.
 */
final class LuaToReply {
    /** Lua 5.1's LUAI_MAXCSTACK: the slots a C function may use. */
    private static final int MAX_SLOTS = 8000;
    /** luaReplyToRedisReply checks for this many free slots before it converts a value. */
    private static final int SLOTS_NEEDED = 4;
    /** In use when the script's result is converted: Redis's error handler, then the result itself. */
    private static final int ROOT_SLOTS = 2;
    static final String STACK_LIMIT = "ERR reached lua stack limit";
    // the fields of the reply tables, as Lua strings made once (a look-up by a Java String converts it each time)
    private static final LuaString ERR = LuaString.valueOf("err");
    private static final LuaString OK = LuaString.valueOf("ok");
    private static final LuaString DOUBLE = LuaString.valueOf("double");
    private static final LuaString BIG_NUMBER = LuaString.valueOf("big_number");
    private static final LuaString MAP = LuaString.valueOf("map");
    private static final LuaString SET = LuaString.valueOf("set");
    private static final LuaString VERBATIM = LuaString.valueOf("verbatim_string");

    private final Reply reply;
    private final int scriptResp;
    /** Counts an error reply the conversion writes in INFO errorstats (Redis's afterErrorReply). */
    private final Consumer<String> errorCounter;
    private final ArrayDeque<Nesting> open = new ArrayDeque<>();

    private LuaToReply(Reply reply, int scriptResp, Consumer<String> errorCounter) {
        this.reply = reply;
        this.scriptResp = scriptResp;
        this.errorCounter = errorCounter;
    }

    /**
     * Writes one value. {@code scriptResp} is the protocol the script chose with redis.setresp: like Redis, it
     * decides how Lua booleans are answered. Each error reply written is counted with {@code errorCounter}, except an
     * error table that carries Redis's ignore_error_stats_update mark (counted where redis.call met it).
     */
    static void write(Reply reply, LuaValue value, int scriptResp, Consumer<String> errorCounter) {
        LuaToReply conversion = new LuaToReply(reply, scriptResp, errorCounter);
        conversion.convert(value, ROOT_SLOTS);
        while (!conversion.open.isEmpty()) {
            Nesting nesting = conversion.open.peek();
            if (!nesting.writeNext(conversion)) {
                conversion.open.pop();
            }
        }
    }

    /** Converts a value that sits in Lua stack slot {@code slots} (counting from 1) of the conversion. */
    private void convert(LuaValue value, int slots) {
        if (slots + SLOTS_NEEDED > MAX_SLOTS) {
            errorCounter.accept(STACK_LIMIT);
            reply.error(STACK_LIMIT);
            return;
        }
        switch (value.type()) {
            case LuaValue.TSTRING -> {
                LuaString s = (LuaString) value.strvalue();
                reply.bulk(s.m_bytes, s.m_offset, s.m_length);
            }
            case LuaValue.TNUMBER -> reply.integer(LuaNumbers.toInteger(value.todouble()));
            case LuaValue.TBOOLEAN -> writeBoolean(value.toboolean());
            case LuaValue.TTABLE -> writeTable((LuaTable) value, slots);
            default -> reply.nullBulk();
        }
    }

    private void writeBoolean(boolean value) {
        if (scriptResp == 2) {
            if (value) {
                reply.integer(1);
            } else {
                reply.nullBulk();
            }
        } else {
            reply.bool(value);
        }
    }

    private void writeTable(LuaTable table, int slots) {
        LuaValue err = table.rawget(ERR);
        if (err.type() == LuaValue.TSTRING) {
            if (!table.rawget(RespToLua.IGNORE_ERROR_STATS).toboolean()) {
                errorCounter.accept(err.tojstring());
            }
            reply.error(err.tojstring());
            return;
        }
        LuaValue ok = table.rawget(OK);
        if (ok.type() == LuaValue.TSTRING) {
            reply.simple(ok.tojstring().replace('\r', ' ').replace('\n', ' '));
            return;
        }
        LuaValue dbl = table.rawget(DOUBLE);
        if (dbl.type() == LuaValue.TNUMBER) {
            reply.doubleValue(dbl.todouble());
            return;
        }
        LuaValue big = table.rawget(BIG_NUMBER);
        if (big.type() == LuaValue.TSTRING) {
            writeBigNumber(big.tojstring());
            return;
        }
        LuaValue map = table.rawget(MAP);
        if (map.type() == LuaValue.TTABLE) {
            reply.map(count((LuaTable) map));
            open.push(new MapNesting((LuaTable) map, slots));
            return;
        }
        LuaValue set = table.rawget(SET);
        if (set.type() == LuaValue.TTABLE) {
            reply.set(count((LuaTable) set));
            open.push(new SetNesting((LuaTable) set, slots));
            return;
        }
        LuaValue verbatim = table.rawget(VERBATIM);
        if (verbatim.type() == LuaValue.TTABLE) {
            LuaValue format = verbatim.get("format");
            LuaValue string = verbatim.get("string");
            if (format.type() == LuaValue.TSTRING && string.type() == LuaValue.TSTRING) {
                writeVerbatim(format.tojstring(), string.tojstring());
                return;
            }
        }
        int length = 0;
        while (!table.rawget(length + 1).isnil()) {
            length++;
        }
        reply.array(length);
        open.push(new ArrayNesting(table, length, slots));
    }

    /** A table whose elements are being written; each writes one element at a time. */
    private interface Nesting {
        /** Writes the next element (opening its own nesting when it is a table); false when none is left. */
        boolean writeNext(LuaToReply conversion);
    }

    /** Array elements 1..length: Redis pushes each element above the table. */
    private static final class ArrayNesting implements Nesting {
        private final LuaTable table;
        private final int length;
        private final int slots;
        private int index = 1;

        ArrayNesting(LuaTable table, int length, int slots) {
            this.table = table;
            this.length = length;
            this.slots = slots;
        }

        @Override
        public boolean writeNext(LuaToReply conversion) {
            if (index > length) {
                return false;
            }
            conversion.convert(table.rawget(index++), slots + 1);
            return true;
        }
    }

    /**
     * Map pairs: above the table Redis holds the map, the iteration's key and value; it converts a copy of the key
     * (one slot higher still), then the value.
     */
    private static final class MapNesting implements Nesting {
        private final LuaTable map;
        private final int slots;
        private Varargs entry;
        private boolean valueDue;

        MapNesting(LuaTable map, int slots) {
            this.map = map;
            this.slots = slots;
            this.entry = map.next(LuaValue.NIL);
        }

        @Override
        public boolean writeNext(LuaToReply conversion) {
            if (entry.arg1().isnil()) {
                return false;
            }
            if (!valueDue) {
                valueDue = true;
                conversion.convert(entry.arg1(), slots + 4);
            } else {
                valueDue = false;
                Varargs current = entry;
                entry = map.next(current.arg1());
                conversion.convert(current.arg(2), slots + 3);
            }
            return true;
        }
    }

    /** Set members: above the table Redis holds the set and the iteration's key, and converts a copy of the key. */
    private static final class SetNesting implements Nesting {
        private final LuaTable set;
        private final int slots;
        private Varargs entry;

        SetNesting(LuaTable set, int slots) {
            this.set = set;
            this.slots = slots;
            this.entry = set.next(LuaValue.NIL);
        }

        @Override
        public boolean writeNext(LuaToReply conversion) {
            if (entry.arg1().isnil()) {
                return false;
            }
            LuaValue member = entry.arg1();
            entry = set.next(member);
            conversion.convert(member, slots + 3);
            return true;
        }
    }

    private static int count(LuaTable table) {
        int n = 0;
        for (Varargs entry = table.next(LuaValue.NIL); !entry.arg1().isnil(); entry = table.next(entry.arg1())) {
            n++;
        }
        return n;
    }

    /** RESP3 big number; RESP2 clients get it as a bulk string. */
    private void writeBigNumber(String digits) {
        if (reply.resp3()) {
            reply.raw(("(" + digits.replace('\r', ' ').replace('\n', ' ') + "\r\n").getBytes(StandardCharsets.UTF_8));
        } else {
            reply.bulk(digits);
        }
    }

    private void writeVerbatim(String format, String text) {
        if (!reply.resp3()) {
            reply.bulk(text);
            return;
        }
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        String header = "=" + (body.length + 4) + "\r\n" + (format + "   ").substring(0, 3) + ":";
        reply.raw(header.getBytes(StandardCharsets.US_ASCII));
        reply.raw(body);
        reply.raw(new byte[] {'\r', '\n'});
    }
}
