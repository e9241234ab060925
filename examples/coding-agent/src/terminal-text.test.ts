import { describe, expect, it } from "vitest";
import { TerminalRenderer } from "./render.js";
import { keepOwnStyles, sanitizeForTerminal } from "./terminal-text.js";

// What a hostile model, file name or tool output sends to the user's terminal.
const OSC52_CLIPBOARD = "\x1b]52;c;cm0gLXJmIH4=\x07";
const WINDOW_TITLE = "\x1b]0;owned\x1b\\";
const CLEAR_SCREEN = "\x1b[2J\x1b[3J\x1b[H";
const FULL_RESET = "\x1bc";
const C1_CSI = "\x9b2J";
const OVERWRITE = "rm -rf ~\r\x1b[2Kls";
const HIDDEN = "\x1b[8mhidden\x1b[28m";
const BIDI = "ls \u202egnp.exe";

describe("sanitizeForTerminal", () => {
  it("leaves no escape, control or bidi-override character a terminal would act on", () => {
    for (const attack of [OSC52_CLIPBOARD, WINDOW_TITLE, CLEAR_SCREEN, FULL_RESET, C1_CSI, OVERWRITE, HIDDEN, BIDI]) {
      const safe = sanitizeForTerminal(attack);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
      expect(safe, JSON.stringify(attack)).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/);
    }
  });

  it("shows what was there: ESC as ␛, BEL as ␇, C1 as U+FFFD; drops carriage returns", () => {
    expect(sanitizeForTerminal(OSC52_CLIPBOARD)).toBe("␛]52;c;cm0gLXJmIH4=␇");
    expect(sanitizeForTerminal(C1_CSI)).toBe("\ufffd2J");
    expect(sanitizeForTerminal(OVERWRITE)).toBe("rm -rf ~␛[2Kls");
    expect(sanitizeForTerminal("a\r\nb\tc\u0000")).toBe("a\nb\tc␀");
  });

  it("keeps ordinary text as it is: newlines, tabs, accents, CJK, emoji", () => {
    const text = "Ünïcödé\t日本語 ✓ 🎉\nnext line";
    expect(sanitizeForTerminal(text)).toBe(text);
  });
});

describe("keepOwnStyles", () => {
  it("keeps exactly the renderer's colour codes and neutralizes everything else", () => {
    expect(keepOwnStyles("\x1b[33m! note\x1b[0m")).toBe("\x1b[33m! note\x1b[0m");
    expect(keepOwnStyles(`\x1b[2m${OSC52_CLIPBOARD}${HIDDEN}\x1b[0m`)).toBe(
      "\x1b[2m␛]52;c;cm0gLXJmIH4=␇␛[8mhidden␛[28m\x1b[0m",
    );
  });
});

describe("the renderer prints nothing a terminal would obey from the model, tools or files", () => {
  const run = (draw: (r: TerminalRenderer) => void) => {
    let out = "";
    const r = new TerminalRenderer({ write: (s) => (out += s), color: true, tty: false });
    draw(r);
    return out;
  };
  // Everything the renderer may emit itself: its colours, and nothing else.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the renderer's own codes
  const withoutOwnStyles = (out: string) => out.replace(/\x1b\[(?:0|2|31|32|33|36)m/g, "");
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the test looks for control characters
  const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
  const attack = `${OSC52_CLIPBOARD}${WINDOW_TITLE}${CLEAR_SCREEN}${FULL_RESET}${HIDDEN}`;

  it("streamed text and reasoning, a tool's line, its output and diff, notices, lines", () => {
    const call = {
      type: "tool-call" as const,
      toolCallId: "c",
      toolName: "write_file",
      input: { path: `a${attack}.txt` },
    };
    const out = run((r) => {
      r.text(`answer ${attack}`);
      r.reasoning(`thinking ${attack}`);
      r.toolStarted(call);
      r.toolFinished(
        call,
        { type: "tool-result", toolCallId: "c", toolName: "write_file", output: `+ ${attack}\n- x` },
        1,
      );
      r.notice(`server says ${attack}`);
      r.line(`a line a caller forgot to sanitize ${attack}`);
    });
    expect(withoutOwnStyles(out)).not.toMatch(CONTROL);
    expect(out).toContain("answer ␛]52;c;");
    // The renderer's own colours are still there.
    expect(out).toContain("\x1b[32m✓\x1b[0m");
  });
});
