/**
 * The YAML front matter of a SKILL.md, in the subset skills use: `key: value` lines (quoted or not), and block
 * scalars (`key: |` or `key: >`, with `-`/`+` chomping) whose indented lines follow. Nested maps and lists are
 * skipped. Not a YAML parser: what it does not understand it leaves out.
 */
export function parseSkillFrontMatter(text: string): { fields: { [key: string]: string }; body: string } | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(text);
  if (!match) return undefined;
  const lines = match[1]!.split(/\r?\n/);
  const fields: { [key: string]: string } = {};
  for (let i = 0; i < lines.length; i++) {
    const pair = /^([A-Za-z0-9_-]+)\s*:\s*(.*)$/.exec(lines[i]!);
    if (!pair) continue;
    const key = pair[1]!;
    let value = pair[2]!.trim();
    const block = /^([|>])[+-]?$/.exec(value);
    if (block) {
      const body: string[] = [];
      while (i + 1 < lines.length && (/^\s+\S/.test(lines[i + 1]!) || lines[i + 1]!.trim() === ""))
        body.push(lines[++i]!.trim());
      value = block[1] === "|" ? body.join("\n").trim() : body.join(" ").replace(/\s+/g, " ").trim();
    } else if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]) {
      value = value.slice(1, -1);
    }
    fields[key] = value;
  }
  return { fields, body: text.slice(match[0].length) };
}
