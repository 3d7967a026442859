/** Writes .br and .gz copies beside each compressible file under dir; returns the number written. */
export function precompress(dir: string): number;
