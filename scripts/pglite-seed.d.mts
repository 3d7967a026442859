/** Makes dist/pglite-seed (a migrated PGlite cluster) unless it is current; true when it was made. */
export function ensureSeed(): Promise<boolean>;
export const seedDir: string;
