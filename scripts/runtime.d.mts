/** The runtime package fetched for a machine whose Node is older than LOWEST (decision 0095). */
export const RUNTIME: { name: string; version: string; integrity: string };
/** The lowest Node the product runs on, [major, minor]. */
export const LOWEST: [number, number];
export const root: string;
export const runtimeDir: string;
/** True when `version` (e.g. process.version) is at least LOWEST. */
export function runsProduct(version: string): boolean;
/** The fetched runtime's node binary when it is there and is the pinned version. */
export function fetchedNode(): string | null;
/** Fetches, checks and unpacks the pinned runtime; returns its node binary. */
export function fetchRuntime(npmCli: string): string;
