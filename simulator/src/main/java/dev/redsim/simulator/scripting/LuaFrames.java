package dev.redsim.simulator.scripting;

import org.luaj.vm2.LuaClosure;
import org.luaj.vm2.LuaValue;

import java.util.Arrays;

/**
 * The Lua call stack as the instruction hook sees it: per frame the running function, its registers and the
 * instruction it is at (null function for pcall frames), so an error can be explained from where it happened.
 * Touched only by the thread running the script.
 */
final class LuaFrames {
    private LuaClosure[] closures = new LuaClosure[32];
    private LuaValue[][] stacks = new LuaValue[32][];
    private int[] pcs = new int[32];
    private int top = -1;
    private int[] topCode; // the top frame's bytecode, read before every instruction

    void push(LuaClosure closure, LuaValue[] stack) {
        if (++top == closures.length) {
            int size = closures.length * 2;
            closures = Arrays.copyOf(closures, size);
            stacks = Arrays.copyOf(stacks, size);
            pcs = Arrays.copyOf(pcs, size);
        }
        closures[top] = closure;
        stacks[top] = stack;
        pcs[top] = 0;
        topCode = closure == null ? null : closure.p.code;
    }

    void pop() {
        if (top >= 0) {
            closures[top] = null;
            stacks[top] = null;
            top--;
            topCode = top >= 0 && closures[top] != null ? closures[top].p.code : null;
        }
    }

    void clear() {
        while (top >= 0) {
            pop();
        }
    }

    /** Called before every instruction of the top frame. */
    void pc(int pc) {
        if (top >= 0) {
            pcs[top] = pc;
        }
    }

    /** The running function's bytecode, null in a pcall frame or outside Lua. */
    int[] topCode() {
        return topCode;
    }

    LuaClosure topClosure() {
        return top >= 0 ? closures[top] : null;
    }

    LuaValue[] topStack() {
        return stacks[top];
    }

    int topPc() {
        return pcs[top];
    }
}
