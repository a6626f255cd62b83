package dev.redsim.conformance.differential;

import dev.redsim.conformance.property.Gen;

import java.util.ArrayList;
import java.util.List;

import static dev.redsim.conformance.differential.Vocabulary.KEY;
import static dev.redsim.conformance.differential.Vocabulary.VALUE;
import static dev.redsim.conformance.differential.Vocabulary.call;
import static dev.redsim.conformance.differential.Vocabulary.options;
import static dev.redsim.conformance.differential.Vocabulary.variadic;
import static dev.redsim.conformance.differential.Vocabulary.withOptions;

/**
 * The calls of the STREAMS family: entries with explicit IDs only (an ID taken from a server's clock would differ
 * between the two servers), consumer groups read, claimed and acknowledged, and the XINFO views. Blocking appears
 * only with a 1 ms timeout, which either answers at once or times out on both servers; min-idle-times are 0 or an
 * hour, so whether an entry qualifies never depends on timing. Idle and delivery times in replies are blanked
 * ({@link Comparisons}).
 */
final class StreamCalls {
    /** IDs XADD is given: growing ones, "ms-*", the largest, and invalid ones. */
    private static final Gen<String> ADD_ID = Gen.elements("1", "1-1", "2", "2-0", "3", "3-5", "5-*", "7-*", "8", "10",
            "0-0", "0-1", "1-*", "x", "18446744073709551615-18446744073709551615", "18446744073709551615-*");
    /** IDs of existing-looking entries, for XDEL, XACK, XCLAIM, MINID. */
    private static final Gen<String> ID = Gen.elements("1", "1-1", "2", "2-0", "3", "3-5", "5-0", "7-0", "8", "10",
            "0-1", "x", "-", "+");
    private static final Gen<String> START = Gen.elements("-", "+", "0", "1", "(1", "2-0", "(2", "5", "x", "(0-0");
    private static final Gen<String> END = Gen.elements("+", "-", "3", "(3", "5-5", "(10", "x", "1-1");
    private static final Gen<String> READ_ID = Gen.elements("0", "1", "2-0", "5", "$", "x");
    private static final Gen<String> GROUP_READ_ID = Gen.elements(">", ">", ">", "0", "2", "$");
    private static final Gen<String> FIELD = Gen.elements("f", "g", "");
    private static final Gen<String> GROUP = Gen.elements("g1", "g2");
    private static final Gen<String> CONSUMER = Gen.elements("c1", "c2", "");
    private static final Gen<String> COUNT = Gen.elements("0", "1", "2", "5", "-1", "x");
    private static final Gen<String> MIN_IDLE = Gen.elements("0", "0", "3600000", "x");

    private StreamCalls() {
    }

