/** Removes the duplicate server chunks of the build in `distDir`, after pointing every reference at the kept copy. */
export function dedupeServerChunks(distDir: string): { removed: number; rewritten: number };
/** dedupeServerChunks, then one line saying what it did. */
export function dedupeServerChunksAndSay(distDir: string): void;
