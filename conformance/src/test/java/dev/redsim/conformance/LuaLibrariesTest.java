package dev.redsim.conformance;

import dev.redsim.conformance.recording.Recording;
import dev.redsim.conformance.recording.ReferenceMode;
import dev.redsim.conformance.resp.RespClient;
import dev.redsim.conformance.resp.RespValue;
import dev.redsim.conformance.scenario.Scenario;
import dev.redsim.conformance.scenario.ScenarioFile;
import dev.redsim.conformance.scenario.Step;
import dev.redsim.conformance.target.RedisTarget;
import dev.redsim.conformance.target.SharedTargets;
import dev.redsim.simulator.scripting.lib.BitLib;
import dev.redsim.simulator.scripting.lib.CNumbers;
import dev.redsim.simulator.scripting.lib.CjsonLib;
import dev.redsim.simulator.scripting.lib.CmsgpackLib;
import dev.redsim.simulator.scripting.lib.StructLib;
import org.junit.jupiter.api.Test;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.lib.jse.JsePlatform;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Redis's bundled Lua libraries (cjson, cmsgpack, struct, bit) as written for luaj give the same answers
 * as real Redis 7.0: every snippet of lua/library-snippets.txt runs through EVAL on a real redis-server and
 * on a bare luaj Globals holding our four library tables; the replies (strings byte for byte, numbers,
 * arrays, error texts without Redis's script-location wrapper) must be equal. Without a live Redis (outside CI),
 * Redis's replies come from the recording of scenarios/scripting-libs.txt, which sends the same snippets.
 */
class LuaLibrariesTest {
    private static final String SNIPPETS = "lua/library-snippets.txt";
    /** -Dredsim.luaSnippets=<file> runs the snippets of that file instead (for exploring Redis's behaviour). */
    private static final String EXPLORE = System.getProperty("redsim.luaSnippets");
    private static final String LIBRARY_SCENARIOS = "scenarios/scripting-libs.txt";
    private static final Pattern REDIS_ERROR_SUFFIX = Pattern.compile(" script: [0-9a-f]{40}, on @user_script:\\d+\\.$");
    private static final Pattern LOCATION = Pattern.compile("^@?user_script:\\d+:? ");

    @Test
    void everySnippetAnswersAsInRedis() {
        List<String> snippets = snippets();
        if (EXPLORE == null) {
            assertThat(snippets).hasSizeGreaterThanOrEqualTo(250);
        }
        List<RespValue> replies = EXPLORE == null && ReferenceMode.current() == ReferenceMode.REPLAY
                ? recordedReplies() : liveReplies(snippets);
        assertThat(replies).hasSameSizeAs(snippets);
        Globals lua = globals();
        List<String> differences = new ArrayList<>();
        for (int i = 0; i < snippets.size(); i++) {
            String want = render(replies.get(i), 0);
            String got = runOnLuaj(lua, snippets.get(i));
            if (!want.equals(got)) {
                differences.add(snippets.get(i) + "\n    redis: " + want + "\n    luaj:  " + got);
            }
        }
        assertThat(differences).as(differences.size() + " of " + snippets.size() + " snippets differ:\n"
                + String.join("\n", differences)).isEmpty();
    }

    private static List<RespValue> liveReplies(List<String> snippets) {
        RedisTarget redis = SharedTargets.reference();
        List<RespValue> replies = new ArrayList<>();
        try (RespClient client = new RespClient(redis.host(), redis.port())) {
            for (String snippet : snippets) {
                replies.add(client.call("EVAL", snippet, "0"));
            }
        }
        return replies;
    }

    /**
     * Without a live Redis: Redis's replies to the snippets as recorded for the scenario file that sends them
     * (scenarioFileMatchesTheSnippets keeps the two in step; CommandScenariosTest keeps the recording fresh).
     */
    private static List<RespValue> recordedReplies() {
        String file = LIBRARY_SCENARIOS.substring(LIBRARY_SCENARIOS.indexOf('/') + 1);
        Recording recording = ScenarioRecordings.load(file, 2)
                .orElseThrow(() -> new AssertionError(ScenarioChecks.missing(file, 2)));
        List<RespValue> replies = new ArrayList<>();
        recording.scenarios().values().forEach(steps -> steps.forEach(step -> replies.add(step.reply())));
        System.out.println("LuaLibrariesTest: " + replies.size() + " snippets checked against the recording "
                + recording.fileName() + " of Redis " + recording.redisVersion() + " (no live Redis: replayed, not skipped)");
        return replies;
    }

    /** The pending scenario file (kept out of the runner until EVAL exists) sends exactly the snippets. */
    @Test
    void scenarioFileMatchesTheSnippets() {
        List<String> sent = new ArrayList<>();
        for (Scenario scenario : ScenarioFile.load(LIBRARY_SCENARIOS)) {
            for (Step step : scenario.steps()) {
                assertThat(step.args().length).isEqualTo(3);
                assertThat(new String(step.args()[0], StandardCharsets.UTF_8)).isEqualTo("EVAL");
                assertThat(new String(step.args()[2], StandardCharsets.UTF_8)).isEqualTo("0");
                sent.add(new String(step.args()[1], StandardCharsets.UTF_8));
            }
        }
        assertThat(sent).containsExactlyElementsOf(snippets());
    }

    private static Globals globals() {
        Globals globals = JsePlatform.standardGlobals();
        globals.set("cjson", CjsonLib.create());
        globals.set("cmsgpack", CmsgpackLib.create());
        globals.set("struct", StructLib.create());
        globals.set("bit", BitLib.create());
        return globals;
    }

    private static String runOnLuaj(Globals lua, String snippet) {
        try {
            LuaValue chunk = lua.load(snippet, "@user_script");
            return render(chunk.call(), 0);
        } catch (LuaError e) {
            LuaValue message = e.getMessageObject();
            String text = message != null && message.isstring() ? message.tojstring() : String.valueOf(e.getMessage());
            return "-" + LOCATION.matcher(text).replaceFirst("");
        } catch (StackOverflowError | RuntimeException e) {
            return "!" + e;
        }
    }

    /** A Redis reply as text: $bulk (escaped), :integer, -error (without the script wrapper), *[...], _ for null. */
    private static String render(RespValue reply, int depth) {
        if (depth > 100) {
            return "(deeper than 100)";
        }
        switch (reply.type()) {
            case '$' -> {
                return reply.data() == null ? "_" : "$" + RespValue.escape(reply.data());
            }
            case ':' -> {
                return ":" + reply.text();
            }
            case '-' -> {
                String text = reply.text();
                if (text.startsWith("ERR ")) {
                    text = text.substring(4);
                }
                text = REDIS_ERROR_SUFFIX.matcher(text).replaceFirst("");
                return "-" + LOCATION.matcher(text).replaceFirst("");
            }
            case '+' -> {
                return "+" + reply.text();
            }
            case '*' -> {
                if (reply.children() == null) {
                    return "_";
                }
                List<String> parts = new ArrayList<>();
                for (RespValue child : reply.children()) {
                    parts.add(render(child, depth + 1));
                }
                return "*" + parts;
            }
            default -> {
                return reply.toString();
            }
        }
    }

    /** A Lua value as Redis converts a script's result to a RESP2 reply, rendered like the reply above. */
    private static String render(LuaValue value, int depth) {
        if (depth > 100) {
            return "(deeper than 100)";
        }
        switch (value.type()) {
            case LuaValue.TSTRING -> {
                LuaString s = value.checkstring();
                byte[] bytes = new byte[s.length()];
                s.copyInto(0, bytes, 0, bytes.length);
                return "$" + RespValue.escape(bytes);
            }
            case LuaValue.TNUMBER -> {
                // Redis casts the double to long long: out of range (and NaN) gives LLONG_MIN on x86-64.
                return ":" + CNumbers.toLong(value.todouble());
            }
            case LuaValue.TBOOLEAN -> {
                return value.toboolean() ? ":1" : "_";
            }
            case LuaValue.TTABLE -> {
                LuaValue err = value.rawget("err");
                if (err.isstring()) {
                    return "-" + err.tojstring();
                }
                LuaValue ok = value.rawget("ok");
                if (ok.isstring()) {
                    return "+" + ok.tojstring();
                }
                List<String> parts = new ArrayList<>();
                for (int i = 1; !value.rawget(i).isnil(); i++) {
                    parts.add(render(value.rawget(i), depth + 1));
                }
                return "*" + parts;
            }
            default -> {
                return "_";
            }
        }
    }

    /** The snippets: one per line; blank lines and lines starting with # are skipped. */
    static List<String> snippets() {
        List<String> snippets = new ArrayList<>();
        String text;
        try {
            text = EXPLORE == null ? resource(SNIPPETS) : Files.readString(Path.of(EXPLORE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (String line : text.split("\n")) {
            String s = line.strip();
            if (!s.isEmpty() && !s.startsWith("#")) {
                snippets.add(s);
            }
        }
        return snippets;
    }

    private static String resource(String name) {
        try (InputStream in = LuaLibrariesTest.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalArgumentException("no such resource: " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
