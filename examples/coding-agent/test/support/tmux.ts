import { execFileSync, spawnSync } from "node:child_process";

/** heddle-code in a real terminal (tmux): type, press keys, read the screen, as a person would. */
export class TmuxSession {
  constructor(readonly name: string) {}

  start(command: string, width = 160, height = 50): void {
    execFileSync("tmux", ["new-session", "-d", "-s", this.name, "-x", String(width), "-y", String(height), command]);
  }

  screen(): string {
    return execFileSync("tmux", ["capture-pane", "-p", "-J", "-S", "-400", "-t", this.name], { encoding: "utf8" });
  }

  type(text: string): void {
    execFileSync("tmux", ["send-keys", "-t", this.name, "-l", text]);
  }

  press(...keys: string[]): void {
    execFileSync("tmux", ["send-keys", "-t", this.name, ...keys]);
  }

  /** Types a line and presses Enter. */
  enter(text: string): void {
    this.type(text);
    this.press("Enter");
  }

  async waitFor(check: (text: string) => boolean, what: string, timeoutMs = 30_000): Promise<string> {
    const start = Date.now();
    for (;;) {
      const text = this.screen();
      if (check(text)) return text;
      if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}; screen:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  kill(): void {
    spawnSync("tmux", ["kill-session", "-t", this.name]);
  }
}

export const count = (text: string, needle: string) => text.split(needle).length - 1;
