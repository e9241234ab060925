export interface ErrorCodeInfo {
  meaning: string;
  classes: readonly string[];
  packages: readonly string[];
}
export declare const root: string;
export declare const CATALOG_FILE: string;
export declare const ERRORS_DOC: string;
export declare const START: string;
export declare const END: string;
export declare function loadErrorCatalog(base?: string): Promise<Record<string, ErrorCodeInfo>>;
export declare function renderErrorTable(catalog: Record<string, ErrorCodeInfo>): string;
export declare function withTable(markdown: string, table: string): string;
export declare function tableIn(markdown: string): string | undefined;
export declare function errorSourceDirs(base?: string): string[];
export declare function findCodeLiterals(base?: string): { code: string; file: string }[];
export declare function checkCodes(catalog: Record<string, ErrorCodeInfo>, base?: string): string[];
