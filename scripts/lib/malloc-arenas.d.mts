export declare const MALLOC_ARENA_MAX: string;
/** Re-executes this process with MALLOC_ARENA_MAX set, on glibc, when it is unset and Node.js can (22.15 and later). */
export declare function execWithFewerMallocArenas(): void;
