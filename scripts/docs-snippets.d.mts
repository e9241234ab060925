export interface Snippet {
  file: string;
  /** 1-based line of the block's first code line in the markdown file. */
  line: number;
  /** Marked runnable with an info string of "ts run". */
  run: boolean;
  code: string;
  /** The repository file the block says it is ("This is `path`" right after it), if any. */
  copyOf?: string;
}
export const root: string;
export const runDir: string;
export function docFiles(base?: string): string[];
export function extractSnippets(markdown: string, file: string): Snippet[];
export function allSnippets(base?: string): Snippet[];
export function staleCopies(
  snippets: Array<{ file: string; line: number; code: string; copyOf?: string }>,
  base?: string,
): string[];
export function untaggedFences(markdown: string, file: string): string[];
export function headingSlug(heading: string): string;
export function headingAnchors(markdown: string): Set<string>;
export function brokenLinks(markdown: string, file: string, base?: string): string[];
export function sourcePaths(base?: string): Record<string, string[]>;
export function snippetName(snippet: Snippet): string;
export function typecheckSnippets(
  snippets: Snippet[],
  options?: { base?: string; workDir?: string },
): { errors: string[]; dir: string };
export function runSnippet(
  snippet: Snippet,
  options?: { env?: Record<string, string>; timeoutMs?: number; dir?: string },
): Promise<{ status: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
export interface FileCopy {
  file: string;
  line: number;
  code: string;
  /** The repository file the block says it is. */
  copyOf: string;
}
export function extractCopies(markdown: string, file: string): FileCopy[];
export function allCopies(base?: string): FileCopy[];
