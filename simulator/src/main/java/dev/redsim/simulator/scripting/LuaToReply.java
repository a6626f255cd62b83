package dev.redsim.simulator.scripting;

import dev.redsim.simulator.protocol.Reply;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

import java.nio.charset.StandardCharsets;

/**
 * A script's return value written to the calling client in its own protocol, with Redis's conversion table:
 * numbers truncated to integers, strings as bulk, tables as arrays up to the first nil, and the {err=}, {ok=},
 * {double=}, {big_number=}, {map=}, {set=}, {verbatim_string=} forms.
 */
final class LuaToReply {
    private LuaToReply() {
    }

    /**
     * Writes one value. {@code scriptResp} is the protocol the script chose with redis.setresp: like Redis, it
     * decides how Lua booleans are answered.
     */
    static void write(Reply reply, LuaValue value, int scriptResp) {
        switch (value.type()) {
            case LuaValue.TSTRING -> {
                LuaString s = (LuaString) value.strvalue();
                reply.bulk(s.m_bytes, s.m_offset, s.m_length);
            }
            case LuaValue.TNUMBER -> reply.integer(LuaNumbers.toInteger(value.todouble()));
            case LuaValue.TBOOLEAN -> writeBoolean(reply, value.toboolean(), scriptResp);
            case LuaValue.TTABLE -> writeTable(reply, (LuaTable) value, scriptResp);
            default -> reply.nullBulk();
        }
    }

    private static void writeBoolean(Reply reply, boolean value, int scriptResp) {
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

    private static void writeTable(Reply reply, LuaTable table, int scriptResp) {
        LuaValue err = table.rawget("err");
        if (err.type() == LuaValue.TSTRING) {
            reply.error(err.tojstring());
            return;
        }
        LuaValue ok = table.rawget("ok");
        if (ok.type() == LuaValue.TSTRING) {
            reply.simple(ok.tojstring().replace('\r', ' ').replace('\n', ' '));
            return;
        }
        LuaValue dbl = table.rawget("double");
        if (dbl.type() == LuaValue.TNUMBER) {
            reply.doubleValue(dbl.todouble());
            return;
        }
        LuaValue big = table.rawget("big_number");
        if (big.type() == LuaValue.TSTRING) {
            writeBigNumber(reply, big.tojstring());
            return;
        }
        LuaValue map = table.rawget("map");
        if (map.type() == LuaValue.TTABLE) {
            writeMap(reply, (LuaTable) map, scriptResp);
            return;
        }
        LuaValue set = table.rawget("set");
        if (set.type() == LuaValue.TTABLE) {
            writeSet(reply, (LuaTable) set, scriptResp);
            return;
        }
        LuaValue verbatim = table.rawget("verbatim_string");
        if (verbatim.type() == LuaValue.TTABLE) {
            LuaValue format = verbatim.get("format");
            LuaValue string = verbatim.get("string");
            if (format.type() == LuaValue.TSTRING && string.type() == LuaValue.TSTRING) {
                writeVerbatim(reply, format.tojstring(), string.tojstring());
                return;
            }
        }
        writeArray(reply, table, scriptResp);
    }

    private static void writeArray(Reply reply, LuaTable table, int scriptResp) {
        int length = 0;
        while (!table.rawget(length + 1).isnil()) {
            length++;
        }
        reply.array(length);
        for (int i = 1; i <= length; i++) {
            write(reply, table.rawget(i), scriptResp);
        }
    }

    private static void writeMap(Reply reply, LuaTable map, int scriptResp) {
        reply.map(count(map));
        for (Varargs entry = map.next(LuaValue.NIL); !entry.arg1().isnil(); entry = map.next(entry.arg1())) {
            write(reply, entry.arg1(), scriptResp);
            write(reply, entry.arg(2), scriptResp);
        }
    }

    private static void writeSet(Reply reply, LuaTable set, int scriptResp) {
        reply.set(count(set));
        for (Varargs entry = set.next(LuaValue.NIL); !entry.arg1().isnil(); entry = set.next(entry.arg1())) {
            write(reply, entry.arg1(), scriptResp);
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
    private static void writeBigNumber(Reply reply, String digits) {
        if (reply.resp3()) {
            reply.raw(("(" + digits.replace('\r', ' ').replace('\n', ' ') + "\r\n").getBytes(StandardCharsets.UTF_8));
        } else {
            reply.bulk(digits);
        }
    }

    private static void writeVerbatim(Reply reply, String format, String text) {
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
