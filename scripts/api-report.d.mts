export const PACKAGES: string[];
export function packageEntries(dir: string): { report: string; subpath: string; types: string }[];