    static List<Gen<String[]>> calls() {
        return List.of(
                variadic("XADD", List.of(KEY, ADD_ID), 2, FIELD, VALUE),
                variadic("XADD", List.of(KEY, ADD_ID), 1, FIELD, VALUE),
                addWithOptions(),
                call("XLEN", KEY),
                withOptions(call("XRANGE", KEY, START, END), options("COUNT 2")),
                withOptions(call("XREVRANGE", KEY, END, START), options("COUNT 1")),
                call("XRANGE", KEY, START, END, Gen.constant("COUNT"), COUNT),
                variadic("XDEL", List.of(KEY), 3, ID),
                trim(),
                withOptions(call("XSETID", KEY, ADD_ID), options("ENTRIESADDED 9", "MAXDELETEDID 2")),
                append(withOptions(call("XREAD"), options("COUNT 1")), Gen.constant("STREAMS"), KEY, READ_ID),
                twoStreams("XREAD", List.of()),
                call("XREAD", Gen.constant("BLOCK"), Gen.constant("1"), Gen.constant("STREAMS"), KEY, READ_ID),
                append(withOptions(call("XREADGROUP", Gen.constant("GROUP"), GROUP, CONSUMER),
                        options("COUNT 1", "NOACK")), Gen.constant("STREAMS"), KEY, GROUP_READ_ID),
                twoStreams("XREADGROUP", List.of("GROUP", "g1", "c1")),
                call("XREADGROUP", Gen.constant("GROUP"), GROUP, CONSUMER, Gen.constant("BLOCK"), Gen.constant("1"),
                        Gen.constant("STREAMS"), KEY, Gen.constant(">")),
                withOptions(call("XGROUP", Gen.constant("CREATE"), KEY, GROUP, Gen.elements("0", "$", "2", "x")),
                        options("MKSTREAM", "ENTRIESREAD 1")),
                withOptions(call("XGROUP", Gen.constant("SETID"), KEY, GROUP, Gen.elements("0", "$", "1", "-")),
                        options("ENTRIESREAD 2")),
                call("XGROUP", Gen.constant("DESTROY"), KEY, GROUP),
                call("XGROUP", Gen.constant("CREATECONSUMER"), KEY, GROUP, CONSUMER),
                call("XGROUP", Gen.constant("DELCONSUMER"), KEY, GROUP, CONSUMER),
                variadic("XACK", List.of(KEY, GROUP), 3, ID),
                call("XPENDING", KEY, GROUP),
                append(withOptions(call("XPENDING", KEY, GROUP), options("IDLE 0")), START, END, COUNT),
                call("XPENDING", KEY, GROUP, START, END, COUNT, CONSUMER),
                withOptions(variadic("XCLAIM", List.of(KEY, GROUP, CONSUMER, MIN_IDLE), 3, ID),
                        options("IDLE 1000", "RETRYCOUNT 3", "FORCE", "JUSTID", "LASTID 5")),
                withOptions(call("XAUTOCLAIM", KEY, GROUP, CONSUMER, MIN_IDLE, START),
                        options("COUNT 2", "JUSTID")),
                call("XINFO", Gen.constant("STREAM"), KEY),
                withOptions(call("XINFO", Gen.constant("STREAM"), KEY, Gen.constant("FULL")), options("COUNT 1")),
                call("XINFO", Gen.constant("GROUPS"), KEY),
                call("XINFO", Gen.constant("CONSUMERS"), KEY, GROUP),
                call("TYPE", KEY), call("DEL", KEY), call("EXISTS", KEY));
    }

    /** A call followed by more generated arguments. */
    @SafeVarargs
    private static Gen<String[]> append(Gen<String[]> base, Gen<String>... more) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(base.next(random)));
            for (Gen<String> arg : more) {
                all.add(arg.next(random));
            }
            return all.toArray(new String[0]);
        };
    }

    /** XADD key [NOMKSTREAM] [MAXLEN|MINID [=|~] n [LIMIT n]] id field value. */
    private static Gen<String[]> addWithOptions() {
        Gen<List<String>> trimming = Gen.elements(List.of(), List.of("NOMKSTREAM"), List.of("MAXLEN", "2"),
                List.of("MAXLEN", "~", "1"), List.of("MAXLEN", "=", "0"), List.of("MINID", "3"),
                List.of("MINID", "~", "2"), List.of("MAXLEN", "~", "1", "LIMIT", "1"), List.of("LIMIT", "1"),
                List.of("NOMKSTREAM", "MAXLEN", "1"));
        return random -> {
            List<String> all = new ArrayList<>(List.of("XADD", KEY.next(random)));
            all.addAll(trimming.next(random));
            all.add(ADD_ID.next(random));
            all.add(FIELD.next(random));
            all.add(VALUE.next(random));
            return all.toArray(new String[0]);
        };
    }

    /** XTRIM key MAXLEN|MINID [=|~] threshold [LIMIT n]. */
    private static Gen<String[]> trim() {
        Gen<List<String>> strategy = Gen.elements(List.of("MAXLEN", "1"), List.of("MAXLEN", "~", "0"),
                List.of("MAXLEN", "=", "2"), List.of("MINID", "3"), List.of("MINID", "~", "5"),
                List.of("MAXLEN", "~", "0", "LIMIT", "2"), List.of("MAXLEN", "1", "LIMIT", "1"), List.of("FOO", "1"));
        return random -> {
            List<String> all = new ArrayList<>(List.of("XTRIM", KEY.next(random)));
            all.addAll(strategy.next(random));
            return all.toArray(new String[0]);
        };
    }

    /** XREAD / XREADGROUP over two streams: STREAMS k k id id. */
    private static Gen<String[]> twoStreams(String command, List<String> group) {
        return random -> {
            List<String> all = new ArrayList<>(List.of(command));
            all.addAll(group);
            all.add("STREAMS");
            all.add(KEY.next(random));
            all.add(KEY.next(random));
            Gen<String> id = group.isEmpty() ? READ_ID : GROUP_READ_ID;
            all.add(id.next(random));
            all.add(id.next(random));
            return all.toArray(new String[0]);
        };
    }
}
