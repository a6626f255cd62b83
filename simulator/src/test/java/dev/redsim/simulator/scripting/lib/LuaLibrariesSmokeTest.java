package dev.redsim.simulator.scripting.lib;

import org.junit.jupiter.api.Test;
import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.lib.jse.JsePlatform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A few answers of the four libraries, checked without a redis-server (the expected values come from Redis
 * 7.0.15; conformance's LuaLibrariesTest compares hundreds of snippets with a live Redis).
 */
class LuaLibrariesSmokeTest {
    private final Globals lua = globals();

    private static Globals globals() {
        Globals globals = JsePlatform.standardGlobals();
        globals.set("cjson", CjsonLib.create());
        globals.set("cmsgpack", CmsgpackLib.create());
        globals.set("struct", StructLib.create());
        globals.set("bit", BitLib.create());
        return globals;
    }

    private String run(String chunk) {
        return lua.load(chunk, "@user_script").call().tojstring();
    }

    @Test
    void numbersPrintLikePrintfPercentPoint14g() {
        assertThat(CNumbers.formatG(0.1, 14)).isEqualTo("0.1");
        assertThat(CNumbers.formatG(1.0 / 3, 14)).isEqualTo("0.33333333333333");
        assertThat(CNumbers.formatG(1e14, 14)).isEqualTo("1e+14");
        assertThat(CNumbers.formatG(99999999999999.0, 14)).isEqualTo("99999999999999");
        assertThat(CNumbers.formatG(123456789012345.0, 14)).isEqualTo("1.2345678901234e+14");
        assertThat(CNumbers.formatG(0.0001, 14)).isEqualTo("0.0001");
        assertThat(CNumbers.formatG(0.00001, 14)).isEqualTo("1e-05");
        assertThat(CNumbers.formatG(-0.0, 14)).isEqualTo("-0");
        assertThat(CNumbers.formatG(Double.NEGATIVE_INFINITY, 14)).isEqualTo("-inf");
        assertThat(CNumbers.formatG(15, 1)).isEqualTo("2e+01");
    }

    @Test
    void cjsonEncodesAndDecodesAsRedis() {
        assertThat(run("return cjson.encode({1, 'a/b', {}, cjson.null, 0.5})")).isEqualTo("[1,\"a\\/b\",{},null,0.5]");
        assertThat(run("return cjson.encode({[1]=1, [2]=2, [3]=3, [4]=4, [5]=5, [6]=6, [12]=1})"))
                .isEqualTo("[1,2,3,4,5,6,null,null,null,null,null,1]");
        assertThat(bytes("return cjson.decode('\"\\\\ud83d\\\\ude00\"')")).containsExactly(0xf0, 0x9f, 0x98, 0x80);
        assertThatThrownBy(() -> run("return cjson.encode({[11]=1})")).isInstanceOf(LuaError.class)
                .hasMessageContaining("Cannot serialise table: excessively sparse array");
        assertThatThrownBy(() -> run("return cjson.decode('[1,]')")).isInstanceOf(LuaError.class)
                .hasMessageContaining("Expected value but found T_ARR_END at character 4");
    }

    @Test
    void cmsgpackStructAndBitAnswerAsRedis() {
        assertThat(bytes("return cmsgpack.pack({1, 2, 3}, -33, 0.5)"))
                .containsExactly(0x93, 1, 2, 3, 0xd0, 0xdf, 0xca, 0x3f, 0, 0, 0);
        assertThat(run("local a, b = cmsgpack.unpack_one('\\1\\2\\3', 1) return a .. ',' .. b")).isEqualTo("2,2");
        assertThat(bytes("return struct.pack('>i4 !4 b i4', 7, 1, 2)"))
                .containsExactly(0, 0, 0, 7, 1, 0, 0, 0, 0, 0, 0, 2);
        assertThat(run("return table.concat({struct.unpack('<i2 c0', '\\3\\0abc')}, ',')")).isEqualTo("abc,6");
        assertThat(run("return bit.tohex(bit.bxor(0xff, 0x0f), -4) .. bit.tobit(2^31)")).isEqualTo("00F0-2147483648");
        assertThatThrownBy(() -> run("return bit.band(1, 'x')")).isInstanceOf(LuaError.class)
                .hasMessageContaining("bad argument #2 to 'band' (number expected, got string)");
    }

    /** The bytes of the string a chunk returns, as unsigned ints. */
    private int[] bytes(String chunk) {
        LuaString s = lua.load(chunk, "@user_script").call().checkstring();
        int[] out = new int[s.length()];
        for (int i = 0; i < out.length; i++) {
            out[i] = s.luaByte(i);
        }
        return out;
    }
}
