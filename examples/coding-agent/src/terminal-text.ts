import type { Logger } from "@heddle/shared";

/**
 * Text that heddle-code did not write itself (the model's answer and reasoning, tool inputs and outputs, file names,
 * hook and MCP server messages) reaches a terminal only through these, because a terminal obeys control sequences
 * wherever they come from: OSC 52 writes the clipboard, OSC 0/2 sets the window title, `ESC c` and `ESC[2J` wipe the
 * screen, `\r` and `ESC[2K` rewrite a line (an approval prompt that says something else than the call it asks about).
 *
 * Every control character except newline and tab is made visible and inert: C0 controls become their Unicode
 * "control pictures" (ESC shows as ␛, BEL as ␇), DEL as ␡, C1 controls (8-bit CSI, OSC) as U+FFFD. A carriage
 * return is dropped (so `\r\n` is a newline). Bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069),
 * which reorder what a line shows, become U+FFFD too. Replacing the introducer neutralizes any sequence, however
 * it is spelled, without parsing it.
 */

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is this regex's job
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the same set, for a quick test (no /g state)
const ANY_UNSAFE = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  if (code === 0x0d) return "";
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  return "\ufffd";
}

/** `text` with every control character except `\n` and `\t` neutralized (see above). */
export function sanitizeForTerminal(text: string): string {
  return text.replace(UNSAFE, visible);
}

/**
 * Where the SDK reports what it cannot throw (a failed hook with its stderr, an MCP server's log): stderr, each
 * message sanitized, as `[heddle] ...` like the SDK's own console logger.
 */
export const terminalLogger: Logger = {
  debug: () => {},
  info: (message) => writeLog(message),
  warn: (message) => writeLog(message),
  error: (message) => writeLog(message),
};

function writeLog(message: string): void {
  process.stderr.write(`[heddle] ${sanitizeForTerminal(message)}\n`);
}

/** The colour codes the renderer itself writes: reset, dim, red, green, yellow, cyan. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the renderer's own SGR sequences
const OWN_STYLES = /(\x1b\[(?:0|2|31|32|33|36)m)/;

/**
 * For the renderer's write path, the last line of defence: its own colour codes stay, every other control
 * character (one a caller forgot to sanitize) is neutralized as in `sanitizeForTerminal`.
 */
export function keepOwnStyles(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text
    .split(OWN_STYLES)
    .map((part, i) => (i % 2 === 1 ? part : sanitizeForTerminal(part)))
    .join("");
}
