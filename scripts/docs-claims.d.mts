export interface EvidenceReference {
  /** The markdown file, relative to the repository root. */
  file: string;
  /** 1-based line of the reference. */
  line: number;
  /** The test or benchmark file as written: a path, a bare name, or a `{a,b}` / `*` pattern. */
  spec: string;
  /** The test titles quoted after "›". */
  titles: string[];
}
export function evidenceFiles(base?: string): string[];
export function extractReferences(markdown: string, file: string): EvidenceReference[];
export function checkReferences(references: EvidenceReference[], base?: string, files?: string[]): string[];
export function allReferences(base?: string): EvidenceReference[];
export const MAX_INLINE: number;
export function checkEvidence(markdown: string, file: string, options?: { maxInline?: number }): string[];
export function allEvidenceProblems(base?: string): string[];
