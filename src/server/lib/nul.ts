// U+0000 cannot be stored by PostgreSQL (text or jsonb): input carrying it is refused with a 400,
// and text from upstream systems (platform pages, feeds) is cleaned of it before it goes anywhere.

/** A JSON.parse reviver that drops NUL characters from every string value. */
export function dropNul(_key: string, value: unknown): unknown {
  return typeof value === 'string' && value.includes('\0') ? value.replaceAll('\0', '') : value;
}

/** True when any string (or key) in a parsed request part holds a NUL character. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (!value || typeof value !== 'object' || depth > 32 || Buffer.isBuffer(value)) return false;
  for (const [k, v] of Object.entries(value)) if (k.includes('\0') || containsNul(v, depth + 1)) return true;
  return false;
}
