export declare const REPORT: string;
export declare const guaranteeModules: string[];
export interface MutationRow {
  file: string;
  killed: number;
  survived: number;
  disabled: number;
  static: number;
  score: number;
}
export declare function changedGuaranteeModules(changed: string[], modules: string[]): string[];
export declare function mutationScores(report: unknown): { files: MutationRow[]; total: MutationRow };
export declare function inPidNamespace(command: string[]): [string, string[]];
export declare function moduleFile(module: string): string;
